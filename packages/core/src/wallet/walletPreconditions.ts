import { getAccessToken } from "../actions/getAccessToken.ts";
import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import { isSecurePage } from "../utils/isSecurePage.ts";

/** Spec §8 message for a page on plain http away from localhost. */
export const HTTPS_REQUIRED_MESSAGE = "Embedded wallet is only available over HTTPS";

/** Throws unless the page is https, a browser extension or on localhost (no page, e.g. Node: allowed). */
export function assertSecurePage(): void {
  const location = typeof window === "undefined" ? undefined : window.location;
  if (location === undefined) return;
  if (!isSecurePage(location)) throw new ClientError("embedded_wallet_request_error", HTTPS_REQUIRED_MESSAGE);
}

/** Spec §5: the user must be logged in to create or use a wallet. Returns the access token. */
export async function requireAccessToken(client: Client): Promise<string> {
  const token = await getAccessToken(client);
  if (token === null) throw new ClientError("attempted_rpc_call_before_logged_in");
  return token;
}
