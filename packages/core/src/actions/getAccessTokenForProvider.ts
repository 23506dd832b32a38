import type { Client } from "../client/createClient.ts";

/**
 * The provider access token of the last OAuth login with `provider` (spec §3 `oauth_tokens`, kept in
 * memory only), or null when there is none, it expired, or the user logged out since.
 */
export function getAccessTokenForProvider(client: Client, provider: string): string | null {
  const grant = client.store.getState().oauthTokens[provider];
  if (!grant) return null;
  if (grant.accessTokenExpiresAt !== null && grant.accessTokenExpiresAt <= Date.now()) return null;
  return grant.access_token;
}
