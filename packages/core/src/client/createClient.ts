import type { ChainConfig } from "../chain/ChainConfig.ts";
import { ClientError } from "../errors/ClientError.ts";
import type { SymbolonError } from "../errors/SymbolonError.ts";
import { type ExternalWalletsState, initialExternalWallets } from "../externalWallets/types.ts";
import { APP_ID_LENGTH, type AppConfigResponse, type User } from "../generated/protocol.ts";
import { initialMfaState, type MfaOptions, type MfaState } from "../mfa/types.ts";
import { initialOAuthFlow, type OAuthFlowState, type OAuthTokensGrant } from "../oauth/oauthState.ts";
import { initialPasskeyFlow, type PasskeyFlowState, type PasskeysOptions } from "../passkeys/types.ts";
import type { KeyValueStorage } from "../storage/KeyValueStorage.ts";
import { createStore, type Store } from "../store/createStore.ts";
import { unsupportedChainMessage } from "../wallet/ProviderRpcError.ts";
import type { EmbeddedWallet, EmbeddedWalletState } from "../wallet/types.ts";
import { clearActiveClient, setActiveClient } from "./activeClient.ts";
import { registerInternals } from "./internals.ts";

/** How a {@link Client} is set up. */
export interface ClientOptions {
  /** The app id: exactly 25 characters. */
  appId: string;
  /** Sent as `privy-client-id` when set. */
  clientId?: string;
  /** Server base URL, e.g. `http://localhost:8787`; the client appends `/api/v1`. */
  apiUrl: string;
  /** Default: `window.localStorage` when present, else in-memory. */
  storage?: KeyValueStorage;
  /** Default: `globalThis.fetch`, resolved at call time. */
  fetch?: typeof fetch;
  /** Cross-tab sync over `BroadcastChannel` and `storage` events (default: true in browsers). */
  broadcast?: boolean;
  /** Waits between retries; injectable so tests need not wait real seconds. Default: `setTimeout`. */
  sleep?: (ms: number) => Promise<void>;
  /** Embedded wallet behaviour (spec §3 app config `embeddedWallets`). */
  embeddedWallets?: EmbeddedWalletsOptions;
  /** Chains the wallet may use; the first is the default unless `defaultChainId` says otherwise. */
  chains?: ChainConfig[];
  /** Must be one of `chains`. Default: the first chain (Ethereum mainnet, 1, when none is configured). */
  defaultChainId?: number;
  /** The wallet frame page. Default: `${apiUrl}/apps/${appId}/embedded-wallets`. */
  walletFrameUrl?: string;
  /** WalletConnect relay (default: the public relay); tests point it at the stand-in. */
  walletConnectRelayUrl?: string;
  /**
   * WalletConnect's Verify attestation of the page's origin (default on). Off where Verify cannot be reached
   * (an offline machine, `make dev`): otherwise connecting waits 5 s for it before the pairing code and again
   * after the wallet approves.
   */
  walletConnectVerify?: boolean;
  /** Wallet directory host of spec §7 (default: the public explorer). */
  walletExplorerUrl?: string;
  /** Overrides the app config's `walletConnectCloudProjectId` (spec §3). */
  walletConnectCloudProjectId?: string;
  /** MFA behaviour (spec §3 app config `mfa`). */
  mfa?: MfaOptions;
  /** Passkey behaviour (spec §3 app config `passkeys`). */
  passkeys?: PasskeysOptions;
}

/** When to create an embedded wallet on login (spec §4). */
export type CreateOnLogin = "off" | "users-without-wallets" | "all-users";

/** Embedded wallet options of a {@link ClientOptions}. */
export interface EmbeddedWalletsOptions {
  ethereum?: { createOnLogin?: CreateOnLogin };
  /** False signs without asking the user (headless); default true. */
  showWalletUIs?: boolean;
}

/** Email and SMS code flow status (spec §4). */
export type CodeFlowStatus =
  | "initial"
  | "sending-code"
  | "awaiting-code-input"
  | "submitting-code"
  | "done"
  | "error";

/** Email code flow status (spec §4). */
export type EmailFlowStatus = CodeFlowStatus;

/** Where the SMS code flow is; `phoneNumber` (E.164 once validated) survives errors so the user can retry. */
export interface SmsFlowState {
  status: CodeFlowStatus;
  phoneNumber: string | null;
  error: SymbolonError | null;
}

/** Custom token sync status (spec §4 "Custom token sync"). */
export type CustomAuthSyncStatus = "not-enabled" | "initial" | "loading" | "done" | "error";

