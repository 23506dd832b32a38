import type { Client } from "../client/createClient.ts";
import type { OAuthDisplay } from "../oauth/pendingOAuth.ts";
import type { LoginResult } from "../session/loginWithSession.ts";
import { loginWithOAuth } from "./loginWithOAuth.ts";

/** Parameters of {@link loginWithCrossAppAccount} and `linkCrossAppAccount`. */
export interface CrossAppAccountParameters {
  /** The provider app (another app of this server). */
  appId: string;
  /** Default `popup`. */
  display?: OAuthDisplay;
}

/**
 * Logs in with the user's account of app `appId` (spec §4 cross-app): the OAuth flow with provider
 * `privy:{appId}`; the provider app's consent page asks the user, and the login keeps the provider
 * token that cross-app signing presents.
 */
export function loginWithCrossAppAccount(
  client: Client,
  { appId, display = "popup" }: CrossAppAccountParameters,
): Promise<LoginResult | null> {
  return loginWithOAuth(client, { provider: `privy:${appId}`, display });
}
