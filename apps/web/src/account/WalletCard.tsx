import {
  useConnectWallet,
  useEmbeddedWalletState,
  useExportWallet,
  useSendTransaction,
  useSignMessage,
  useSignTypedData,
  useUser,
  useWallets,
} from "@symbolon/react";
import { type ReactNode, useCallback, useRef, useState } from "react";
import { formatEther, getAddress, numberToHex, stringToHex } from "viem";
import { somniaTestnet } from "../chains";
import { CopyAddress } from "./CopyAddress";
import { CreateWalletButton } from "./CreateWalletButton";
import type { DEMO_TYPED_DATA } from "./demoTypedData";
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
type LinkedAccount = NonNullable<ReturnType<typeof useUser>["user"]>["linkedAccounts"][number];
type Signed = Promise<{ signature: string }>;

/** What the card does with a wallet: sign, sign typed data and send (each after the wallet's confirmation). */
interface WalletActions {
  signMessage: (message: string) => Signed;
  signTypedData: (typedData: typeof DEMO_TYPED_DATA) => Signed;
  send: (to: `0x${string}`, wei: bigint) => Promise<string>;
}

/** The status line while the wallet is being set up; none once it is ready. */
const BUSY_TEXT: Partial<Record<WalletStatus, string>> = {
  "loading-frame": "Loading your wallet…",
  creating: "Creating your wallet…",
  connecting: "Connecting your wallet…",
  recovering: "Recovering your wallet…",
};

/** The app's chain (spec §9): an external wallet is switched to it before sending. */
const CHAIN_ID = somniaTestnet().id;

/** Props of {@link WalletCard}. */
export interface WalletCardProps {
  /** The local chain's RPC when the local faucet is on (VITE_LOCAL_FAUCET), else undefined. */
  faucetRpcUrl: string | undefined;
}

/**
 * The signed-in user's wallet: the embedded one (address, balance, signing, sending, faucet, export), else the
 * browser wallet they signed in with or linked (SIWE), signing and sending through that wallet and with no export
 * (Symbolon holds no key for it), and "Create an embedded wallet" for a user without one.
 */
export function WalletCard({ faucetRpcUrl }: WalletCardProps) {
  const { status, error } = useEmbeddedWalletState();
  const { wallets } = useWallets();
  const { user } = useUser();
  const embedded =
    wallets.find((w) => w.connectorType === "embedded" && w.walletIndex === 0) ??
    wallets.find((w) => w.connectorType === "embedded");
  // The user's own Ethereum browser wallets (SIWE), and the first of them connected in this page.
  const linked = (user?.linkedAccounts ?? []).filter(
    (a): a is Extract<LinkedAccount, { type: "wallet" }> =>
      a.type === "wallet" && a.connectorType !== "embedded" && a.chainType === "ethereum",
  );
  const isLinked = (w: Wallet) => linked.some((a) => a.address.toLowerCase() === w.address.toLowerCase());
  const external = embedded ? undefined : wallets.find((w) => w.connectorType !== "embedded" && isLinked(w));
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
      {embedded ? (
        // Keyed by address: a different wallet starts with fresh balance and results.
        <EmbeddedWallet key={embedded.address} wallet={embedded} faucetRpcUrl={faucetRpcUrl} />
      ) : external ? (
        <ExternalWallet key={external.address} wallet={external} faucetRpcUrl={faucetRpcUrl} />
      ) : linked[0] ? (
        <DisconnectedWallet address={linked[0].address} />
      ) : (
        !busy && <p className="card__label">No wallet yet.</p>
      )}
      {!embedded && !busy && <CreateWalletButton />}
    </section>
  );
}

/** The embedded wallet: signing and sending through the hooks (the modal confirms), and export. */
function EmbeddedWallet({ wallet, faucetRpcUrl }: { wallet: Wallet; faucetRpcUrl: string | undefined }) {
  const address = getAddress(wallet.address);
  const { signMessage } = useSignMessage();
  const { signTypedData } = useSignTypedData();
  const { sendTransaction } = useSendTransaction();
  const actions: WalletActions = {
    signMessage: (message) => signMessage({ message }, { address }),
    signTypedData: (typedData) => signTypedData(typedData, { address }),
    send: async (to, wei) => (await sendTransaction({ to, value: wei }, { address })).hash,
  };
  return (
    <WalletDetails wallet={wallet} label="Embedded wallet" actions={actions} faucetRpcUrl={faucetRpcUrl}>
      <ExportKey address={address} />
    </WalletDetails>
  );
}

