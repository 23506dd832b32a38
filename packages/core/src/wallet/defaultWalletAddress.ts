import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import { getEmbeddedWallets } from "./embeddedWallets.ts";

/** The user's first embedded wallet (index 0): what signing uses when no address is given. */
export function defaultWalletAddress(client: Client): string {
  const { authenticated, user } = client.store.getState();
  if (!authenticated) throw new ClientError("attempted_rpc_call_before_logged_in");
  const [first] = getEmbeddedWallets(user);
  if (first === undefined) throw new ClientError("embedded_wallet_request_error", NO_WALLET_MESSAGE);
  return first.address;
}

/** Signing was asked of a user without an embedded wallet. */
export const NO_WALLET_MESSAGE = "The user has no embedded wallet. Create one with createWallet() first.";
