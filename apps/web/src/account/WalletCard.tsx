import {
  useEmbeddedWalletState,
  useExportWallet,
  useSendTransaction,
  useSignMessage,
  useSignTypedData,
  useWallets,
} from "@symbolon/react";
import { useCallback, useRef, useState } from "react";
import { formatEther, getAddress } from "viem";
import { somniaTestnet } from "../chains";
import { CopyAddress } from "./CopyAddress";
import { errorMessage } from "./errorMessage";
import { Faucet } from "./Faucet";
import { maxSendable } from "./maxSendable";
import { SendForm } from "./SendForm";
import { SignMessageForm } from "./SignMessageForm";
import { SignTypedDataButton } from "./SignTypedDataButton";
import { useBalance } from "./useBalance";
import { formatBalance } from "./validate";
import { type RpcRequest, waitForReceipt } from "./waitForReceipt";

type Wallet = ReturnType<typeof useWallets>["wallets"][number];
type WalletStatus = ReturnType<typeof useEmbeddedWalletState>["status"];

/** The status line while the wallet is being set up; none once it is ready. */
const BUSY_TEXT: Partial<Record<WalletStatus, string>> = {
  "loading-frame": "Loading your wallet…",
  creating: "Creating your wallet…",
  connecting: "Connecting your wallet…",
  recovering: "Recovering your wallet…",
};

/** Props of {@link WalletCard}. */
export interface WalletCardProps {
  /** The local chain's RPC when the local faucet is on (VITE_LOCAL_FAUCET), else undefined. */
  faucetRpcUrl: string | undefined;
}

/** The signed-in user's embedded wallet: address, balance, signing, sending, faucet and export. */
export function WalletCard({ faucetRpcUrl }: WalletCardProps) {
  const { status, error } = useEmbeddedWalletState();
  const { wallets } = useWallets();
  const wallet = wallets.find((candidate) => candidate.walletIndex === 0) ?? wallets[0];
  const busy = BUSY_TEXT[status];
  return (
    <section className="card card--wallet" aria-label="Wallet">
      <h2 className="card__title">Wallet</h2>
      {busy && (
        <p role="status" className="card__label">
          {busy}
        </p>
      )}
      {status === "error" && error && (
        <p role="alert" className="field__error">
          {error.message}
        </p>
      )}
      {wallet ? (
        // Keyed by address: a different wallet starts with fresh balance and results.
        <WalletDetails key={wallet.address} wallet={wallet} faucetRpcUrl={faucetRpcUrl} />
      ) : (
        !busy && <p className="card__label">No wallet yet.</p>
      )}
    </section>
  );
}

function WalletDetails({ wallet, faucetRpcUrl }: { wallet: Wallet; faucetRpcUrl: string | undefined }) {
  const address = getAddress(wallet.address);
  const current = useRef(wallet);
  current.current = wallet;
  // Reads go through the wallet's EIP-1193 provider, which forwards them to the chain RPC.
  const request = useCallback<RpcRequest>(
    async (method, params) => (await current.current.getEthereumProvider()).request({ method, params }),
    [],
  );
  const { balance, error: balanceError, refresh } = useBalance(request, address);
  const { signMessage } = useSignMessage();
  const { signTypedData } = useSignTypedData();
  const { sendTransaction } = useSendTransaction();
  const { exportWallet } = useExportWallet();
  const [exportError, setExportError] = useState<string | null>(null);

  const startExport = async () => {
    setExportError(null);
    try {
      await exportWallet({ address });
    } catch (failure) {
      setExportError(errorMessage(failure));
    }
  };

  return (
    <div className="wallet">
      <div className="wallet-row">
        <span className="card__label">Address</span>
        <code className="wallet-address" data-testid="wallet-address">
          {address}
        </code>
        <CopyAddress address={address} />
      </div>
      <div className="wallet-row">
        <span className="card__label">Balance</span>
        <span
          className="wallet-balance"
          data-testid="wallet-balance"
          // Shown cut to 4 decimals; the exact balance on hover.
          title={balance === null ? undefined : `${formatEther(balance)} STT`}
        >
          {balance === null ? "…" : formatBalance(balance)}
        </span>
        <button type="button" className="button button--small button--ghost" onClick={refresh}>
          Refresh
        </button>
        {balanceError && (
          <p role="alert" className="field__error">
            {balanceError}
          </p>
        )}
      </div>
      {faucetRpcUrl && <Faucet rpcUrl={faucetRpcUrl} address={address} onFunded={refresh} />}
      <SignMessageForm sign={(message) => signMessage({ message }, { address })} />
      <SignTypedDataButton sign={(typedData) => signTypedData(typedData, { address })} />
      <SendForm
        balance={balance}
        send={async (to, wei) => (await sendTransaction({ to, value: wei }, { address })).hash}
        confirm={(hash) => waitForReceipt(request, hash)}
        onSent={refresh}
        maxSendable={() => maxSendable(request, address)}
        // The local chain (faucet on) borrows Somnia's id but has no explorer.
        {...(faucetRpcUrl === undefined && { explorerUrl: somniaTestnet().blockExplorers.default.url })}
      />
      <div className="wallet-form">
        <h3 className="wallet-form__title">Private key</h3>
        <button
          type="button"
          className="button button--small button--ghost"
          onClick={() => void startExport()}
        >
          Export private key
        </button>
        {exportError && (
          <p role="alert" className="field__error">
            {exportError}
          </p>
        )}
      </div>
    </div>
  );
}
