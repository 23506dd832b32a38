import { defaultStorage } from "../storage/defaultStorage.ts";
import type { KeyValueStorage } from "../storage/KeyValueStorage.ts";
import { randomUuid } from "../utils/randomUuid.ts";
import type { WalletConfirmationHandler } from "../wallet/confirmation.ts";
import type { FrameHost } from "../wallet/FrameHost.ts";
import type { FrameConnection } from "../wallet/frameConnection.ts";
import type { Client } from "./createClient.ts";

/** A cross-tab channel: post a message to the other tabs, close it on destroy. */
export interface TabChannel {
  post(message: TabMessage): void;
  close(): void;
}

/** What tabs tell each other: the session in storage changed, re-read it. */
export type TabMessage = { type: "sync" };

/** Per-client machinery that is not part of the public API. */
export interface ClientInternals {
  /** The storage, resolved on first use. */
  storage(): KeyValueStorage;
  /** The fetch to use, resolved at call time so a late polyfill is seen. */
  fetch(): typeof fetch;
  /** Waits `ms` (injectable for tests). */
  sleep(ms: number): Promise<void>;
  /** A random id of this client instance (one per tab). */
  tabId(): string;
  /** When the client was created (`Date.now()`): waits "since start-up" count from here. */
  readonly createdAt: number;
  /** The refresh in flight in this tab, shared by concurrent callers. */
  refreshing: Promise<string | null> | null;
  /** The initialisation in flight or done. */
  initializing: Promise<void> | null;
  /** Cross-tab channel, opened by `initialize()` when broadcasting is on. */
  channel: TabChannel | null;
  /** The hidden wallet frame, mounted on first wallet use (wallet/frameBridge.ts). */
  walletFrame: FrameConnection | null;
  /** Replaces the browser's iframes and messages (tests stand in a fake frame here). */
  frameHost: FrameHost | null;
  /** Addresses the frame unlocked in this page (cleared on logout). */
  unlockedWallets: Set<string>;
  /** Unlocking (connect, then recover when needed) in flight, per address. */
  unlocking: Map<string, Promise<void>>;
  /** Counts logouts: an unlock started before the last one belongs to a session that is over. */
  walletEpoch: number;
  /** Asked before signing when wallet UIs are shown (`setWalletConfirmation`). */
  walletConfirmation: WalletConfirmationHandler | null;
  /** Undo functions run by `destroy()`. */
  cleanups: Array<() => void>;
  destroyed: boolean;
  destroy(): void;
}

const registry = new WeakMap<Client, ClientInternals>();

/** Creates and remembers the internals of a new client. */
export function registerInternals(client: Client): ClientInternals {
  let storage: KeyValueStorage | undefined;
  let id: string | undefined;
  const self: ClientInternals = {
    storage: () => {
      storage ??= client.options.storage ?? defaultStorage();
      return storage;
    },
    fetch: () => client.options.fetch ?? globalThis.fetch,
    sleep: (ms) => (client.options.sleep ?? realSleep)(ms),
    tabId: () => {
      id ??= randomUuid();
      return id;
    },
    createdAt: Date.now(),
    refreshing: null,
    initializing: null,
    channel: null,
    walletFrame: null,
    frameHost: null,
    unlockedWallets: new Set(),
    unlocking: new Map(),
    walletEpoch: 0,
    walletConfirmation: null,
    cleanups: [],
    destroyed: false,
    destroy() {
      self.destroyed = true;
      for (const cleanup of self.cleanups.splice(0)) cleanup();
      self.channel?.close();
      self.channel = null;
      self.walletFrame?.destroy();
      self.walletFrame = null;
    },
  };
  registry.set(client, self);
  return self;
}

/** The internals of `client` (created by `createClient`). */
export function internals(client: Client): ClientInternals {
  const found = registry.get(client);
  if (!found) throw new TypeError("Not a Symbolon client: create it with createClient().");
  return found;
}

function realSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
