import { useState } from "react";
import { Address } from "./Address";
import { ConnectionProgress } from "./ConnectionStatus";
import { delegationFailureText } from "./DelegationConsentScreen";
import { ScreenTitle } from "./ScreenTitle";

/** Props of {@link DelegationRevokeScreen}. */
export interface DelegationRevokeScreenProps {
  appName: string;
  /** The delegated wallets' addresses, as they were when the screen opened. */
  wallets: string[];
  /** Revokes every delegation (what "Revoke" does). */
  revoke: () => Promise<void>;
  /** Id for the title, so the dialog is labelled by it. */
  titleId: string;
  /** Revoked: the flow resolves its caller and closes the modal a moment later. */
  onDone: () => void;
  /** "Cancel": closes the modal (the caller's promise rejects). */
  onCancel: () => void;
}

type Work =
  | { status: "idle" }
  | { status: "busy" }
  | { status: "done" }
  | { status: "error"; message: string };

/**
 * Revoking delegated actions: the wallets the app's back end may sign with now, and the user's
 * answer: "Revoke" ends every delegation, "Cancel" closes. A failure says why and offers "Try again".
 */
export function DelegationRevokeScreen({
  appName,
  wallets,
  revoke,
  titleId,
  onDone,
  onCancel,
}: DelegationRevokeScreenProps) {
  const [work, setWork] = useState<Work>({ status: "idle" });
  const busy = work.status === "busy";
  const run = async () => {
    if (busy) return;
    setWork({ status: "busy" });
    try {
      await revoke();
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
        title="Access revoked"
        subtitle={`${appName} can no longer sign for your wallet.`}
        titleId={titleId}
      />
    );
  }

  return (
    <>
      <ScreenTitle id={titleId}>Stop {appName} from using your wallet?</ScreenTitle>
      <p className="symbolon-subtitle">
        {appName}'s back end will no longer be able to sign with{" "}
        {wallets.length === 1 ? "this wallet" : "these wallets"}.
      </p>
      <ul className="symbolon-wallets" aria-label="Delegated wallets">
        {wallets.map((address) => (
          <li key={address}>
            <Address value={address} />
          </li>
        ))}
      </ul>
      <p className="symbolon-status" role="status" aria-live="polite">
        {busy ? "Revoking…" : ""}
      </p>
      {work.status === "error" && (
        <p className="symbolon-alert" role="alert">
          {work.message}
        </p>
      )}
      <div className="symbolon-actions">
        <button
          type="button"
          className="symbolon-button symbolon-button--secondary"
          data-autofocus
          onClick={onCancel}
        >
          Cancel
        </button>
        <button
          type="button"
          className="symbolon-button symbolon-destructive"
          aria-disabled={busy || undefined}
          aria-busy={busy || undefined}
          onClick={() => void run()}
        >
          {busy ? "Revoking…" : work.status === "error" ? "Try again" : "Revoke"}
        </button>
      </div>
    </>
  );
}