/** Where the custom token sync is. */
export interface CustomAuthSyncState {
  status: CustomAuthSyncStatus;
  error: SymbolonError | null;
}

/** Where the email code flow is; `email` survives errors so the user can retry. */
export interface EmailFlowState {
  status: EmailFlowStatus;
  email: string | null;
  error: SymbolonError | null;
}

/** Everything the UI renders from. */
export interface ClientState {
  /** False until `initialize()` settled the user (fetched or known absent). */
  ready: boolean;
  authenticated: boolean;
  /** Server form of the user (snake_case); `formatUser` gives the client form. */
  user: User | null;
  identityToken: string | null;
  appConfig: AppConfigResponse | null;
  emailFlow: EmailFlowState;
  smsFlow: SmsFlowState;
  /** The custom JWT sync (`syncCustomAuth`). */
  customAuthSync: CustomAuthSyncState;
  /** The OAuth flow (`loginWithOAuth`, `linkOAuth`, `handleOAuthReturn`). */
  oauthFlow: OAuthFlowState;
  /** Provider tokens by provider, in memory only; cleared on logout. */
  oauthTokens: Readonly<Record<string, OAuthTokensGrant>>;
  /** The last error met while initialising or restoring the session, if any. */
  error: SymbolonError | null;
  /**
   * The signed-in user's embedded wallets this client has worked with (created, unlocked or
   * recovered), one per chain, with where each stands; `embeddedWalletState` reads one.
   */
  embeddedWallets: readonly EmbeddedWallet[];
  /** The chain the wallet sends to (`wallet_switchEthereumChain` changes it). */
  activeChainId: number;
  /** Browser and mobile wallets: options, the connection in progress, connected wallets, SIWE/SIWS. */
  externalWallets: ExternalWalletsState;
  /** The passkey login, sign-up or link in progress. */
  passkeyFlow: PasskeyFlowState;
  /** MFA: the verification a wallet operation waits for, the enrolment in progress, the MFA modal. */
  mfaState: MfaState;
}

/** A client bound to one app and one server. */
export interface Client {
  readonly options: ClientOptions;
  readonly store: Store<ClientState>;
  /** Stops timers, channels and listeners. */
  destroy(): void;
}

/** The email flow before anything happened. */
export const initialEmailFlow: EmailFlowState = { status: "initial", email: null, error: null };

/** The SMS flow before anything happened. */
export const initialSmsFlow: SmsFlowState = { status: "initial", phoneNumber: null, error: null };

/** The custom token sync before anything happened. */
export const initialCustomAuthSync: CustomAuthSyncState = { status: "initial", error: null };

/** An embedded wallet before anything happened (also every one after logout). */
export const initialEmbeddedWallet: EmbeddedWalletState = { status: "idle", error: null };

/** Like the spec client: Ethereum mainnet when the app configures no chain. */
const FALLBACK_CHAIN_ID = 1;

/** Creates a client. Touches no browser global: channels and storage are set up lazily. */
export function createClient(options: ClientOptions): Client {
  if (typeof options.appId !== "string" || options.appId.length !== APP_ID_LENGTH) {
    // Spec §5: the app id is a string of exactly 25 characters.
    throw new ClientError("invalid_input", `App ID must be a string of exactly ${APP_ID_LENGTH} characters.`);
  }
  if (typeof options.apiUrl !== "string" || options.apiUrl === "") {
    throw new ClientError("invalid_input", "apiUrl must be the base URL of the server.");
  }
  const chains = options.chains ?? [];
  const activeChainId = options.defaultChainId ?? chains[0]?.id ?? FALLBACK_CHAIN_ID;
  if (chains.length > 0 && !chains.some((chain) => chain.id === activeChainId)) {
    throw new ClientError("invalid_input", unsupportedChainMessage(activeChainId));
  }
  const store = createStore<ClientState>({
    ready: false,
    authenticated: false,
    user: null,
    identityToken: null,
    appConfig: null,
    emailFlow: initialEmailFlow,
    smsFlow: initialSmsFlow,
    customAuthSync: initialCustomAuthSync,
    oauthFlow: initialOAuthFlow,
    oauthTokens: {},
    error: null,
    embeddedWallets: [],
    activeChainId,
    externalWallets: initialExternalWallets,
    passkeyFlow: initialPasskeyFlow,
    mfaState: initialMfaState,
  });
  const client: Client = {
    options: { ...options },
    store,
    destroy: () => internals.destroy(),
  };
  const internals = registerInternals(client);
  setActiveClient(client);
  internals.cleanups.push(() => clearActiveClient(client));
  return client;
}
