// The WalletConnect v2 connector: a session with a mobile (or desktop) wallet over the WalletConnect relay, used as an
// EIP-1193 provider. It runs `@walletconnect/universal-provider` (the Sign client plus per-chain request routing —
// what `@walletconnect/ethereum-provider` wraps, without that package's hard dependency on the Reown modal, since we
// draw our own QR code from `onPairingUri`).
//
// Loading: this module is imported lazily by the connect code, and it imports the WalletConnect libraries lazily
// itself, so they land in lazy chunks whatever imports it.
//
// Settings: the project id is the client option `walletConnectCloudProjectId`, else the app config's
// `wallet_connect_cloud_project_id` (spec §3); the relay is the client option `walletConnectRelayUrl`, else the public
// relay. Telemetry is off (no events POSTed to the SDK's analytics host).
//
// Session restore: the library keeps its pairings, sessions and keys in the page's storage (IndexedDB in browsers,
// keys prefixed `wc@2:` and this app's id), so after a reload `restoreWalletConnect(client)` finds the session
// without a new QR code, as long as the wallet did not end it; `disconnect()` ends it on both sides.
import type { Client } from "../../client/createClient.ts";
import { ClientError } from "../../errors/ClientError.ts";
import { ProviderRpcError, RPC_ERROR } from "../../wallet/ProviderRpcError.ts";
import { walletConnectProjectId } from "../projectId.ts";
import type { ConnectWalletConnectOptions, WalletConnectProvider } from "../types.ts";

/** The public relay (the library's own default). */
export const DEFAULT_WALLET_CONNECT_RELAY_URL = "wss://relay.walletconnect.org";

/** What we ask wallets for: signing (SIWE needs `personal_sign`), sending, and switching chains. */
export const WALLET_CONNECT_METHODS = [
  "personal_sign",
  "eth_sendTransaction",
  "eth_signTransaction",
  "eth_signTypedData_v4",
  "eth_sign",
  "wallet_switchEthereumChain",
  "wallet_addEthereumChain",
] as const;
export const WALLET_CONNECT_EVENTS = ["chainChanged", "accountsChanged"] as const;

/** `connectWalletConnect` options: the contract's, plus the chains to ask for. */
export interface WalletConnectOptions extends ConnectWalletConnectOptions {
  /** Chain ids to ask for (default: the client's chains, the active one first). */
  chains?: number[];
  /** Aborting stops waiting for the wallet (the QR screen was closed); the promise rejects. */
  signal?: AbortSignal;
}

type UniversalProviderType = InstanceType<
  typeof import("@walletconnect/universal-provider").UniversalProvider
>;

/** One library instance per client: it owns a relay socket and the stored sessions. */
const providers = new WeakMap<Client, Promise<UniversalProviderType>>();

/**
 * Opens a WalletConnect session: `onPairingUri` gets the `wc:` URI to show as a QR code (or open as a deep link),
 * and the promise resolves once the wallet approved, with the session's EIP-1193 provider.
 */
export async function connectWalletConnect(
  client: Client,
  options: WalletConnectOptions,
): Promise<WalletConnectProvider> {
  const chains = requestedChains(client, options.chains);
  const provider = await universalProvider(client);
  // The library holds one session per instance: a new connection ends the previous one (its wallet sees it end,
  // and the previous provider reports a disconnect).
  if (provider.session) {
    await provider.disconnect().catch(() => {});
    provider.events.emit("disconnect", { reason: "replaced" });
  }
  const onUri = (uri: string) => options.onPairingUri(uri);
  provider.on("display_uri", onUri);
  try {
    const connecting = provider.connect({
      optionalNamespaces: {
        eip155: {
          chains: chains.map((id) => `eip155:${id}`),
          methods: [...WALLET_CONNECT_METHODS],
          events: [...WALLET_CONNECT_EVENTS],
          rpcMap: rpcMap(client),
        },
      },
    });
    const session = await (options.signal ? abortable(connecting, options.signal) : connecting);
    if (!session) throw new ProviderRpcError(RPC_ERROR.internal, "WalletConnect returned no session");
    return wrapProvider(provider);
  } catch (error) {
    throw asProviderError(error);
  } finally {
    provider.removeListener("display_uri", onUri);
  }
}

/** The session kept from an earlier page load, as a provider; null when there is none. */
export async function restoreWalletConnect(client: Client): Promise<WalletConnectProvider | null> {
  const provider = await universalProvider(client);
  return provider.session ? wrapProvider(provider) : null;
}

/** The client's relay URL (the option, else the public relay). */
export function walletConnectRelayUrl(client: Client): string {
  return client.options.walletConnectRelayUrl ?? DEFAULT_WALLET_CONNECT_RELAY_URL;
}

/** The project id (client option, else app config); throws when neither gives one. */
export function requireWalletConnectProjectId(client: Client): string {
  const projectId = walletConnectProjectId(client);
  if (!projectId) {
    throw new ClientError(
      "invalid_input",
      "WalletConnect needs a project id: set walletConnectCloudProjectId in the app config or the client options.",
    );
  }
  return projectId;
}

function universalProvider(client: Client): Promise<UniversalProviderType> {
  let pending = providers.get(client);
  if (!pending) {
    pending = createUniversalProvider(client);
    providers.set(client, pending);
    pending.catch(() => providers.delete(client));
  }
  return pending;
}

