// The external-wallet contract (issue 11): the store slice and the shapes the modal, the WalletConnect
// connector and the test wallets code against. Change it only additively; note changes here as "CHANGED: …".
// CHANGED: loginWithSiwe/loginWithSiws resolve with a LoginResult ({user, isNewUser, …}) like every login,
//   linkWithSiwe/linkWithSiws/unlinkWallet with an AccountChangeResult ({user, identityToken}).
// CHANGED: SiweParameters gained message/signature/chainId/walletClientType/connectorType (headless) and mode.
// CHANGED: WalletConnectionError (codes user_rejected_request, unauthorized, unsupported_method,
//   unrecognized_chain, wallet_not_connected, generic_connect_wallet_error; `rpcCode`, `userRejected`).
// CHANGED: ExternalWalletsState.activeAddress (useActiveWallet; null = the default wallet) and setActiveWallet.
// CHANGED: generateSiweMessage / generateSiwsMessage, setActiveWallet exported. The actions `@symbolon/core`
//   exports load their implementation on first call (externalWallets/lazyActions.ts), so they stay out of an
//   app's initial bundle; `@symbolon/core/externalWallets` exports the implementations (and
//   buildWalletDeepLink). `initialize` runs restoreWalletConnections and handleWalletDeepLink itself (lazily)
//   when storage or the URL has something for them.
import type { EIP1193Provider } from "viem";
import type { SymbolonError } from "../errors/SymbolonError.ts";

/** Which chain family a wallet signs for. */
export type ExternalChainType = "ethereum" | "solana";

/** How the client talks to a wallet (the spec's `connectorType`). */
export type ConnectorType =
  | "injected"
  | "wallet_connect"
  | "coinbase_wallet"
  | "solana_adapter"
  | (string & {});

/** A wallet the user can pick: found in this page (installed) or listed by the wallet directory. */
export interface WalletOption {
  /** Stable within a page: the EIP-6963 rdns, the Wallet Standard name, or a directory id. */
  id: string;
  name: string;
  /** A data: or https: URL, or null when the wallet gives none. */
  icon: string | null;
  chainType: ExternalChainType;
  connectorType: ConnectorType;
  /** "metamask", "rabby_wallet", "coinbase_wallet", "phantom", "wallet_connect", or rdns-derived. */
  walletClientType: string;
  /** True when the wallet is in this browser (EIP-6963, window.ethereum, Wallet Standard). */
  installed: boolean;
  /** Directory entries only: links to open the wallet on mobile / desktop / its homepage. */
  links?: { mobile?: string | null; desktop?: string | null; homepage?: string | null };
}

/** Spec §4 wallet connection states. */
export type WalletConnectionStatus =
  | "disconnected"
  | "connecting"
  | "switching_to_supported_chain"
  | "connected";

/** The connection in progress (or the last one); failure returns to disconnected with `error` set. */
export interface WalletConnection {
  status: WalletConnectionStatus;
  /** The `WalletOption.id` being (or last) connected. */
  walletId: string | null;
  error: SymbolonError | null;
  /** The WalletConnect pairing URI to show as a QR code (or open as a deep link on mobile). */
  pairingUri: string | null;
}

/** The spec's stored wallet connection (§3), kept in storage under the app's key prefix. */
export interface StoredWalletConnection {
  address: string;
  connectorType: ConnectorType;
  walletClientType: string;
  /** Milliseconds since the epoch. */
  connectedAt: number;
  /** The `WalletOption.id` it was connected through. */
  id: string;
}

/** A wallet connected in this page: the stored connection plus what it is and how to use it. */
export interface ConnectedExternalWallet extends StoredWalletConnection {
  chainType: ExternalChainType;
  /** `eip155:N` for Ethereum, a Solana cluster id (`solana:…`) for Solana. */
  chainId: string;
  /** Ethereum wallets: the wallet's EIP-1193 provider. Rejects for Solana wallets. */
  getEthereumProvider(): Promise<EIP1193Provider>;
  /** Solana wallets: signs `message` with `solana:signMessage`. Rejects for Ethereum wallets. */
  signMessage(message: Uint8Array): Promise<Uint8Array>;
  /** Forgets the connection (and closes a WalletConnect session). */
  disconnect(): Promise<void>;
}

