import { isCrossAppError } from "@symbolon/core";
import { useCrossAppAccounts, usePrivy } from "@symbolon/react";
import { useState } from "react";
import { CopyButton } from "./CopyButton";
import { errorMessage } from "./errorMessage";

/** Cross-app refusals carry the spec's words ('User rejected request', …); others as the wallet's. */
const crossAppMessage = (e: unknown) => (isCrossAppError(e) ? e.message : errorMessage(e));

/** The demo message app B asks the provider app's wallet to sign. */
export const CROSS_APP_DEMO_MESSAGE = "Hello from app B";

/** App B, signed out: log in with the user's account of the provider app (a popup). */
export function CrossAppLoginButton({
  providerAppId,
  disabled,
}: {
  providerAppId: string;
  disabled: boolean;
}) {
  const { loginWithCrossAppAccount } = useCrossAppAccounts();
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        className="button button--ghost"
        disabled={disabled}
        onClick={() => {
          setError(null);
          loginWithCrossAppAccount({ appId: providerAppId }).catch((e: unknown) =>
            setError(crossAppMessage(e)),
          );
        }}
      >
        Log in with app A
      </button>
      {error && (
        <p role="alert" className="field__error">
          {error}
        </p>
      )}
    </>
  );
}

/** App B, signed in with a cross-app account: its wallet of the provider app, and a signature by it. */
export function CrossAppCard({ providerAppId }: { providerAppId: string }) {
  const { user } = usePrivy();
  const { signMessage, sendTransaction } = useCrossAppAccounts();
  const [signature, setSignature] = useState<string | null>(null);
  const [hash, setHash] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const account = user?.linkedAccounts.find(
    (a) => a.type === "cross_app" && a.providerApp.id === providerAppId,
  );
  if (account?.type !== "cross_app") return null;
  const address = account.embeddedWallets[0]?.address;
  return (
    <section className="card" aria-label="App A wallet">
      <h2 className="card__title">App A wallet</h2>
      <p className="card__id">
        <code className="wallet-address" data-testid="cross-app-address">
          {address ?? "No wallet"}
        </code>
        {address && <CopyButton text={address} label="Copy address" />}
      </p>
      {address && (
        <button
          type="button"
          className="button button--small"
          onClick={() => {
            setSignature(null);
            setError(null);
            signMessage(CROSS_APP_DEMO_MESSAGE, { address }).then(setSignature, (e: unknown) =>
              setError(crossAppMessage(e)),
            );
          }}
        >
          Sign with app A
        </button>
      )}
      {address && (
        <button
          type="button"
          className="button button--small button--ghost"
          onClick={() => {
            setHash(null);
            setError(null);
            // A zero-value transfer to itself: shows a transaction signed by app A's wallet.
            sendTransaction({ to: address, value: "0x0" }, { address }).then(setHash, (e: unknown) =>
              setError(crossAppMessage(e)),
            );
          }}
        >
          Send with app A
        </button>
      )}
      {hash && (
        <p className="wallet-result">
          <span className="wallet-result__label">Transaction</span>
          <output className="signature" data-testid="cross-app-tx-hash">
            {hash}
          </output>
          <CopyButton text={hash} label="Copy transaction hash" />
        </p>
      )}
      {signature && (
        <p className="wallet-result">
          <span className="wallet-result__label">Signature</span>
          <output className="signature" data-testid="cross-app-signature">
            {signature}
          </output>
          <CopyButton text={signature} label="Copy signature" />
        </p>
      )}
      {error && (
        <p role="alert" className="field__error">
          {error}
        </p>
      )}
    </section>
  );
}
