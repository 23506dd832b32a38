import { CrossAppError } from "../errors/CrossAppError.ts";
import { CROSS_APP_TIMEOUT_MS, POPUP_CLOSED_CHECK_MS } from "../generated/protocol.ts";

/** What the provider's signing page posts back. */
export type CrossAppAnswer =
  | { type: "PRIVY_CROSS_APP_ACTION_RESPONSE"; data: { signature?: string; hash?: string } }
  | { type: "PRIVY_CROSS_APP_ACTION_ERROR"; error: string };

/** Where the answer comes from and which window listens. */
export interface WaitForCrossAppAnswerParameters {
  popup: Pick<Window, "closed" | "close">;
  /** The signing page's origin: messages from any other origin are ignored. */
  providerOrigin: string;
  /** Default: `window` (the global object). */
  target?: Pick<Window, "addEventListener" | "removeEventListener">;
}

function isAnswer(data: unknown): data is CrossAppAnswer {
  const type = (data as { type?: unknown } | null)?.type;
  return type === "PRIVY_CROSS_APP_ACTION_RESPONSE" || type === "PRIVY_CROSS_APP_ACTION_ERROR";
}

/**
 * Waits for the signing popup's answer (spec §7): resolves with its data, rejects with its error,
 * 'User rejected request' when the popup is closed (checked every 300 ms, spec §9) and 'Request
 * timeout' after 120 s (the popup is closed then). Messages from another origin or window are
 * ignored, so a foreign page cannot answer for the provider.
 */
export function waitForCrossAppAnswer({
  popup,
  providerOrigin,
  target = globalThis,
}: WaitForCrossAppAnswerParameters): Promise<{ signature?: string; hash?: string }> {
  return new Promise((resolve, reject) => {
    const finish = (settle: () => void) => {
      target.removeEventListener("message", onMessage);
      clearInterval(closedCheck);
      clearTimeout(timeout);
      settle();
    };
    const onMessage = (event: Event) => {
      const { origin, data, source } = event as MessageEvent;
      if (origin !== providerOrigin || !isAnswer(data)) return;
      if (source && source !== (popup as unknown)) return;
      if (data.type === "PRIVY_CROSS_APP_ACTION_RESPONSE") finish(() => resolve(data.data));
      else
        finish(() =>
          reject(
            new CrossAppError(
              data.error === "User rejected request" ? "user_rejected" : "provider_error",
              data.error,
            ),
          ),
        );
    };
    target.addEventListener("message", onMessage);
    const closedCheck = setInterval(() => {
      if (popup.closed) finish(() => reject(new CrossAppError("user_rejected")));
    }, POPUP_CLOSED_CHECK_MS);
    const timeout = setTimeout(() => {
      finish(() => reject(new CrossAppError("request_timeout")));
      popup.close();
    }, CROSS_APP_TIMEOUT_MS);
  });
}
