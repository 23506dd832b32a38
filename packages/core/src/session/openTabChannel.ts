import type { Client } from "../client/createClient.ts";
import { internals, type TabChannel, type TabMessage } from "../client/internals.ts";
import { storageKey } from "./storageKey.ts";

/**
 * Opens the cross-tab channel `BroadcastChannel('privy:<appId>')` and, in browsers, listens to
 * `storage` events as a fallback; `onSync` runs whenever another tab changed the session.
 */
export function openTabChannel(client: Client, onSync: () => void): TabChannel {
  const own = internals(client);
  const name = `privy:${client.options.appId}`;
  const channel = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel(name);
  if (channel) {
    channel.onmessage = (event: MessageEvent<TabMessage>) => {
      if (event.data?.type === "sync") onSync();
    };
  }
  if (typeof window !== "undefined" && typeof window.addEventListener === "function") {
    const { appId } = client.options;
    // Only what says "signed in or out"; `key` is null when another tab cleared all storage.
    const watched = new Set([
      storageKey(appId, "token"),
      storageKey(appId, "refresh_token"),
      storageKey(appId, "user"),
    ]);
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || watched.has(event.key)) onSync();
    };
    window.addEventListener("storage", onStorage);
    own.cleanups.push(() => window.removeEventListener("storage", onStorage));
  }
  return {
    post(message) {
      channel?.postMessage(message);
    },
    close() {
      channel?.close();
    },
  };
}
