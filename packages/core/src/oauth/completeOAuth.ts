import { trackEvent } from "../actions/trackEvent.ts";
import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import type { OAuthAuthenticateRequest, OAuthLinkRequest } from "../generated/protocol.ts";
import { accountRequest } from "../session/accountRequest.ts";
import { type LoginResult, loginWithSession } from "../session/loginWithSession.ts";
import { rememberOAuthTokens, setOAuthFlow } from "./oauthState.ts";
import { type PendingOAuth, pendingOAuth } from "./pendingOAuth.ts";

/** What came back from the provider (through the address, or the popup's message). */
export interface OAuthReturn {
  stateCode: string;
  authorizationCode: string;
}

/** The analytics event of a returned state that is not ours (spec §5). */
export const PHISHING_EVENT = "possible_phishing_attempt";

/**
 * The second half of every OAuth flow: checks the returned state against the stored one (spec §5:
 * else `pkce_state_code_mismatch` and an analytics event), then proves the code with the verifier at
 * `/oauth/authenticate` (login) or `/oauth/link`. Moves the flow to `done` or `error`. The pending
 * record is used once, whatever happens.
 */
export async function completeOAuth(
  client: Client,
  pending: PendingOAuth,
  returned: OAuthReturn,
): Promise<LoginResult> {
  pendingOAuth.clear(client);
  const { provider, intent } = pending;
  try {
    if (returned.stateCode !== pending.stateCode) {
      trackEvent(client, PHISHING_EVENT, { flowType: "oauth", provider });
      throw new ClientError("pkce_state_code_mismatch");
    }
    const body: OAuthLinkRequest = {
      authorization_code: returned.authorizationCode,
      state_code: returned.stateCode,
      code_verifier: pending.codeVerifier,
      provider,
    };
    let result: LoginResult;
    if (intent === "login") {
      const login: OAuthAuthenticateRequest = {
        ...body,
        mode: pending.disableSignup ? "no-signup" : "login-or-sign-up",
      };
      result = await loginWithSession(client, "/oauth/authenticate", login);
      if (result.oauthTokens) rememberOAuthTokens(client, result.oauthTokens);
    } else {
      const { user } = await accountRequest(client, "/oauth/link", body);
      result = { user, isNewUser: false, wasAlreadyAuthenticated: true };
    }
    setOAuthFlow(client, { status: "done", result });
    return result;
  } catch (e) {
    setOAuthFlow(client, { status: "error", error: e });
    throw e;
  }
}
