import type { Client } from "../client/createClient.ts";
import { cancelOAuthPopup } from "../oauth/waitForPopup.ts";

/**
 * Abandons the OAuth popup flow in progress: closes the popup, and the flow ends in `error`
 * (`oauth_popup_closed`) without logging in. Nothing happens when no popup is waited for.
 */
export function cancelOAuth(client: Client): void {
  cancelOAuthPopup(client);
}
