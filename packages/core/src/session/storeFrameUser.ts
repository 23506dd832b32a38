import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import type { User } from "../generated/protocol.ts";
import { tokenStore } from "./tokenStore.ts";

/** Stores a user the wallet frame answered (like a wallet creation) and tells the other tabs. */
export function storeFrameUser(client: Client, user: User): User {
  tokenStore.writeUser(client, user);
  client.store.setState({ user });
  internals(client).channel?.post({ type: "sync" });
  return user;
}
