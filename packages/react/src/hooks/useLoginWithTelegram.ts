import { type LoginWithTelegramParameters, loginWithTelegram } from "@symbolon/core";
import { type LoginActionOptions, type LoginActionState, useLoginAction } from "./useLoginAction";

/** Callbacks of {@link useLoginWithTelegram}. */
export type UseLoginWithTelegramOptions = LoginActionOptions;
/** State of the Telegram flow (spec §4: initial → loading → done). */
export type LoginWithTelegramState = LoginActionState;

/**
 * Headless Telegram login: inside a Mini App from its `initData`, on the web through Telegram's
 * Login Widget popup (call `login()` from a click). Rejects with 'Telegram was not initialized'
 * when the app has no bot, 'Telegram auth failed or was canceled by the client' when the popup
 * closes without a result.
 */
export function useLoginWithTelegram(options: UseLoginWithTelegramOptions = {}) {
  const { login, state } = useLoginAction<LoginWithTelegramParameters | undefined>(
    "useLoginWithTelegram",
    "telegram",
    (client, parameters) => loginWithTelegram(client, parameters),
    options,
  );
  return { login: (parameters?: LoginWithTelegramParameters) => login(parameters), state };
}
