import type { Client, User } from "@symbolon/core";
import { type ReactNode, useId, useState } from "react";
import { useClientState } from "../../hooks/useClientState";
import { type Passkey, passkeyName, passkeysOf } from "../passkeys/passkeysOf";
import { ScreenTitle } from "../ScreenTitle";
import { enrollErrorText } from "./enrollErrorText";
import MfaVerifyScreen from "./MfaVerifyScreen";
import { cancelMfa, unenrollMfa } from "./mfaActions";
import { isMfaMethod, MFA_METHOD_LABELS, type MfaMethod } from "./mfaMethods";
import { PasskeyEnrollStep } from "./PasskeyEnrollStep";
import { SmsEnrollStep } from "./SmsEnrollStep";
import { useSecurityStyles } from "./securityStyles";
import { TotpEnrollStep } from "./TotpEnrollStep";

/** Props of {@link MfaEnrollScreen}. */
export interface MfaEnrollScreenProps {
  client: Client;
  appName: string;
  titleId: string;
  /** Close, Done, Not now: closes the modal (core cancels a pending enrolment). */
  onClose: () => void;
}

/** Where the enrolment is. */
type Step =
  | { name: "intro" }
  | { name: "choose" }
  | { name: "none" }
  | { name: "setup"; method: MfaMethod }
  | { name: "remove"; method: MfaMethod }
  | { name: "done"; method: MfaMethod };

/** What each method does, under its name in the choice. */
const DESCRIPTIONS: Record<MfaMethod, string> = {
  totp: "A 6-digit code from an app such as Google Authenticator or 1Password.",
  sms: "A 6-digit code texted to your phone.",
  passkey: "Your face, fingerprint or device PIN.",
};

/** The line of each removal confirmation. */
const REMOVALS: Record<MfaMethod, string> = {
  totp: "You will no longer be asked for a code from your authenticator app.",
  sms: "You will no longer be asked for a code texted to your phone.",
  passkey: "Your passkeys will no longer be asked for to confirm it's you.",
};

/** A passkey as the removal warning names it: its authenticator and when it was added. */
function describePasskey(passkey: Passkey): string {
  const added = passkey.first_verified_at ?? passkey.verified_at;
  const where = [passkey.created_with_browser, passkey.created_with_os].filter(Boolean).join(" on ");
  const parts = [passkeyName(passkey), where && `from ${where}`, added > 0 && `added ${formatDay(added)}`];
  return parts.filter(Boolean).join(", ");
}

/** The user's ways to log in, counted as the server counts them: embedded wallets are not. */
function waysIn(user: User | null): number {
  return (user?.linked_accounts ?? []).filter(
    (account) => !(account.type === "wallet" && account.connector_type === "embedded"),
  ).length;
}

/** A day in the reader's locale, from Unix seconds. */
function formatDay(seconds: number): string {
  return new Date(seconds * 1000).toLocaleDateString(undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
  });
}

/** The done screen's title. */
const DONE_TITLES: Record<MfaMethod, string> = {
  totp: "Authenticator app is on",
  sms: "SMS verification is on",
  passkey: "Passkey verification is on",
};

/**
 * MFA enrolment (spec §2, §4): the intro (the transaction-protection intro when the app has
 * `mfa_protect_transactions`: Continue / Not now), the choice among the app's `mfa_methods` (Remove on
 * an enrolled one, with its confirmation), SMS setup, authenticator-app setup, passkey setup, done, and
 * the no-methods screen. A step that needs the user to verify first (they have MFA already) shows the
 * verification over it; the step stays mounted underneath and goes on once verified. Loaded lazily.
 */
