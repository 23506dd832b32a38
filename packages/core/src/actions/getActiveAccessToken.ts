import { getActiveClient } from "../client/activeClient.ts";
import { getAccessToken } from "./getAccessToken.ts";

/**
 * The spec client's module-level `getAccessToken()`, usable outside React (API helpers, loaders):
 * the access token of the active client (the newest one created and not destroyed), refreshed when
 * needed, or null when signed out or when no client exists yet.
 */
export async function getActiveAccessToken(): Promise<string | null> {
  const client = getActiveClient();
  return client === null ? null : getAccessToken(client);
}