/** A browser wallet connected in this page: each action is a request to it (its own prompt confirms). */
function ExternalWallet({ wallet, faucetRpcUrl }: { wallet: Wallet; faucetRpcUrl: string | undefined }) {
  const address = getAddress(wallet.address);
  const current = useRef(wallet);
  current.current = wallet;
  const request = async (method: string, params: unknown[]) =>
    (await current.current.getEthereumProvider()).request({ method, params });
  const actions: WalletActions = {
    signMessage: async (message) => ({
      signature: String(await request("personal_sign", [stringToHex(message), address])),
    }),
    signTypedData: async (typedData) => ({
      signature: String(await request("eth_signTypedData_v4", [address, JSON.stringify(typedData)])),
    }),
    send: async (to, wei) => {
      if (current.current.chainId !== `eip155:${CHAIN_ID}`) await current.current.switchChain(CHAIN_ID);
      return String(await request("eth_sendTransaction", [{ from: address, to, value: numberToHex(wei) }]));
    },
  };
  return (
    <WalletDetails
      wallet={wallet}
      label={`Connected wallet (external) · ${walletName(wallet.walletClientType)}`}
      actions={actions}
      faucetRpcUrl={faucetRpcUrl}
      note={
        <p className="wallet-form__hint wallet-row__note" data-testid="external-wallet-note">
          Signing and sending ask your browser wallet. Its key stays there, so there is nothing to export.
        </p>
      }
    />
  );
}

/** A linked browser wallet not connected in this page (e.g. after a reload): connect it again to use it. */
function DisconnectedWallet({ address }: { address: string }) {
  const { connectWallet } = useConnectWallet();
  const shown = getAddress(address);
  return (
    <div className="wallet">
      <div className="wallet-row">
        <span className="card__label">Connected wallet (external), not connected in this page</span>
        <code className="wallet-address" data-testid="wallet-address">
          {shown}
        </code>
        <CopyAddress address={shown} />
      </div>
      <button type="button" className="button button--small" onClick={() => connectWallet()}>
        Connect your wallet to sign
      </button>
    </div>
  );
}

/** "symbolon_test_wallet" → "Symbolon Test Wallet": the wallet client as people name it. */
function walletName(walletClientType: string): string {
  return walletClientType
    .split(/[_-]/)
    .filter(Boolean)
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join(" ");
}

function WalletDetails({
  wallet,
  label,
  actions,
  faucetRpcUrl,
  note,
  children,
}: {
  wallet: Wallet;
  label: string;
  actions: WalletActions;
  faucetRpcUrl: string | undefined;
  /** A line under the address: what kind of wallet this is and what that means. */
  note?: ReactNode;
  children?: ReactNode;
}) {
  const address = getAddress(wallet.address);
  const current = useRef(wallet);
  current.current = wallet;
  // Reads go through the wallet's EIP-1193 provider, which forwards them to the chain RPC.
  const request = useCallback<RpcRequest>(
    async (method, params) => (await current.current.getEthereumProvider()).request({ method, params }),
    [],
  );
  const { balance, error: balanceError, refresh } = useBalance(request, address);

  return (
    <div className="wallet">
      <div className="wallet-row">
        <span className="card__label" data-testid="wallet-kind">
          {label}
        </span>
        <code className="wallet-address" data-testid="wallet-address">
          {address}
        </code>
        <CopyAddress address={address} />
        {note}
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
      <SignMessageForm sign={actions.signMessage} />
      <SignTypedDataButton sign={actions.signTypedData} />
      <SendForm
        balance={balance}
        send={actions.send}
        confirm={(hash) => waitForReceipt(request, hash)}
        onSent={refresh}
        maxSendable={() => maxSendable(request, address)}
        // The local chain (faucet on) borrows Somnia's id but has no explorer.
        {...(faucetRpcUrl === undefined && { explorerUrl: somniaTestnet().blockExplorers.default.url })}
      />
      {children}
    </div>
  );
}

/** "Export private key": the embedded wallet's key, shown in the provider's export screen. */
function ExportKey({ address }: { address: string }) {
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
    <div className="wallet-form">
      <h3 className="wallet-form__title">Private key</h3>
      <button type="button" className="button button--small button--ghost" onClick={() => void startExport()}>
        Export private key
      </button>
      {exportError && (
        <p role="alert" className="field__error">
          {exportError}
        </p>
      )}
    </div>
  );
}
