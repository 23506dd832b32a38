import { type ConsentedSigner, type DelegationTerms, describeError } from "@symbolon/core";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { Address } from "./Address";
import { ConnectionProgress } from "./ConnectionStatus";
import { ruleText } from "./policyText";
import { Row } from "./Row";
import { ScreenTitle } from "./ScreenTitle";

/** Props of {@link DelegationConsentScreen}. */
export interface DelegationConsentScreenProps {
  appName: string;
  /** The wallet to delegate. */
  address: string;
  /** Reads the terms to show (the app's signers and their policies). */
  loadTerms: () => Promise<DelegationTerms>;
  /** Delegates the wallet (what "Allow" does). */
  allow: () => Promise<void>;
  /** Id for the title, so the dialog is labelled by it. */
  titleId: string;
  /** Delegated: the flow resolves its caller and closes the modal a moment later. */
  onDone: () => void;
  /** "Not now": closes the modal (the caller's promise rejects). */
  onDecline: () => void;
}

type Terms =
  | { status: "loading" }
  | { status: "ready"; terms: DelegationTerms }
  | { status: "error"; message: string };
type Work =
  | { status: "idle" }
  | { status: "busy" }
  | { status: "done" }
  | { status: "error"; message: string };

/**
 * Words for a failed delegation or revoke: the client's own when it has some, else the error's
 * message (the wallet frame's and the server's refusals are sentences: 'Wallet is not connected').
 */
export function delegationFailureText(failure: unknown): string {
  const described = describeError(failure);
  const generic = describeError(null);
  return described === generic && failure instanceof Error && failure.message ? failure.message : described;
}

/**
 * Delegated actions' consent: which wallet, which of the app's signers may sign for it under which
 * policies (the terms, read from the server), and the user's answer: "Allow" delegates (the wallet
 * frame seals the key to the app's signer), "Not now" closes. A failure says why and offers "Try again".
 */
export function DelegationConsentScreen({
  appName,
  address,
  loadTerms,
  allow,
  titleId,
  onDone,
  onDecline,
}: DelegationConsentScreenProps) {
  const [terms, setTerms] = useState<Terms>({ status: "loading" });
  const [work, setWork] = useState<Work>({ status: "idle" });
  // The latest calls (the screen may be rendered again with new closures).
  const calls = useRef({ loadTerms, allow });
  calls.current = { loadTerms, allow };

  const readTerms = useCallback(() => {
    let current = true;
    setTerms({ status: "loading" });
    calls.current.loadTerms().then(
      (loaded) => current && setTerms({ status: "ready", terms: loaded }),
      (failure: unknown) => current && setTerms({ status: "error", message: delegationFailureText(failure) }),
    );
    return () => {
      current = false;
    };
  }, []);
  useEffect(readTerms, [readTerms]);

  const busy = work.status === "busy";
  const delegate = async () => {
    if (busy || terms.status !== "ready") return;
    setWork({ status: "busy" });
    try {
      await calls.current.allow();
      setWork({ status: "done" });
      onDone();
    } catch (failure) {
      setWork({ status: "error", message: delegationFailureText(failure) });
    }
  };

  if (work.status === "done") {
    return (
      <ConnectionProgress
        done
        title="Delegation enabled"
        subtitle={`${appName} can now sign for this wallet within the rules you allowed.`}
        titleId={titleId}
      />
    );
  }

  const failure = work.status === "error" ? work.message : terms.status === "error" ? terms.message : null;
  const retryTerms = terms.status === "error";
  return (
    <>
      <ScreenTitle id={titleId}>Allow {appName} to use your wallet while you're away</ScreenTitle>
      <dl className="symbolon-details">
        <Row label="Wallet">
          <Address value={address} />
        </Row>
      </dl>
      {terms.status === "ready" && (
        <>
          {/* Scrolls on its own, so the answer stays in view; focusable so keyboard users can scroll it. */}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard. */}
          <section className="symbolon-terms" aria-label="What the app may sign" tabIndex={0}>
            {terms.terms.signers.map((signer) => (
              <SignerRules key={signer.signer_id} signer={signer} />
            ))}
          </section>
          <p className="symbolon-subtitle symbolon-promise" data-testid="delegation-promise">
            {appName}'s back end can sign only what these rules allow. You can revoke this any time.
          </p>
        </>
      )}
      <p className="symbolon-status" role="status" aria-live="polite">
        {terms.status === "loading" ? "Loading what the app asks for…" : busy ? "Enabling delegation…" : ""}
      </p>
      {failure && (
        <p className="symbolon-alert" role="alert">
          {failure}
        </p>
      )}
      <div className="symbolon-actions">
        <button
          type="button"
          className="symbolon-button symbolon-button--secondary"
          data-autofocus
          onClick={onDecline}
        >
          Not now
        </button>
        <button
          type="button"
          className="symbolon-button"
          aria-disabled={busy || terms.status === "loading" || undefined}
          aria-busy={busy || undefined}
          onClick={() => (retryTerms ? readTerms() : void delegate())}
        >
          {busy ? "Allowing…" : failure ? "Try again" : "Allow"}
        </button>
      </div>
    </>
  );
}

/** One signer: its name (or id) and each of its policies' rules in plain words. */
function SignerRules({ signer }: { signer: ConsentedSigner }) {
  const headingId = useId();
  const name = signer.display_name ?? signer.signer_id;
  return (
    <section className="symbolon-block symbolon-signer" aria-labelledby={headingId}>
      <h3 id={headingId} className="symbolon-label">
        {name}
        {signer.display_name !== null && (
          <>
            {" "}
            <span className="symbolon-signer-id">({signer.signer_id})</span>
          </>
        )}
      </h3>
      {signer.policies.length === 0 ? (
        <p className="symbolon-policy">No policy: it may sign nothing.</p>
      ) : (
        signer.policies.map((policy) => (
          <div key={policy.id} className="symbolon-policy">
            <p className="symbolon-policy-name">{policy.name}</p>
            <ul className="symbolon-rules">
              {policy.rules.map((rule) => (
                <li key={rule.id}>
                  <span className="symbolon-rule-name">{rule.name}: </span>
                  <code>{ruleText(rule, signer.aggregations)}</code>
                </li>
              ))}
            </ul>
          </div>
        ))
      )}
    </section>
  );
}