/** Where a Sign-In With Ethereum / Solana flow is (spec §4 SIWE flow). */
export type SiweFlowStatus =
  | "initial"
  | "generating-message"
  | "awaiting-signature"
  | "submitting-signature"
  | "done"
  | "error";

/** The SIWE / SIWS flow (SIWS uses this slice with `chainType: "solana"`). */
export interface SiweFlow {
  status: SiweFlowStatus;
  chainType: ExternalChainType | null;
  error: SymbolonError | null;
}

/** `ClientState.externalWallets`. */
export interface ExternalWalletsState {
  /** Wallets to pick from (`discoverWallets`; the modal adds `fetchWalletDirectory` results itself). */
  options: WalletOption[];
  connection: WalletConnection;
  /** Wallets connected in this page, most recent first. */
  connected: ConnectedExternalWallet[];
  siwe: SiweFlow;
  /** The wallet `useActiveWallet` answers (embedded or external), by address; null = the default one. */
  activeAddress: string | null;
}

/** Parameters of `connectWallet`. */
export interface ConnectWalletParameters {
  /** A `WalletOption.id` (from `options` or the directory; "wallet_connect" opens WalletConnect). */
  walletId: string;
}

/**
 * Parameters of the SIWE / SIWS actions: which connected wallet signs (default: the most recent one of
 * the chain). Headless use: pass `message` (from `generateSiweMessage` / `generateSiwsMessage`) and the
 * `signature` the app's own wallet made (SIWE hex, SIWS base64), with the wallet's names.
 */
export interface SiweParameters {
  address?: string;
  message?: string;
  signature?: string;
  /** SIWE headless: the chain the message names (read from the message when left out). */
  chainId?: number;
  walletClientType?: string;
  connectorType?: string;
  /** Login only: `no-signup` lets only existing users in. */
  mode?: "login-or-sign-up" | "no-signup";
}

/** The WalletConnect connector's provider: EIP-1193 plus closing the session. */
export type WalletConnectProvider = EIP1193Provider & { disconnect(): Promise<void> };

/** Options of `connectWalletConnect` (externalWallets/walletConnect). */
export interface ConnectWalletConnectOptions {
  /** Called with the pairing URI once the relay gave one (shown as a QR code). */
  onPairingUri(uri: string): void;
}

/** The id of the WalletConnect option (it is never "installed"). */
export const WALLET_CONNECT_ID = "wallet_connect";

/** Spec §8: any connection failure (the provider's code is in `cause`). */
export const UNABLE_TO_CONNECT_MESSAGE = "Unable to connect to wallet.";
/** Spec §8: signing or unlinking with an address that is not connected. */
export const WALLET_NOT_CONNECTED_MESSAGE = "Wallet is not connected";
/** Spec §8: an embedded wallet address offered for login or link. */
export const EMBEDDED_LOGIN_MESSAGE = "Cannot link or login with embedded wallet";
/** Spec §8: unlinking an embedded wallet. */
export const EMBEDDED_UNLINK_MESSAGE = "Cannot unlink an embedded wallet";
/** Spec §9: connector initialization wait. */
export const CONNECTOR_INIT_WAIT_MS = 1500;
/** Spec §9: injected-wallet initialization wait (before `window.ethereum` is read as a fallback). */
export const INJECTED_INIT_WAIT_MS = 1000;

/** The slice before anything happened (also after logout). */
export const initialExternalWallets: ExternalWalletsState = {
  options: [],
  connection: { status: "disconnected", walletId: null, error: null, pairingUri: null },
  connected: [],
  siwe: { status: "initial", chainType: null, error: null },
  activeAddress: null,
};
