import type { Client } from "../client/createClient.ts";

/** Handles `privy_connector`, `privy_wallet_client`, `privy_connect_only` and removes them from the address. */
export async function handleWalletDeepLink(_client: Client): Promise<void> {}
