import {
  DELEGATION_DECLINED_MESSAGE,
  REVOKE_CANCELLED_MESSAGE,
  useDelegatedActions,
  useUser,
} from "@symbolon/react";
import { useState } from "react";
import { getAddress } from "viem";
import { errorMessage } from "./errorMessage";

type LinkedAccount = NonNullable<ReturnType<typeof useUser>["user"]>["linkedAccounts"][number];
type WalletAccount = Extract<LinkedAccount, { type: "wallet" }>;

/** Closing the consent or revoke screen is the user's answer, not a failure to show. */
const closedByUser = (e: unknown) =>
  e instanceof Error && (e.message === DELEGATION_DECLINED_MESSAGE || e.message === REVOKE_CANCELLED_MESSAGE);

/**
 * Delegated actions of the user's embedded wallet: whether this app's back end may sign with it while the
 * user is away (within the app's policies), "Delegate to this app" (the modal's consent screen lists the
 * signers and their rules) and "Revoke" (the modal's revoke screen). Nothing without an embedded wallet.
 */
export function DelegationCard() {
  const { user } = useUser();
  const { delegateWallet, revokeWallets } = useDelegatedActions();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const embedded = (user?.linkedAccounts ?? []).filter(
    (a): a is WalletAccount =>
      a.type === "wallet" && a.connectorType === "embedded" && a.chainType === "ethereum",
  );
  const wallet = embedded.find((w) => w.walletIndex === 0) ?? embedded[0];
  if (!wallet) return null;
  const address = getAddress(wallet.address);

  /** One action at a time; a refusal goes to the card's alert, closing the screen does not. */
  const run = async (action: () => Promise<void>) => {
    if (busy) return;
    setError(null);
    setBusy(true);
    try {
      await action();
    } catch (e) {
      if (!closedByUser(e)) setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="delegation-title">
      <h2 className="card__title" id="delegation-title">
        Delegated actions
      </h2>
      <p className="wallet-form__hint">
        Let this app's back end sign with your wallet while you're away, only within the app's rules. You can
        revoke it any time.
      </p>
      <p className="card__label">Wallet</p>
      <p className="card__id">
        <code className="wallet-address" data-testid="delegation-wallet">
          {address}
        </code>
      </p>
      <p className="card__label">Status</p>
      <p data-testid="delegation-state" role="status">
        {wallet.delegated ? "Delegated to this app" : "Not delegated"}
      </p>
      <div className="card__actions">
        {wallet.delegated ? (
          <button
            type="button"
            className="button button--small button--danger"
            disabled={busy}
            onClick={() => void run(() => revokeWallets())}
          >
            Revoke
          </button>
        ) : (
          <button
            type="button"
            className="button button--small"
            disabled={busy}
            onClick={() => void run(() => delegateWallet({ address, chainType: "ethereum" }))}
          >
            Delegate to this app
          </button>
        )}
      </div>
      {error && (
        <p role="alert" className="field__error">
          {error}
        </p>
      )}
    </section>
  );
}
