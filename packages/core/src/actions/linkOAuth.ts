import type { Client } from "../client/createClient.ts";
import type { LinkedAccount } from "../generated/protocol.ts";
import { oauthAccountType } from "../oauth/oauthProviders.ts";
import type { OAuthDisplay } from "../oauth/pendingOAuth.ts";
import { startOAuth } from "../oauth/startOAuth.ts";
import type { LoginResult } from "../session/loginWithSession.ts";
import { requireLinkable } from "../session/requireLinkable.ts";

/** Parameters of {@link linkOAuth}. */
export interface LinkOAuthParameters {
  /** `google`, `github`, … or `privy:{appId}` (cross-app). */
  provider: string;
  display?: OAuthDisplay;
  ui?: string;
  redirectTo?: string;
}

/**
 * Links a provider account to the signed-in user (`POST /oauth/link` after the provider's consent).
 * Spec §5 first: signed in, and no account of that type yet. Popup: resolves with the user as it is
 * now (`wasAlreadyAuthenticated: true`); redirect: null, completed on the return.
 */
export async function linkOAuth(
  client: Client,
  parameters: LinkOAuthParameters,
): Promise<LoginResult | null> {
  requireLinkable(client, oauthAccountType(parameters.provider) as LinkedAccount["type"]);
  return startOAuth(client, { ...parameters, intent: "link" });
}
