import type { Client } from "../client/createClient.ts";
import type { OAuthDisplay } from "../oauth/pendingOAuth.ts";
import { startOAuth } from "../oauth/startOAuth.ts";
import { ignoredLogin, type LoginResult } from "../session/loginWithSession.ts";

/** Parameters of {@link loginWithOAuth}. */
export interface LoginWithOAuthParameters {
  /** `google`, `github`, `twitter`, … or `privy:{appId}` to log in with another app's account. */
  provider: string;
  /** Only existing users may log in (`mode: "no-signup"`). */
  disableSignup?: boolean;
  /** `popup` (default; a blocked popup falls back to `redirect`) or `redirect`. */
  display?: OAuthDisplay;
  /** Who starts it (e.g. "modal"); `state.oauthFlow.ui` carries it over a redirect. */
  ui?: string;
  /** Where the provider returns to; default this page. */
  redirectTo?: string;
}

/**
 * Logs in through an OAuth provider with PKCE (spec §4 OAuth flow in `state.oauthFlow`). Popup:
 * resolves with the login. Redirect: resolves null as the page leaves; `handleOAuthReturn`
 * completes it on the return. Spec §5: ignored while a (non-guest) user is signed in.
 */
export async function loginWithOAuth(
  client: Client,
  parameters: LoginWithOAuthParameters,
): Promise<LoginResult | null> {
  const ignored = ignoredLogin(client);
  if (ignored) return ignored;
  return startOAuth(client, { ...parameters, intent: "login" });
}
