import type { Client } from "../client/createClient.ts";
import { IN_APP_BROWSER_MESSAGE, OAuthError } from "../errors/OAuthError.ts";
import type { OAuthInitRequest, OAuthInitResponse } from "../generated/protocol.ts";
import { apiRequest } from "../http/apiRequest.ts";
import type { LoginResult } from "../session/loginWithSession.ts";
import { completeOAuth } from "./completeOAuth.ts";
import { createPkce } from "./createPkce.ts";
import { isInAppBrowser } from "./isInAppBrowser.ts";
import { setOAuthFlow } from "./oauthState.ts";
import { type OAuthDisplay, type OAuthIntent, type PendingOAuth, pendingOAuth } from "./pendingOAuth.ts";
import { returnAddress } from "./readOAuthReturn.ts";
import { waitForPopup } from "./waitForPopup.ts";

/** Parameters of {@link startOAuth}. */
export interface StartOAuthParameters {
  /** `google`, `github`, … or `privy:{appId}` for another app (cross-app). */
  provider: string;
  intent: OAuthIntent;
  /** Login only: do not create a user (`mode: "no-signup"`). */
  disableSignup?: boolean;
  /** Default `popup`; a blocked popup falls back to `redirect`. */
  display?: OAuthDisplay;
  /** Who starts it (e.g. "modal"), carried over a redirect so the return shows the same UI. */
  ui?: string | null;
  /** Where the provider sends the browser back; default this page without the `privy_*` params. */
  redirectTo?: string;
}

/** Providers that refuse embedded webviews (spec §8: Google). */
const REFUSE_WEBVIEWS = new Set(["google"]);

const POPUP_WIDTH = 480;
const POPUP_HEIGHT = 680;

/** Opens the (blank) popup now, while the click's user activation lasts; null when blocked. */
function openPopup(): Window | null {
  const left = Math.max(0, window.screenX + (window.outerWidth - POPUP_WIDTH) / 2);
  const top = Math.max(0, window.screenY + (window.outerHeight - POPUP_HEIGHT) / 2);
  const features = `popup,width=${POPUP_WIDTH},height=${POPUP_HEIGHT},left=${left},top=${top}`;
  try {
    return window.open("", "privy-oauth", features);
  } catch {
    return null;
  }
}

/**
 * Starts an OAuth flow (spec §4 initial → loading): a fresh state and PKCE pair (36 random bytes
 * each, S256) stored for the return, `POST /oauth/init`, then the provider's page in a popup
 * (resolves with the login once the popup answered) or in place of this page (`location.assign`;
 * resolves null, the login completes on the return through `handleOAuthReturn`).
 */
export async function startOAuth(
  client: Client,
  parameters: StartOAuthParameters,
): Promise<LoginResult | null> {
  const { provider, intent } = parameters;
  const ui = parameters.ui ?? null;
  if (REFUSE_WEBVIEWS.has(provider) && isInAppBrowser()) {
    const error = new OAuthError("in_app_browser", IN_APP_BROWSER_MESSAGE);
    setOAuthFlow(client, { status: "error", provider, intent, ui, error });
    throw error;
  }
  // Before any await: browsers allow popups only during the click's user activation.
  let display: OAuthDisplay = parameters.display ?? "popup";
  const popup = display === "popup" ? openPopup() : null;
  if (popup === null) display = "redirect";
  setOAuthFlow(client, { status: "loading", provider, intent, ui });
  try {
    const { stateCode, codeVerifier, codeChallenge } = await createPkce();
    const pending: PendingOAuth = {
      provider,
      intent,
      display,
      stateCode,
      codeVerifier,
      disableSignup: parameters.disableSignup ?? false,
      ui,
      startedAt: Date.now(),
    };
    pendingOAuth.write(client, pending);
    const body: OAuthInitRequest = {
      redirect_to: parameters.redirectTo ?? returnAddress(),
      provider,
      code_challenge: codeChallenge,
      state_code: stateCode,
    };
    const { url } = await apiRequest<OAuthInitResponse>(client, "POST", "/oauth/init", { body });
    if (popup === null) {
      window.location.assign(url);
      return null;
    }
    popup.location.href = url;
    const returned = await waitForPopup(client, popup);
    return await completeOAuth(client, pending, returned);
  } catch (e) {
    popup?.close();
    pendingOAuth.clear(client);
    setOAuthFlow(client, { status: "error", provider, intent, ui, error: e });
    throw e;
  }
}
