// Telegram needs no server here: a bot that exists only on this machine, and Telegram's two signing schemes,
// so tests can hand the app what Telegram would (https://core.telegram.org/widgets/login#checking-authorization,
// https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app).
import { createHash, createHmac } from "node:crypto";

/** The local app's bot (`[telegram]` of the demo app when the stack runs with `app.telegram`). */
export const TELEGRAM_TEST_BOT = Object.freeze({
  token: "7000001:symbolon-local-test-bot-secret",
  id: "7000001",
  name: "symbolon_local_bot",
});

/** Sorted `key=value` lines of every field but `hash`. */
function dataCheckString(fields) {
  return Object.entries(fields)
    .filter(([key, value]) => key !== "hash" && value !== undefined)
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join("\n");
}

/**
 * A Login Widget result for `user`, signed like Telegram does (HMAC-SHA256 under SHA-256(bot token)).
 * @param {{ id: number, first_name?: string, last_name?: string, username?: string, photo_url?: string }} user
 * @param {{ token?: string, authDate?: number }} [options]
 */
export function signWidgetResult(user, { token = TELEGRAM_TEST_BOT.token, authDate } = {}) {
  const result = { ...user, auth_date: authDate ?? Math.floor(Date.now() / 1000) };
  const key = createHash("sha256").update(token).digest();
  return { ...result, hash: createHmac("sha256", key).update(dataCheckString(result)).digest("hex") };
}

/**
 * A Mini App's raw `initData` for `user`, signed like Telegram does (key HMAC-SHA256("WebAppData", bot token)).
 * @param {{ id: number, first_name?: string, username?: string }} user
 * @param {{ token?: string, authDate?: number }} [options]
 */
export function signInitData(user, { token = TELEGRAM_TEST_BOT.token, authDate } = {}) {
  const fields = {
    auth_date: String(authDate ?? Math.floor(Date.now() / 1000)),
    query_id: `AAH${Math.random().toString(36).slice(2, 12)}`,
    user: JSON.stringify(user),
  };
  const key = createHmac("sha256", "WebAppData").update(token).digest();
  const hash = createHmac("sha256", key).update(dataCheckString(fields)).digest("hex");
  return new URLSearchParams({ ...fields, hash }).toString();
}
