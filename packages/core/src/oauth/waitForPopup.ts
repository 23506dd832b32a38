import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import { OAuthError, ORIGIN_MISMATCH_MESSAGE } from "../errors/OAuthError.ts";
import { POPUP_CLOSED_CHECK_MS } from "../generated/protocol.ts";
import type { OAuthReturn } from "./completeOAuth.ts";
import { listenToPopup } from "./popupMessages.ts";
import { providerError } from "./providerError.ts";

/**
 * Waits for the popup's `PRIVY_OAUTH_RESPONSE` (resolves) or `PRIVY_OAUTH_ERROR` (rejects with the
 * provider's error). Rejects when a message comes from another origin (spec §5) and when the popup
 * is closed without an answer (checked every 300 ms, spec §9; one more period of grace lets a
 * message posted just before closing arrive).
 */
export function waitForPopup(client: Client, popup: Window): Promise<OAuthReturn> {
  return new Promise<OAuthReturn>((resolve, reject) => {
    let closedSeen = false;
    const finish = (settle: () => void) => {
      stop();
      clearInterval(timer);
      if (waiting.get(client) === cancel) waiting.delete(client);
      settle();
    };
    const cancel = () => {
      popup.close();
      finish(() => reject(new OAuthError("oauth_popup_closed", "The login was canceled.")));
    };
    waiting.get(client)?.();
    waiting.set(client, cancel);
    const stop = listenToPopup(client, {
      onMessage(message) {
        if (message.type === "PRIVY_OAUTH_RESPONSE") {
          const { stateCode, authorizationCode } = message;
          finish(() => resolve({ stateCode, authorizationCode }));
        } else finish(() => reject(providerError(message.error)));
      },
      onForeignOrigin() {
        finish(() => reject(new OAuthError("invalid_origin", ORIGIN_MISMATCH_MESSAGE)));
      },
    });
    const timer = setInterval(() => {
      if (!popup.closed) return;
      if (!closedSeen) {
        closedSeen = true;
        return;
      }
      finish(() => reject(new OAuthError("oauth_popup_closed", "The login window was closed.")));
    }, POPUP_CLOSED_CHECK_MS);
    internals(client).cleanups.push(() => {
      if (waiting.get(client) === cancel) cancel();
    });
  });
}

/** The popup each client waits for (one flow at a time), and how to stop waiting. */
const waiting = new WeakMap<Client, () => void>();

/**
 * Stops waiting for the popup of the flow in progress, if any: the popup is closed and the flow
 * fails as closed (the modal calls it when the person closes it mid-flow). A redirect cannot be
 * called back.
 */
export function cancelOAuthPopup(client: Client): void {
  waiting.get(client)?.();
}
