import type { Client } from "../client/createClient.ts";
import { updateExternalWallets } from "./runtime.ts";

/** Makes the wallet of `address` (embedded or external) the active one; null goes back to the default. */
export function setActiveWallet(client: Client, address: string | null): void {
  updateExternalWallets(client, { activeAddress: address });
}
