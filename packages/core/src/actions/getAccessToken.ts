import type { Client } from "../client/createClient.ts";
import { clearLocalState } from "../session/clearLocalState.ts";
import { decodeJwtPayload } from "../session/decodeJwtPayload.ts";
import { isTokenActive } from "../session/isTokenActive.ts";
import { refreshTokens } from "../session/refreshTokens.ts";
import { tokenStore } from "../session/tokenStore.ts";
import { logout } from "./logout.ts";

/**
 * Spec §4 token retrieval: the stored access token while it is active (30 s before `exp`) and refresh
 * credentials exist; a refreshed one when it is not; null when signed out. A token of another app
 * logs the user out; a token without refresh credentials destroys local state.
 */
export async function getAccessToken(client: Client): Promise<string | null> {
  const { token, refreshToken } = tokenStore.read(client);
  if (token !== null && !isForApp(token, client.options.appId)) {
    await logout(client);
    return null;
  }
  if (refreshToken === null) {
    if (token !== null || client.store.getState().authenticated) clearLocalState(client);
    return null;
  }
  if (isTokenActive(token)) return token;
  return refreshTokens(client, token);
}

function isForApp(token: string, appId: string): boolean {
  const aud = decodeJwtPayload(token)?.aud;
  if (aud === undefined) return true;
  return Array.isArray(aud) ? aud.includes(appId) : aud === appId;
}
