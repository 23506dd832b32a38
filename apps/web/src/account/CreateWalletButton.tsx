import { useCreateWallet } from "@symbolon/react";
import { useState } from "react";
import { errorMessage } from "./errorMessage";

/**
 * "Create an embedded wallet": for a user without one (spec §9 creates it on login only for users
 * without any wallet, so a browser-wallet user has none until they ask).
 */
export function CreateWalletButton() {
  const { createWallet } = useCreateWallet();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const create = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await createWallet();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="wallet-form">
      <h3 className="wallet-form__title">Embedded wallet</h3>
      <p className="wallet-form__hint">A wallet kept for you by Symbolon, usable without a browser wallet.</p>
      <button
        type="button"
        className="button button--small"
        aria-disabled={busy}
        onClick={() => void create()}
      >
        {busy ? "Creating…" : "Create an embedded wallet"}
      </button>
      {error && (
        <p role="alert" className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}
