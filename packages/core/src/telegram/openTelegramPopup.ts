import { ClientError } from "../errors/ClientError.ts";
import type { TelegramAuthResult } from "../generated/protocol.ts";

/** Telegram's Login Widget host (the popup posts its result from this origin). */
export const TELEGRAM_AUTH_ORIGIN = "https://oauth.telegram.org";
/** How often the popup is checked for having been closed (ms). */
export const TELEGRAM_POPUP_CLOSED_CHECK_MS = 300;
/** Spec §8: the popup closed without a result. */
export const TELEGRAM_CANCELED_MESSAGE = "Telegram auth failed or was canceled by the client";

/** Options of {@link openTelegramPopup}. */
export interface OpenTelegramPopupOptions {
  /** The bot id (`telegram_auth_config.bot_id`). */
  botId: string;
  /** The page's origin, which the bot's domain must match. Default: `location.origin`. */
  origin?: string;
  /** Where the widget lives. Default {@link TELEGRAM_AUTH_ORIGIN}. */
  authOrigin?: string;
  /** The window that opens the popup (tests). */
  window?: Window;
}

/** An open Telegram login popup. */
export interface TelegramPopup {
  /** Settles with the widget's signed result, or fails when the popup closes without one. */
  result: Promise<TelegramAuthResult>;
  /** Closes the popup and stops listening. */
  close(): void;
}

/**
 * Opens Telegram's Login Widget popup (`{authOrigin}/auth?bot_id=…&origin=…&embed=1&request_access=write`)
 * and waits for its `postMessage` — `{event: "auth_result", result}` (JSON text or object) from the
 * widget's origin and the popup itself. Opens synchronously, so call it from the click handler (a
 * popup opened after an `await` is blocked by browsers).
 */
export function openTelegramPopup(options: OpenTelegramPopupOptions): TelegramPopup {
  const win = options.window ?? window;
  const authOrigin = options.authOrigin ?? TELEGRAM_AUTH_ORIGIN;
  const url = new URL("/auth", authOrigin);
  url.searchParams.set("bot_id", options.botId);
  url.searchParams.set("origin", options.origin ?? win.location.origin);
  url.searchParams.set("embed", "1");
  url.searchParams.set("request_access", "write");
  const width = 550;
  const height = 470;
  const left = Math.max(0, (win.screen?.width ?? width) / 2 - width / 2);
  const top = Math.max(0, (win.screen?.height ?? height) / 2 - height / 2);
  const popup = win.open(
    url.toString(),
    "telegram_oauth",
    `width=${width},height=${height},left=${left},top=${top},status=0,location=0,menubar=0,toolbar=0`,
  );
  let stop = () => {};
  const result = new Promise<TelegramAuthResult>((resolve, reject) => {
    if (!popup) {
      reject(new ClientError("invalid_input", TELEGRAM_CANCELED_MESSAGE));
      return;
    }
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== authOrigin || event.source !== popup) return;
      const data = readMessage(event.data);
      if (data?.event !== "auth_result") return;
      stop();
      popup.close();
      if (isAuthResult(data.result)) resolve(data.result);
      else reject(new ClientError("invalid_input", TELEGRAM_CANCELED_MESSAGE));
    };
    const timer = setInterval(() => {
      if (!popup.closed) return;
      stop();
      reject(new ClientError("invalid_input", TELEGRAM_CANCELED_MESSAGE));
    }, TELEGRAM_POPUP_CLOSED_CHECK_MS);
    win.addEventListener("message", onMessage);
    stop = () => {
      clearInterval(timer);
      win.removeEventListener("message", onMessage);
    };
  });
  return {
    result,
    close() {
      stop();
      popup?.close();
    },
  };
}

function readMessage(data: unknown): { event?: unknown; result?: unknown } | null {
  if (typeof data === "string") {
    try {
      return readMessage(JSON.parse(data));
    } catch {
      return null;
    }
  }
  return typeof data === "object" && data !== null ? (data as { event?: unknown; result?: unknown }) : null;
}

function isAuthResult(value: unknown): value is TelegramAuthResult {
  if (typeof value !== "object" || value === null) return false;
  const fields = value as Record<string, unknown>;
  return (
    typeof fields.id === "number" && typeof fields.auth_date === "number" && typeof fields.hash === "string"
  );
}
