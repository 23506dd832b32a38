import type { Client } from "../client/createClient.ts";
import type { WalletOption } from "./types.ts";

/** Finds installed wallets (EIP-6963, `window.ethereum`, Wallet Standard) and fills `options`; idempotent. */
export async function discoverWallets(_client: Client): Promise<WalletOption[]> {
  throw new Error("TODO: discoverWallets");
}
