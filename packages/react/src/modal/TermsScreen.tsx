import { acceptTerms, type Client, describeError } from "@symbolon/core";
import { useState } from "react";
import type { AccountActions } from "./flows/createAccountActions";
import { ScreenTitle } from "./ScreenTitle";

/** Props of {@link TermsScreen}. */
export interface TermsScreenProps {
  client: Client;
  actions: Pick<AccountActions, "termsAccepted">;
  appName: string;
  termsUrl: string | null;
  privacyUrl: string | null;
  titleId?: string | undefined;
  /** No thanks: closes the modal, which logs the new session out. */
  onDecline: () => void;
}

/** A link opening in a new tab, or the plain words when the app gave no URL. */
function Doc({ url, children }: { url: string | null; children: string }) {
  if (!url) return children;
  return (
    <a href={url} target="_blank" rel="noreferrer">
      {children}
    </a>
  );
}

/**
 * Shown after a login when the app requires its terms and the user has not accepted them (spec §4):
 * Accept records it (`POST /users/me/accept_terms`) and finishes the login; No thanks closes the
 * modal, which logs the new session out. Loaded lazily.
 */
export default function TermsScreen({
  client,
  actions,
  appName,
  termsUrl,
  privacyUrl,
  titleId,
  onDecline,
}: TermsScreenProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const accept = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      actions.termsAccepted(await acceptTerms(client));
    } catch (cause) {
      setBusy(false);
      setError(describeError(cause));
    }
  };

  return (
    <div className="symbolon-form">
      <ScreenTitle id={titleId} focus>
        Accept the terms
      </ScreenTitle>
      <p className="symbolon-subtitle">
        To continue to {appName}, accept its <Doc url={termsUrl}>terms of service</Doc>
        {privacyUrl ? (
          <>
            {" "}
            and <Doc url={privacyUrl}>privacy policy</Doc>
          </>
        ) : null}
        .
      </p>
      {error && (
        <p role="alert" className="symbolon-alert">
          {error}
        </p>
      )}
      <button type="button" className="symbolon-button" aria-disabled={busy} onClick={() => void accept()}>
        {busy ? "Submitting" : "Accept and continue"}
      </button>
      <button type="button" className="symbolon-link" onClick={onDecline}>
        No thanks
      </button>
    </div>
  );
}
