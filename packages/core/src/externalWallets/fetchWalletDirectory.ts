import type { Client } from "../client/createClient.ts";
import type { WalletOption } from "./types.ts";

/** Spec §7: the third-party wallet directory; failure is logged and gives `[]`; rainbow and metamask first. */
export async function fetchWalletDirectory(_client: Client): Promise<WalletOption[]> {
  return [];
}
