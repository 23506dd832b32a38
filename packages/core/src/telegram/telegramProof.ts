import type { Client } from "../client/createClient.ts";
import { isApiError } from "../errors/ApiError.ts";
import { ClientError } from "../errors/ClientError.ts";
import type { TelegramAuthConfig, TelegramAuthResult } from "../generated/protocol.ts";
import { parseInitData, readMiniAppInitData, type TelegramWebAppData } from "./miniAppInitData.ts";
import { openTelegramPopup } from "./openTelegramPopup.ts";

/** Spec §8: the app has no Telegram bot configured (or the config is not loaded). */
export const TELEGRAM_NOT_INITIALIZED_MESSAGE = "Telegram was not initialized";
/** Spec §5: linking with launch parameters needs `initDataRaw`. */
export const TELEGRAM_INVALID_LAUNCH_PARAMS_MESSAGE =
  "Invalid Telegram launch parameters: initDataRaw is required";

/** Launch parameters of a Mini App (as `@telegram-apps/sdk` `retrieveLaunchParams()` gives them). */
export interface TelegramLaunchParams {
  initDataRaw?: string;
  [key: string]: unknown;
}

/** Options of the Telegram login and link actions. */
export interface TelegramProofOptions {
  /** Mini App launch parameters; their `initDataRaw` is the proof. */
  launchParams?: TelegramLaunchParams;
  /** Where the Login Widget lives (tests, self-hosted stand-ins). Default Telegram's. */
  authOrigin?: string;
}

/** One of the two proofs the server accepts. */
export type TelegramProof =
  | { telegram_auth_result: TelegramAuthResult }
  | { telegram_web_app_data: TelegramWebAppData };

/** The app's Telegram configuration, or 'Telegram was not initialized'. */
export function requireTelegramConfig(client: Client): TelegramAuthConfig {
  const config = client.store.getState().appConfig?.telegram_auth_config;
  if (!config) throw new ClientError("invalid_input", TELEGRAM_NOT_INITIALIZED_MESSAGE);
  return config;
}

/**
 * Gets a proof: the launch parameters' `initDataRaw` when given; inside a Mini App its `initData`;
 * else the Login Widget popup. Everything up to opening the popup runs synchronously (call it from
 * a click handler), the popup's answer is awaited.
 */
export function telegramProof(client: Client, options: TelegramProofOptions = {}): Promise<TelegramProof> {
  const config = requireTelegramConfig(client);
  if (options.launchParams !== undefined) {
    const raw = options.launchParams.initDataRaw;
    if (typeof raw !== "string" || raw.length === 0)
      throw new ClientError("invalid_input", TELEGRAM_INVALID_LAUNCH_PARAMS_MESSAGE);
    return Promise.resolve({ telegram_web_app_data: parseInitData(raw) });
  }
  const inMiniApp = readMiniAppInitData();
  if (inMiniApp !== null) return Promise.resolve({ telegram_web_app_data: parseInitData(inMiniApp) });
  const popup = openTelegramPopup(
    options.authOrigin === undefined
      ? { botId: config.bot_id }
      : { botId: config.bot_id, authOrigin: options.authOrigin },
  );
  return popup.result.then((result) => ({ telegram_auth_result: result }));
}

/**
 * The proof a refused Telegram link sent, kept in its `account_transfer_required` data (spec §3
 * transfer data `telegramAuthResult` / `telegramWebAppData`): the transfer call sends it again.
 */
export function transferProofOf(error: unknown): TelegramProof | null {
  if (!isApiError(error) || error.code !== "account_transfer_required") return null;
  const data = (error.data ?? {}) as Record<string, unknown>;
  if (typeof data.telegram_auth_result === "object" && data.telegram_auth_result !== null)
    return { telegram_auth_result: data.telegram_auth_result as TelegramAuthResult };
  if (typeof data.telegram_web_app_data === "object" && data.telegram_web_app_data !== null)
    return { telegram_web_app_data: data.telegram_web_app_data as TelegramWebAppData };
  return null;
}
