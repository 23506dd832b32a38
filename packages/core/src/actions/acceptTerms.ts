import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import type { User } from "../generated/protocol.ts";
import { apiRequest } from "../http/apiRequest.ts";
import { tokenStore } from "../session/tokenStore.ts";
import { getAccessToken } from "./getAccessToken.ts";

/** `POST /users/me/accept_terms`: records that the user accepted the app's terms; resolves with the user. */
export async function acceptTerms(client: Client): Promise<User> {
  const token = await getAccessToken(client);
  if (token === null) throw new ClientError("attempted_rpc_call_before_logged_in");
  const response = await apiRequest<User | { user: User }>(client, "POST", "/users/me/accept_terms", {
    body: {},
    token,
  });
  const user = "user" in response ? response.user : response;
  tokenStore.writeUser(client, user);
  client.store.setState({ user });
  return user;
}
