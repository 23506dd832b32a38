import type { Client } from "../client/createClient.ts";
import { isApiError } from "../errors/ApiError.ts";
import type { CurrentUserResponse, User } from "../generated/protocol.ts";
import { apiRequest } from "../http/apiRequest.ts";
import { clearLocalState } from "../session/clearLocalState.ts";
import { tokenStore } from "../session/tokenStore.ts";
import { getAccessToken } from "./getAccessToken.ts";

/** `GET /users/me`: the signed-in user (stored in state and cached), or null when signed out. */
export async function fetchUser(client: Client): Promise<User | null> {
  const token = await getAccessToken(client);
  if (token === null) return null;
  let response: CurrentUserResponse;
  try {
    response = await apiRequest<CurrentUserResponse>(client, "GET", "/users/me", { token });
  } catch (e) {
    if (isApiError(e) && e.code === "missing_or_invalid_token") {
      clearLocalState(client);
      return null;
    }
    throw e;
  }
  if (response.identity_token) tokenStore.write(client, { id_token: response.identity_token });
  tokenStore.writeUser(client, response.user);
  client.store.setState({
    authenticated: true,
    user: response.user,
    identityToken: response.identity_token ?? tokenStore.read(client).identityToken,
  });
  return response.user;
}
