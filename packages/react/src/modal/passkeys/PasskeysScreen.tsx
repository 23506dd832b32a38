import { type Client, MAX_PASSKEYS_PER_USER, type User } from "@symbolon/core";
import { useState } from "react";
import { useClientState } from "../../hooks/useClientState";
import type { PasskeysActions } from "../flows/createPasskeysFlow";
import { ScreenTitle } from "../ScreenTitle";
import { PasskeyList } from "./PasskeyList";
import { addPasskey, removePasskey } from "./passkeyActions";
import { passkeyErrorText } from "./passkeyErrorText";
import { passkeyName, passkeysOf } from "./passkeysOf";

/** Spec §2 passkey management: how many passkeys show until "View all". */
export const MANAGEMENT_LIST_LIMIT = 2;

/** Props of {@link PasskeysScreen}. */
export interface PasskeysScreenProps {
  client: Client;
  actions: PasskeysActions;
  titleId: string;
}

/**
 * Passkey management (spec §2): the user's passkeys (the first 2 until "View all"), Remove on each
 * ('Cannot unlink a passkey enrolled in MFA' when core refuses), and "Add a passkey" until the user has
 * MAX_PASSKEYS_PER_USER (spec §9). A change shows "Passkeys updated". Loaded lazily.
 */
export default function PasskeysScreen({ client, actions, titleId }: PasskeysScreenProps) {
  const user = useClientState("PasskeysScreen", (s) => s.user, null);
  const passkeys = passkeysOf(user);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const change = async (what: string, run: () => Promise<User>) => {
    setBusy(what);
    setError(null);
    try {
      actions.passkeysSaved(await run());
    } catch (failure) {
      setBusy(null);
      setError(passkeyErrorText(failure));
    }
  };

  return (
    <div className="symbolon-form">
      <ScreenTitle id={titleId} focus>
        Your passkeys
      </ScreenTitle>
      <p className="symbolon-subtitle">
        Log in with your face, fingerprint or device PIN instead of a code. You can have up to{" "}
        {MAX_PASSKEYS_PER_USER}.
      </p>
      {passkeys.length === 0 ? (
        <p className="symbolon-status">You have no passkeys yet.</p>
      ) : (
        <PasskeyList
          passkeys={passkeys}
          limit={MANAGEMENT_LIST_LIMIT}
          label="Your passkeys"
          action={(passkey) => (
            <button
              type="button"
              className="symbolon-secondary symbolon-small symbolon-destructive"
              aria-label={`Remove ${passkeyName(passkey)}`}
              disabled={busy !== null}
              onClick={() => void change("remove", () => removePasskey(client, passkey.credential_id))}
            >
              Remove
            </button>
          )}
        />
      )}
      {error && (
        <p className="symbolon-alert" role="alert">
          {error}
        </p>
      )}
      {busy && (
        <p className="symbolon-status" role="status">
          {busy === "add" ? "Use your passkey in the browser's prompt to continue" : "Removing"}
        </p>
      )}
      {passkeys.length < MAX_PASSKEYS_PER_USER && (
        <button
          type="button"
          className="symbolon-button"
          disabled={busy !== null}
          onClick={() => void change("add", () => addPasskey(client))}
        >
          Add a passkey
        </button>
      )}
    </div>
  );
}