export default function MfaEnrollScreen({ client, appName, titleId, onClose }: MfaEnrollScreenProps) {
  useSecurityStyles();
  const appConfig = useClientState("MfaEnrollScreen", (s) => s.appConfig, null);
  const user = useClientState("MfaEnrollScreen", (s) => s.user, null);
  const pending = useClientState("MfaEnrollScreen", (s) => s.mfaState.pending, null);
  const offered = (appConfig?.mfa_methods ?? []).filter(isMfaMethod);
  const enrolled = new Set((user?.mfa_methods ?? []).map((method) => method.type));
  const protect = appConfig?.mfa_protect_transactions === true;
  const verifyTitleId = useId();

  // Spec §4: with passkey as the only method and passkeys already there, the intro leads straight to it.
  const afterIntro = (): Step =>
    offered.length === 1 && offered[0] === "passkey" && passkeysOf(user).length > 0
      ? { name: "setup", method: "passkey" }
      : { name: "choose" };
  const [step, setStep] = useState<Step>(() =>
    offered.length === 0 ? { name: "none" } : enrolled.size === 0 ? { name: "intro" } : { name: "choose" },
  );
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const back = () => {
    setError(null);
    setStep({ name: "choose" });
  };
  const done = (method: MfaMethod) => setStep({ name: "done", method });

  const remove = async (method: MfaMethod) => {
    setRemoving(true);
    setError(null);
    try {
      await unenrollMfa(client, method);
      setNotice(`${MFA_METHOD_LABELS[method]} removed`);
      setStep({ name: "choose" });
    } catch (failure) {
      setError(enrollErrorText(failure));
    }
    setRemoving(false);
  };

  let body: ReactNode;
  if (step.name === "none") {
    body = (
      <div className="symbolon-form">
        <ScreenTitle id={titleId} focus>
          No verification methods
        </ScreenTitle>
        <p className="symbolon-subtitle">{appName} has not turned on 2-step verification.</p>
        <button type="button" className="symbolon-button" onClick={onClose}>
          Close
        </button>
      </div>
    );
  } else if (step.name === "intro") {
    body = (
      <div className="symbolon-form">
        <ScreenTitle id={titleId} focus>
          {protect ? "Protect your transactions" : "Add 2-step verification"}
        </ScreenTitle>
        <p className="symbolon-subtitle">
          {protect
            ? `${appName} is turning on 2-step verification for your wallet. You will need to confirm it's you to complete transactions.`
            : "Besides your login, confirm it's you with a second step before sensitive actions such as exporting your wallet's key."}
        </p>
        <button type="button" className="symbolon-button" onClick={() => setStep(afterIntro())}>
          Continue
        </button>
        <button type="button" className="symbolon-secondary" onClick={onClose}>
          Not now
        </button>
      </div>
    );
  } else if (step.name === "choose") {
    body = (
      <div className="symbolon-form">
        <ScreenTitle id={titleId} focus>
          Choose a verification method
        </ScreenTitle>
        <p className="symbolon-subtitle">You'll use it to confirm it's you.</p>
        <ul className="symbolon-mfa-methods" aria-label="Verification methods">
          {offered.map((method) => (
            <li key={method} className="symbolon-mfa-method">
              <span className="symbolon-passkey-text">
                <span className="symbolon-passkey-name">{MFA_METHOD_LABELS[method]}</span>
                <span className="symbolon-passkey-detail" id={`${titleId}-${method}`}>
                  {DESCRIPTIONS[method]}
                </span>
              </span>
              {enrolled.has(method) ? (
                <>
                  <span className="symbolon-badge">On</span>
                  <button
                    type="button"
                    className="symbolon-secondary symbolon-small symbolon-destructive"
                    aria-label={`Remove ${MFA_METHOD_LABELS[method]}`}
                    onClick={() => {
                      setNotice(null);
                      setStep({ name: "remove", method });
                    }}
                  >
                    Remove
                  </button>
                </>
              ) : (
                <button
                  type="button"
                  className="symbolon-secondary symbolon-small"
                  aria-label={`Set up ${MFA_METHOD_LABELS[method]}`}
                  aria-describedby={`${titleId}-${method}`}
                  onClick={() => {
                    setNotice(null);
                    setStep({ name: "setup", method });
                  }}
                >
                  Set up
                </button>
              )}
            </li>
          ))}
        </ul>
        <p className="symbolon-status" role="status">
          {notice ?? ""}
        </p>
      </div>
    );
  } else if (step.name === "remove") {
    const label = MFA_METHOD_LABELS[step.method];
    const unlinked =
      step.method === "passkey" && client.options.passkeys?.shouldUnlinkOnUnenrollMfa !== false
        ? passkeysOf(user).filter((passkey) => passkey.enrolled_in_mfa)
        : [];
    // The server keeps one passkey when they are the user's only ways in (never the last way in): say so.
    const otherWaysIn = waysIn(user) - unlinked.length;
    body = (
      <div className="symbolon-form">
        <ScreenTitle id={titleId} focus>
          {`Remove ${label}?`}
        </ScreenTitle>
        <p className="symbolon-subtitle">{REMOVALS[step.method]}</p>
        {unlinked.length > 0 && (
          <div className="symbolon-warning" id={`${titleId}-unlink`}>
            <p>
              {otherWaysIn > 0
                ? `This also deletes ${unlinked.length === 1 ? "this passkey" : "these passkeys"} from your account. You will no longer be able to log in with ${unlinked.length === 1 ? "it" : "them"}:`
                : unlinked.length === 1
                  ? "This passkey stays as your way to log in, since you have no other:"
                  : "This also deletes all but one of these passkeys from your account; one stays as your way to log in, since you have no other:"}
            </p>
            <ul aria-label="Passkeys removed from your login methods">
              {unlinked.map((passkey) => (
                <li key={passkey.credential_id}>{describePasskey(passkey)}</li>
              ))}
            </ul>
          </div>
        )}
        {error && (
          <p className="symbolon-alert" role="alert">
            {error}
          </p>
        )}
        <button
          type="button"
          className="symbolon-button symbolon-destructive"
          disabled={removing}
          aria-describedby={unlinked.length > 0 ? `${titleId}-unlink` : undefined}
          onClick={() => void remove(step.method)}
        >
          {removing ? "Removing…" : "Remove"}
        </button>
        <button type="button" className="symbolon-secondary" onClick={back}>
          Cancel
        </button>
      </div>
    );
  } else if (step.name === "done") {
    body = (
      <div className="symbolon-form">
        <div className="symbolon-success" role="status">
          <span className="symbolon-check" aria-hidden="true">
            ✓
          </span>
          <ScreenTitle id={titleId} focus>
            {DONE_TITLES[step.method]}
          </ScreenTitle>
          <p className="symbolon-subtitle">You'll be asked for it before sensitive actions.</p>
        </div>
        <button type="button" className="symbolon-button" onClick={onClose}>
          Done
        </button>
      </div>
    );
  } else if (step.method === "sms") {
    body = <SmsEnrollStep client={client} titleId={titleId} onDone={() => done("sms")} onBack={back} />;
  } else if (step.method === "totp") {
    body = <TotpEnrollStep client={client} titleId={titleId} onDone={() => done("totp")} onBack={back} />;
  } else {
    body = (
      <PasskeyEnrollStep
        client={client}
        titleId={titleId}
        onDone={() => done("passkey")}
        onBack={offered.length > 1 ? back : undefined}
      />
    );
  }

  // The step needs the user to verify first: the verification shows over it (the step stays mounted).
  return (
    <>
      <div hidden={pending !== null}>{body}</div>
      {pending !== null && (
        <MfaVerifyScreen
          client={client}
          titleId={verifyTitleId}
          onClose={onClose}
          onBack={() => cancelMfa(client)}
        />
      )}
    </>
  );
}
