import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import { storageKey } from "../session/storageKey.ts";

/** Spec §7: what the popup tells its opener. */
export type OAuthPopupMessage =
  | { type: "PRIVY_OAUTH_RESPONSE"; stateCode: string; authorizationCode: string }
  | { type: "PRIVY_OAUTH_ERROR"; error: string };

/** Whether `data` is one of the spec's OAuth popup messages. */
export function isOAuthPopupMessage(data: unknown): data is OAuthPopupMessage {
  if (typeof data !== "object" || data === null) return false;
  const { type } = data as { type?: unknown };
  return type === "PRIVY_OAUTH_RESPONSE" || type === "PRIVY_OAUTH_ERROR";
}

const channelName = (client: Client) => `privy:oauth:${client.options.appId}`;

/**
 * The popup's answer to its opener: `postMessage` to the opener (same origin only), and the same
 * message on a BroadcastChannel and a storage write, for browsers that sever `window.opener`
 * (cross-origin-opener policies of the provider's pages).
 */
export function postToOpener(client: Client, message: OAuthPopupMessage): void {
  const origin = window.location.origin;
  try {
    const opener = window.opener as Window | null;
    if (opener && opener !== window && opener.location.origin === origin) opener.postMessage(message, origin);
  } catch {
    // The opener is of another origin: it must not get the code.
  }
  if (typeof BroadcastChannel !== "undefined") {
    const channel = new BroadcastChannel(channelName(client));
    channel.postMessage(message);
    channel.close();
  }
  const storage = internals(client).storage();
  const key = storageKey(client.options.appId, "oauth_response");
  // A `storage` event fires in the other windows on the write; the value is removed at once.
  storage.setItem(key, JSON.stringify({ ...message, at: Date.now() }));
  storage.removeItem(key);
}

/** Handlers of {@link listenToPopup}. */
export interface PopupListener {
  onMessage(message: OAuthPopupMessage): void;
  /** An OAuth message arrived from another origin (spec §5: refused). */
  onForeignOrigin(origin: string): void;
}

/** Listens for the popup's answer on every path {@link postToOpener} uses; returns the unsubscribe. */
export function listenToPopup(client: Client, listener: PopupListener): () => void {
  const onWindowMessage = (event: MessageEvent) => {
    if (!isOAuthPopupMessage(event.data)) return;
    if (event.origin !== window.location.origin) listener.onForeignOrigin(event.origin);
    else listener.onMessage(event.data);
  };
  const key = storageKey(client.options.appId, "oauth_response");
  const onStorage = (event: StorageEvent) => {
    if (event.key !== key || event.newValue === null) return;
    try {
      const data: unknown = JSON.parse(event.newValue);
      if (isOAuthPopupMessage(data)) listener.onMessage(data);
    } catch {
      // Not ours.
    }
  };
  window.addEventListener("message", onWindowMessage);
  window.addEventListener("storage", onStorage);
  const channel = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel(channelName(client));
  if (channel) {
    channel.onmessage = (event: MessageEvent) => {
      if (isOAuthPopupMessage(event.data)) listener.onMessage(event.data);
    };
  }
  return () => {
    window.removeEventListener("message", onWindowMessage);
    window.removeEventListener("storage", onStorage);
    channel?.close();
  };
}
