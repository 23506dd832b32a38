// Cheap checks `initialize` runs before loading any wallet code: most pages have nothing to restore.
import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import { storageKey } from "../session/storageKey.ts";

/** Spec §2 deep-link parameters (a mobile wallet's browser opening the app). */
export const DEEP_LINK_PARAMS = ["privy_connector", "privy_wallet_client", "privy_connect_only"] as const;

/** Whether the page has stored wallet connections to restore or deep-link parameters to handle. */
export function hasPendingWalletWork(client: Client): boolean {
  if (typeof window === "undefined") return false;
  if (internals(client).storage().getItem(storageKey(client.options.appId, "wallet_connections")) !== null)
    return true;
  const search = new URLSearchParams(window.location.search);
  return DEEP_LINK_PARAMS.some((name) => search.has(name));
}