async function createUniversalProvider(client: Client): Promise<UniversalProviderType> {
  const projectId = requireWalletConnectProjectId(client);
  const { UniversalProvider } = await import("@walletconnect/universal-provider");
  const config = client.store.getState().appConfig;
  const origin = typeof location === "undefined" ? "http://localhost" : location.origin;
  const relayUrl = walletConnectRelayUrl(client);
  const provider = await UniversalProvider.init({
    projectId,
    relayUrl,
    // Sessions of different apps on one origin stay apart (the library also shares one core per prefix).
    customStoragePrefix: `symbolon:${client.options.appId}`,
    telemetryEnabled: false,
    logger: "error",
    metadata: {
      name: config?.name ?? client.options.appId,
      description: config?.name ?? "",
      url: origin,
      icons: config?.logo_url ? [config.logo_url] : [],
    },
  });
  if (client.options.walletConnectVerify === false) skipVerify(provider);
  return provider;
}

/**
 * `walletConnectVerify: false`: where WalletConnect's Verify service cannot be reached, its attestation (an
 * iframe to verify.walletconnect.org before the pairing code, a fetch after the wallet approves) can only time
 * out, 5 s each way. The library skips both in its own development mode; that mode is switched on here, for
 * this provider's core only. Verify only labels the page's origin for the wallet; nothing of ours depends on it.
 */
function skipVerify(provider: UniversalProviderType): void {
  const verify = (provider as unknown as { client?: { core?: { verify?: { isDevEnv?: boolean } } } }).client
    ?.core?.verify;
  if (verify) verify.isDevEnv = true;
}

/** The chains to ask for: `chains`, else the client's chains with the active one first. */
function requestedChains(client: Client, chains?: number[]): number[] {
  if (chains?.length) return chains;
  const active = client.store.getState().activeChainId;
  const configured = (client.options.chains ?? []).map((chain) => chain.id);
  return [active, ...configured.filter((id) => id !== active)];
}

/** Reads of the chain (balances, calls) go to the app's own RPC endpoints, not the library's default. */
function rpcMap(client: Client): Record<string, string> {
  return Object.fromEntries((client.options.chains ?? []).map((chain) => [String(chain.id), chain.rpcUrl]));
}

/**
 * An EIP-1193 view of the library's provider for its current session: hex chain ids, `ProviderRpcError`s,
 * `disconnect()`. Once that session ended (by either side, or replaced by a new connection) requests fail with 4900.
 */
function wrapProvider(provider: UniversalProviderType): WalletConnectProvider {
  const topic = provider.session?.topic;
  const live = () => topic !== undefined && provider.session?.topic === topic;
  const ended = () => new ProviderRpcError(4900, "The WalletConnect session has ended.");
  const request = async ({ method, params }: { method: string; params?: unknown }) => {
    if (!live()) throw ended();
    try {
      const result = await provider.request<unknown>({ method, params: params as unknown[] | undefined });
      // The library answers eth_chainId with a number; EIP-1193 wants a hex string.
      return method === "eth_chainId" && typeof result === "number" ? `0x${result.toString(16)}` : result;
    } catch (error) {
      throw asProviderError(error);
    }
  };
  // Events in EIP-1193 form (chainChanged carries a hex id; the end of the session is a disconnect, 4900), and only
  // while this session lasts: later sessions of the same library instance are another provider's.
  let over = false;
  const translated = new Map<(...args: never[]) => void, (...args: unknown[]) => void>();
  const translate = (event: string, listener: (...args: never[]) => void) => {
    const call = listener as (...args: unknown[]) => void;
    const wrapped = (...args: unknown[]) => {
      if (over) return;
      if (event === "disconnect") {
        over = true;
        call(ended());
      } else if (event === "chainChanged" && typeof args[0] === "number") {
        call(`0x${args[0].toString(16)}`);
      } else {
        call(...args);
      }
    };
    translated.set(listener, wrapped);
    return wrapped;
  };
  const wrapped = {
    request,
    on(event: string, listener: (...args: never[]) => void) {
      provider.on(event, translate(event, listener));
      return wrapped;
    },
    removeListener(event: string, listener: (...args: never[]) => void) {
      const inner = translated.get(listener);
      if (inner) provider.removeListener(event, inner);
      translated.delete(listener);
      return wrapped;
    },
    async disconnect() {
      if (live()) await provider.disconnect();
      over = true;
    },
  };
  return wrapped as unknown as WalletConnectProvider;
}

/** Library errors as EIP-1193 errors: a rejected proposal (SDK code 5000) is the user's rejection, 4001. */
function asProviderError(error: unknown): unknown {
  if (error instanceof ProviderRpcError || error instanceof ClientError) return error;
  const { code, message, data } = (error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
  const text = typeof message === "string" ? message : String(error);
  if (code === 5000 || code === RPC_ERROR.userRejected) {
    return new ProviderRpcError(RPC_ERROR.userRejected, text || "User rejected the request.", data);
  }
  if (typeof code === "number") return new ProviderRpcError(code, text, data);
  return error instanceof Error ? error : new ProviderRpcError(RPC_ERROR.internal, text);
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error("WalletConnect connection cancelled"));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
