import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import { storageKey } from "../session/storageKey.ts";

/** How the provider's page is shown: in a popup, or in place of the app's page. */
export type OAuthDisplay = "popup" | "redirect";

/** What an OAuth flow does with the proof: sign in, or link to the signed-in user. */
export type OAuthIntent = "login" | "link";

/**
 * An OAuth flow in progress, kept in the client's storage (localStorage in browsers): it survives
 * the full-page redirect, and the popup, on the same origin, reads it too.
 */
export interface PendingOAuth {
  provider: string;
  intent: OAuthIntent;
  display: OAuthDisplay;
  stateCode: string;
  codeVerifier: string;
  /** Login only: refuse to create a user (`mode: "no-signup"`). */
  disableSignup: boolean;
  /** Who started it, so the return can show the same UI (e.g. "modal"). */
  ui: string | null;
  /** Epoch ms. */
  startedAt: number;
}

/** A flow older than this is not completed by a return (the server's state expired long before). */
const PENDING_TTL_MS = 30 * 60_000;

/** The pending-flow record: read, write, forget. */
export const pendingOAuth = {
  read(client: Client): PendingOAuth | null {
    const raw = internals(client).storage().getItem(storageKey(client.options.appId, "oauth_pending"));
    if (raw === null) return null;
    try {
      const pending = JSON.parse(raw) as PendingOAuth;
      if (typeof pending?.stateCode !== "string" || typeof pending.codeVerifier !== "string") return null;
      return Date.now() - pending.startedAt > PENDING_TTL_MS ? null : pending;
    } catch {
      return null;
    }
  },
  write(client: Client, pending: PendingOAuth): void {
    const key = storageKey(client.options.appId, "oauth_pending");
    internals(client).storage().setItem(key, JSON.stringify(pending));
  },
  clear(client: Client): void {
    internals(client).storage().removeItem(storageKey(client.options.appId, "oauth_pending"));
  },
};
