import type { Client } from "../client/createClient.ts";
import type { User } from "../generated/protocol.ts";
import { refreshTokens } from "../session/refreshTokens.ts";
import { tokenStore } from "../session/tokenStore.ts";

/** Refreshes the session now (rotating the refresh token) and resolves with the user, or null if signed out. */
export async function refreshSession(client: Client): Promise<User | null> {
  const token = await refreshTokens(client, tokenStore.read(client).token);
  return token === null ? null : client.store.getState().user;
}
