import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import { completeOAuth, PHISHING_EVENT } from "../oauth/completeOAuth.ts";
import { isOAuthPopupReturn } from "../oauth/isOAuthPopupReturn.ts";
import { setOAuthFlow } from "../oauth/oauthState.ts";
import { pendingOAuth } from "../oauth/pendingOAuth.ts";
import { postToOpener } from "../oauth/popupMessages.ts";
import { providerError } from "../oauth/providerError.ts";
import { readOAuthReturn } from "../oauth/readOAuthReturn.ts";
import type { LoginResult } from "../session/loginWithSession.ts";
import { initialize } from "./initialize.ts";
import { trackEvent } from "./trackEvent.ts";

/**
 * What a page load made of the address: no OAuth return; the popup's return, handed to the opener
 * (the popup then closes); or a redirect return, completed here.
 */
export type OAuthReturnOutcome =
  | { type: "none" }
  | { type: "popup" }
  | { type: "completed"; provider: string; intent: "login" | "link"; ui: string | null; result: LoginResult };

/**
 * Run on page load (the React provider does). Reads the `privy_oauth_*` parameters and removes them
 * from the address. In the popup (opened by a page of this origin, or the pending flow says popup),
 * posts `PRIVY_OAUTH_RESPONSE` / `PRIVY_OAUTH_ERROR` to the opener and closes. Else completes the
 * login or link the redirect started (state check, spec §5) and resolves with it; rejects as the
 * flow's error (also in `state.oauthFlow`).
 */
export async function handleOAuthReturn(client: Client): Promise<OAuthReturnOutcome> {
  const popup = isOAuthPopupReturn(client);
  const returned = readOAuthReturn();
  if (returned === null) return { type: "none" };
  const pending = pendingOAuth.read(client);
  if (popup) {
    postToOpener(
      client,
      returned.code !== null
        ? { type: "PRIVY_OAUTH_RESPONSE", stateCode: returned.state ?? "", authorizationCode: returned.code }
        : { type: "PRIVY_OAUTH_ERROR", error: returned.error ?? "unknown_error" },
    );
    window.close();
    return { type: "popup" };
  }
  const provider = pending?.provider ?? returned.provider ?? "unknown";
  const intent = pending?.intent ?? "login";
  const ui = pending?.ui ?? null;
  setOAuthFlow(client, { status: "loading", provider, intent, ui });
  try {
    if (pending === null) {
      // Nothing of ours is pending: this return was not started here.
      trackEvent(client, PHISHING_EVENT, { flowType: "oauth", provider });
      throw new ClientError("pkce_state_code_mismatch");
    }
    if (returned.code === null) {
      pendingOAuth.clear(client);
      throw providerError(returned.error ?? "unknown_error");
    }
    // The session restore must not overwrite the login made here.
    await initialize(client);
    const result = await completeOAuth(client, pending, {
      stateCode: returned.state ?? "",
      authorizationCode: returned.code,
    });
    return { type: "completed", provider, intent, ui, result };
  } catch (e) {
    setOAuthFlow(client, { status: "error", provider, intent, ui, error: e });
    throw e;
  }
}
