import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import { isApiError } from "../errors/ApiError.ts";
import type { SessionResponse } from "../generated/protocol.ts";
import { apiRequest } from "../http/apiRequest.ts";
import { applySessionResponse } from "./applySessionResponse.ts";
import { clearLocalState } from "./clearLocalState.ts";
import { isTokenActive } from "./isTokenActive.ts";
import { syncFromStorage } from "./syncFromStorage.ts";
import { tokenStore } from "./tokenStore.ts";
import { withRefreshLock } from "./withRefreshLock.ts";

/**
 * Refreshes the session (`POST /sessions`) once across tabs and callers, and resolves with the new
 * access token, or null when the session is gone. `staleToken` is the token the caller saw: if
 * another tab replaced it by an active one meanwhile, that one is used without calling the server.
 */
export function refreshTokens(client: Client, staleToken: string | null): Promise<string | null> {
  const own = internals(client);
  own.refreshing ??= withRefreshLock(client, async () => {
    const { token, refreshToken } = tokenStore.read(client);
    if (token !== staleToken && isTokenActive(token)) {
      syncFromStorage(client);
      return token;
    }
    if (refreshToken === null) {
      clearLocalState(client);
      return null;
    }
    let response: SessionResponse;
    try {
      response = await apiRequest<SessionResponse>(client, "POST", "/sessions", {
        body: { refresh_token: refreshToken },
        token,
      });
    } catch (e) {
      // Spec §4: a missing-or-invalid-token error during refresh clears local state.
      if (isApiError(e) && e.code === "missing_or_invalid_token") {
        clearLocalState(client);
        return null;
      }
      throw e;
    }
    applySessionResponse(client, response);
    return tokenStore.read(client).token;
  }).finally(() => {
    own.refreshing = null;
  });
  return own.refreshing;
}
