import type { Client } from "../client/createClient.ts";
import { pendingOAuth } from "./pendingOAuth.ts";
import { OAUTH_RETURN_PARAMS } from "./readOAuthReturn.ts";

/** Whether this window was opened by a page of this origin (reading another origin's location throws). */
function openedBySameOrigin(): boolean {
  try {
    const opener = window.opener as Window | null;
    return opener !== null && opener !== window && opener.location.origin === window.location.origin;
  } catch {
    return false;
  }
}

/**
 * Whether this page is the OAuth popup coming back from the provider: the address carries the
 * `privy_oauth_*` return, and a page of this origin opened it (or the pending flow is a popup's,
 * for browsers that sever `window.opener`). Such a page only hands the answer over and closes, so
 * it need not restore the session.
 */
export function isOAuthPopupReturn(client: Client): boolean {
  if (typeof window === "undefined") return false;
  const params = new URL(window.location.href).searchParams;
  if (!OAUTH_RETURN_PARAMS.some((name) => params.has(name))) return false;
  return openedBySameOrigin() || pendingOAuth.read(client)?.display === "popup";
}
