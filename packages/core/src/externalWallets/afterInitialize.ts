import type { Client } from "../client/createClient.ts";
import { handleWalletDeepLink } from "./handleWalletDeepLink.ts";
import { restoreWalletConnections } from "./restoreWalletConnections.ts";

/** What `initialize` does for external wallets (loaded only when there is something to do). */
export async function afterInitialize(client: Client): Promise<void> {
  await restoreWalletConnections(client);
  await handleWalletDeepLink(client);
}
