// A wallet frame as the page builds it (real wasm, real handlers and listener), with its
// fetch going to a FakeServer and its storage in memory, plus a host that posts requests.
import { createApi, createGet, createPost } from "../api.ts";
import { ethereum } from "../chains/ethereum.ts";
import { type DeviceKeyStore, memoryDeviceKeys, scopedDeviceKeys } from "../deviceKeys.ts";
import { createDeviceStore, type KeyValueStorage } from "../deviceStore.ts";
import { createEmbedderGate, type EmbeddingContext, storageScope } from "../embedder.ts";
import { walletHandlers } from "../handlers.ts";
import { createMessageListener, type Handler, type IncomingMessage } from "../messages.ts";
import type { MfaDeps } from "../mfa/mfaHandlers.ts";
import { createMfaTokens, type TokenStorage } from "../mfa/mfaTokens.ts";
import { scopedStorage } from "../scopedStorage.ts";
import { type WalletRef, WalletService } from "../wallets.ts";
import type { FakeServer } from "./fakeServer.ts";

export const HOST = "http://localhost:5173";

/** The only `entropyIdVerifier` the frame serves (the published client's wire value). */
export const VERIFIER = "ethereum-address-verifier";

/** The published protocol's name of the wallet whose index 0 is `address`. */
export function entropy(address: string): { entropyId: string; entropyIdVerifier: string } {
  return { entropyId: address, entropyIdVerifier: VERIFIER };
}

/** The frame's own name of the Ethereum wallet whose index 0 is `address` (WalletService calls). */
export function ethereumWallet(address: string): WalletRef {
  return { chain: ethereum, entropyId: address };
}

/** The error `privy:wallets:connect` answers when this device cannot unlock (the host recovers). */
export const NOT_ON_DEVICE = {
  type: "wallet_not_on_device",
  message: "The wallet's device share is not on this device",
} as const;

/** An in-memory `Storage` (local or session storage of one origin). */
export function memoryStorage(): TokenStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => {
      items.set(key, value);
    },
    removeItem: (key) => {
      items.delete(key);
    },
    key: (index) => [...items.keys()][index] ?? null,
    get length() {
      return items.size;
    },
  };
}

export function brokenStorage(): KeyValueStorage {
  const fail = () => {
    throw new DOMException("The operation is insecure.", "SecurityError");
  };
  return { getItem: fail, setItem: fail };
}

export interface Answer {
  id: string;
  event: string;
  data?: unknown;
  error?: { type: string; message: string };
}

export interface FrameOptions {
  storage?: KeyValueStorage;
  /** The origin's sessionStorage (MFA token); frames of one tab share it. */
  session?: TokenStorage;
  keys?: DeviceKeyStore;
  now?: () => number;
  handlers?: (wallets: WalletService, mfa: MfaDeps) => Record<string, Handler>;
  ready?: Promise<void>;
  /**
   * Wire the frame as `main.ts` does: the embedder gate over this context (`parent` is the harness's
   * poster when not given) and storage scoped by app id + embedder origin.
   */
  embedding?: Partial<EmbeddingContext>;
  /** The app's allowed origins (default: HOST only). */
  allowedOrigins?: string[];
  /** The origin `request`/`call` post from (default HOST). */
  origin?: string;
}

let counter = 0;

/** A "reload" reuses the storage object: it finds the same device keys (as IndexedDB would). */
const keysOfStorage = new WeakMap<object, DeviceKeyStore>();

function keysFor(storage: KeyValueStorage): DeviceKeyStore {
  let keys = keysOfStorage.get(storage);
  if (!keys) {
    keys = memoryDeviceKeys();
    keysOfStorage.set(storage, keys);
  }
  return keys;
}

export function createFrame(server: FakeServer, options: FrameOptions = {}) {
  const storage = options.storage ?? memoryStorage();
  const session = options.session ?? memoryStorage();
  const apiOptions = { fetch: server.fetch, appId: "app" };
  const api = createApi(apiOptions);
  /** Everything the frame posted: message and target origin. */
  const posted: { message: Answer; targetOrigin: string }[] = [];
  const waiting = new Map<string, (answer: Answer) => void>();
  const source = {
    postMessage: (message: unknown, targetOrigin: string) => {
      const answer = message as Answer;
      posted.push({ message: answer, targetOrigin });
      waiting.get(answer.id)?.(answer);
    },
  };
  const allowedOrigins = new Set(options.allowedOrigins ?? [HOST]);
  const hostOrigin = options.origin ?? HOST;
  const gate = options.embedding
    ? createEmbedderGate(
        { parent: source, ancestorOrigins: null, referrer: "", ...options.embedding },
        allowedOrigins,
      )
    : undefined;
  const scope = gate ? () => storageScope(apiOptions.appId, gate.origin()) : null;
  const localStore = scope ? scopedStorage(() => storage as TokenStorage, scope) : storage;
  const sessionStore = scope ? scopedStorage(() => session, scope) : session;
  const plainKeys = options.keys ?? keysFor(storage);
  const keys = scope ? scopedDeviceKeys(plainKeys, scope) : plainKeys;
  const tokens = createMfaTokens(() => sessionStore, options.now);
  const wallets = new WalletService({
    api,
    store: scope
      ? createDeviceStore(
          () => localStore,
          () => storage as TokenStorage,
        )
      : createDeviceStore(() => localStore),
    keys,
    mfaTokens: tokens,
    ...(options.now ? { now: options.now } : {}),
  });
  const mfa: MfaDeps = {
    post: createPost(apiOptions),
    get: createGet(apiOptions),
    tokens,
    appId: api.appId,
  };
  const listener = createMessageListener({
    allowedOrigins,
    ...(gate ? { gate } : {}),
    handlers: (options.handlers ?? walletHandlers)(wallets, mfa),
    ready: options.ready ?? Promise.resolve(),
  });
  // As main.ts: a frame whose embedder is refused listens to nothing.
  const listen: typeof listener = (message) => {
    if (gate?.refusedOrigin == null) listener(message);
  };

  /** Posts a raw message; resolves with what the frame answered to it by then (if anything). */
  async function post(
    data: unknown,
    origin = HOST,
    waitMs = 0,
    from: IncomingMessage["source"] = source,
  ): Promise<Answer[]> {
    const before = posted.length;
    listen({ origin, data, source: from });
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    return posted.slice(before).map((p) => p.message);
  }

  /** Sends `{id, event, data}` and waits for its answer. */
  function request(event: string, data: Record<string, unknown> = {}): Promise<Answer> {
    counter += 1;
    const id = `req-${counter}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${event}`)), 10_000);
      waiting.set(id, (answer) => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(answer);
      });
      listen({ origin: hostOrigin, data: { id, event, data }, source });
    });
  }

  /** The answer's data; fails the test with the error when there is one. */
  async function call<T = Record<string, unknown>>(
    event: string,
    data: Record<string, unknown> = {},
  ): Promise<T> {
    const answer = await request(event, data);
    if (answer.error) throw new Error(`${event} failed: ${answer.error.type}: ${answer.error.message}`);
    return answer.data as T;
  }

  return { wallets, storage, session, keys: plainKeys, gate, source, posted, post, request, call };
}
