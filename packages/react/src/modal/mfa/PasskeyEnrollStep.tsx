import { type Client, MAX_PASSKEYS_PER_USER } from "@symbolon/core";
import { useState } from "react";
import { useClientState } from "../../hooks/useClientState";
import { PasskeyList } from "../passkeys/PasskeyList";
import { addPasskey } from "../passkeys/passkeyActions";
import { passkeyErrorText } from "../passkeys/passkeyErrorText";
import { passkeysOf } from "../passkeys/passkeysOf";
import { ScreenTitle } from "../ScreenTitle";
import { enrollErrorText } from "./enrollErrorText";
import { submitMfaEnrollment } from "./mfaActions";

/** Spec §2: how many passkeys the enrolment lists until "View all". */
export const ENROLLMENT_LIST_LIMIT = 3;

/** Props of {@link PasskeyEnrollStep}. */
export interface PasskeyEnrollStepProps {
  client: Client;
  titleId?: string | undefined;
  onDone: () => void;
  onBack?: (() => void) | undefined;
}

/**
 * Spec §2 passkey setup: add passkeys ("Add a passkey", gone at MAX_PASSKEYS_PER_USER, spec §5), then enable them
 * ("Enable passkeys": every passkey of the user becomes an MFA method). The list shows 3 until "View all".
 */
export function PasskeyEnrollStep({ client, titleId, onDone, onBack }: PasskeyEnrollStepProps) {
  const user = useClientState("PasskeyEnrollStep", (s) => s.user, null);
  const passkeys = passkeysOf(user);
  const [busy, setBusy] = useState<"add" | "enable" | null>(null);
  const [error, setError] = useState<string | null>(null);

  const add = async () => {
    setBusy("add");
    setError(null);
    try {
      await addPasskey(client);
    } catch (failure) {
      setError(passkeyErrorText(failure));
    }
    setBusy(null);
  };
  const enable = async () => {
    setBusy("enable");
    setError(null);
    try {
      const credentialIds = passkeys.map((passkey) => passkey.credential_id);
      await submitMfaEnrollment(client, { method: "passkey", credentialIds });
      onDone();
    } catch (failure) {
      setError(enrollErrorText(failure));
      setBusy(null);
    }
  };

  return (
    <div className="symbolon-form">
      <ScreenTitle id={titleId} focus>
        Set up passkey verification
      </ScreenTitle>
      <p className="symbolon-subtitle">
        {passkeys.length === 0
          ? "Add a passkey, then enable it to confirm it's you with your face, fingerprint or device PIN."
          : "Enable your passkeys to confirm it's you with your face, fingerprint or device PIN."}
      </p>
      {passkeys.length > 0 && (
        <PasskeyList passkeys={passkeys} limit={ENROLLMENT_LIST_LIMIT} label="Your passkeys" />
      )}
      {error && (
        <p className="symbolon-alert" role="alert">
          {error}
        </p>
      )}
      {busy && (
        <p className="symbolon-status" role="status">
          {busy === "add" ? "Use your passkey in the browser's prompt to continue" : "Enabling passkeys…"}
        </p>
      )}
      {passkeys.length > 0 && (
        <button
          type="button"
          className="symbolon-button"
          disabled={busy !== null}
          onClick={() => void enable()}
        >
          Enable passkeys
        </button>
      )}
      {passkeys.length < MAX_PASSKEYS_PER_USER && (
        <button
          type="button"
          className={passkeys.length === 0 ? "symbolon-button" : "symbolon-secondary"}
          disabled={busy !== null}
          onClick={() => void add()}
        >
          Add a passkey
        </button>
      )}
      {onBack && (
        <button type="button" className="symbolon-link" onClick={onBack}>
          Back
        </button>
      )}
    </div>
  );
}
