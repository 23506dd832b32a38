import { type Client, isFarcasterError, MOBILE_BREAKPOINT_PX, requestFarcasterSigner } from "@symbolon/core";
import { useEffect, useState } from "react";
import type { FarcasterSignerActions } from "./flows/createFarcasterSignerFlow";
import { QrCode } from "./QrCode";
import { ScreenTitle } from "./ScreenTitle";
import { useMediaQuery } from "./useMediaQuery";

/** Props of {@link FarcasterSignerScreen}. */
export interface FarcasterSignerScreenProps {
  client: Client;
  actions: FarcasterSignerActions;
  publicKey: string;
  titleId: string;
  onClose: () => void;
}

/**
 * Spec §2 "Farcaster signer request": the approval link as a QR code (desktop) or a link (mobile),
 * polled every 2 s; approved closes with success, revoked shows 'Request rejected', 300 s 'Connect
 * failed' / 'The request timed out. Try again.'.
 */
export default function FarcasterSignerScreen({
  client,
  actions,
  publicKey,
  titleId,
  onClose,
}: FarcasterSignerScreenProps) {
  const mobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`);
  const [url, setUrl] = useState<string | null>(null);
  const [failure, setFailure] = useState<{ title: string; detail: string | null } | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    requestFarcasterSigner(client, { publicKey, onApprovalUrl: setUrl, signal: abort.signal }).then(
      (signer) => actions.settleFarcasterSigner({ signer }),
      (error: unknown) => {
        if (abort.signal.aborted) return;
        actions.settleFarcasterSigner({ error });
        setFailure(
          isFarcasterError(error)
            ? { title: error.message, detail: error.detail }
            : { title: "Connect failed", detail: error instanceof Error ? error.message : null },
        );
      },
    );
    return () => abort.abort(new Error("The Farcaster signer screen was closed."));
  }, [client, actions, publicKey]);

  return (
    <>
      <ScreenTitle id={titleId}>{failure ? failure.title : "Approve the Farcaster signer"}</ScreenTitle>
      {failure ? (
        failure.detail && (
          <p className="symbolon-alert" role="alert">
            {failure.detail}
          </p>
        )
      ) : (
        <p className="symbolon-subtitle" aria-live="polite">
          {mobile
            ? "Open the Farcaster app to let this app post for you."
            : "Scan with your phone's camera to let this app post for you in the Farcaster app."}
        </p>
      )}
      {!failure && url && !mobile && (
        <div className="symbolon-qr">
          <QrCode value={url} label="Farcaster signer QR code" />
        </div>
      )}
      <div className="symbolon-methods">
        {!failure && url && (
          <a className={mobile ? "symbolon-button" : "symbolon-link"} href={url}>
            Open the Farcaster app
          </a>
        )}
        {failure && (
          <button type="button" className="symbolon-button" onClick={onClose}>
            Close
          </button>
        )}
      </div>
    </>
  );
}
