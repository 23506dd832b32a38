import type { Client } from "../client/createClient.ts";
import type { LoginResult } from "../session/loginWithSession.ts";
import { readMiniAppInitData } from "../telegram/miniAppInitData.ts";
import { loginWithTelegram } from "./loginWithTelegram.ts";

/**
 * Seamless Telegram login (spec §3 `telegramAuthConfiguration.seamlessAuthEnabled`): once the
 * client is ready, a signed-out page running inside a Telegram Mini App of an app that enables it
 * signs in from the Mini App's `initData` without a click. Resolves with null when it does not apply.
 */
export async function seamlessTelegramLogin(client: Client): Promise<LoginResult | null> {
  const { ready, authenticated, user, appConfig } = client.store.getState();
  if (!ready || (authenticated && !user?.is_guest)) return null;
  if (!appConfig?.telegram_auth_config?.seamless_auth_enabled) return null;
  if (readMiniAppInitData() === null) return null;
  return loginWithTelegram(client);
}
