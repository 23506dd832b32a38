import { MAX_PASSKEYS_PER_USER } from "@symbolon/core";
import { useLinkWithPasskey, useMfaEnrollment, useUser } from "@symbolon/react";
import { useState } from "react";
import { DEMO_PASSKEY_SETTINGS } from "./passkeySettings";

type LinkedAccount = NonNullable<ReturnType<typeof useUser>["user"]>["linkedAccounts"][number];
type Passkey = Extract<LinkedAccount, { type: "passkey" }>;
type MfaMethod = NonNullable<ReturnType<typeof useUser>["user"]>["mfaMethods"][number];

/** How the card names each second factor. */
const MFA_METHOD_NAMES: Record<MfaMethod, string> = {
  totp: "Authenticator app",
  sms: "SMS",
  passkey: "Passkey",
};

/** Where a passkey lives: its authenticator's name when known, else the browser and OS it was made in. */
function passkeyOrigin(passkey: Passkey): string {
  const madeIn = [passkey.createdWithBrowser, passkey.createdWithOs].filter(Boolean).join(" on ");
  return passkey.authenticatorName ?? (madeIn || "Passkey");
}

/**
 * The signed-in user's passkeys (Unlink, "Add a passkey" up to MAX_PASSKEYS_PER_USER) and 2-step verification
 * (the enrolled second factors; the modal's enrolment screens set them up and remove them). A passkey enrolled in
 * MFA shows an "MFA" badge; the demo refuses to unlink it (remove it from 2-step verification first).
 */
export function SecurityCard() {
  const { user } = useUser();
  const { linkWithPasskey, unlinkPasskey } = useLinkWithPasskey();
  const { showMfaEnrollmentModal } = useMfaEnrollment();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  if (!user) return null;

  const passkeys = user.linkedAccounts.filter((a): a is Passkey => a.type === "passkey");
  const mfaMethods = user.mfaMethods;
  /** Runs one action of the card at a time; its refusal goes to the card's alert. */
  const run = async (what: string, action: () => Promise<unknown>) => {
    if (busy !== null) return;
    setError(null);
    setBusy(what);
    try {
      await action();
    } catch (e) {
      setError(e instanceof Error ? e.message : "Something went wrong. Please try again.");
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="card card--accounts" aria-labelledby="security-title">
      <h2 className="card__title" id="security-title">
        Security
      </h2>
      <h3 className="wallet-form__title">Passkeys</h3>
      {passkeys.length === 0 ? (
        <p className="card__label">No passkeys yet.</p>
      ) : (
        <ul className="accounts" aria-label="Passkeys">
          {passkeys.map((passkey, i) => {
            const name = `Passkey ${i + 1}`;
            return (
              <li
                key={passkey.credentialId}
                className="accounts__row"
                data-credential-id={passkey.credentialId}
              >
                <span className="card__label">{name}</span>
                <span className="accounts__value">{passkeyOrigin(passkey)}</span>
                {passkey.enrolledInMfa && (
                  <span className="badge" title="Used for 2-step verification">
                    MFA
                  </span>
                )}
                <span className="accounts__actions">
                  <button
                    type="button"
                    className="button button--ghost button--small"
                    aria-label={`Unlink ${name.toLowerCase()}`}
                    aria-disabled={busy === passkey.credentialId}
                    onClick={() => void run(passkey.credentialId, () => unlinkPasskey(passkey.credentialId))}
                  >
                    {busy === passkey.credentialId ? "Unlinking…" : "Unlink"}
                  </button>
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {passkeys.length < MAX_PASSKEYS_PER_USER && (
        <div className="accounts__actions">
          <button
            type="button"
            className="button button--small"
            aria-disabled={busy === "link"}
            onClick={() => void run("link", linkWithPasskey)}
          >
            {busy === "link" ? "Adding…" : "Add a passkey"}
          </button>
        </div>
      )}
      <h3 className="wallet-form__title">2-step verification</h3>
      {mfaMethods.length === 0 ? (
        <p className="card__label">Off: export and signing need only your session.</p>
      ) : (
        <ul className="accounts" aria-label="Second factors">
          {mfaMethods.map((method) => (
            <li key={method} className="accounts__row">
              <span className="accounts__value">{MFA_METHOD_NAMES[method]}</span>
            </li>
          ))}
        </ul>
      )}
      <p className="card__label" id="passkey-mfa-setting">
        {DEMO_PASSKEY_SETTINGS.shouldUnlinkOnUnenrollMfa
          ? "Turning off passkey verification also deletes those passkeys from your login methods (shouldUnlinkOnUnenrollMfa: on)."
          : "Turning off passkey verification keeps those passkeys as login methods (shouldUnlinkOnUnenrollMfa: off)."}
      </p>
      <div className="accounts__actions">
        <button
          type="button"
          className="button button--small"
          onClick={() => {
            setError(null);
            showMfaEnrollmentModal();
          }}
        >
          {mfaMethods.length === 0 ? "Set up 2-step verification" : "Manage 2-step verification"}
        </button>
      </div>
      {error && (
        <p role="alert" className="field__error">
          {error}
        </p>
      )}
    </section>
  );
}
