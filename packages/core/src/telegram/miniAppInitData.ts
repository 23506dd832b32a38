/** A Mini App's `initData`, URL-decoded into its fields (the server's `telegram_web_app_data`). */
export type TelegramWebAppData = Record<string, string>;

/** What Telegram's `telegram-web-app.js` puts on `window` inside a Mini App. */
interface TelegramGlobal {
  Telegram?: { WebApp?: { initData?: string } };
}

/**
 * The raw `initData` of the Mini App this page runs in (`window.Telegram.WebApp.initData`), or null
 * outside Telegram (the script sets it to "" in a plain browser).
 */
export function readMiniAppInitData(scope: unknown = globalThis): string | null {
  const raw = (scope as TelegramGlobal | undefined)?.Telegram?.WebApp?.initData;
  return typeof raw === "string" && raw.length > 0 ? raw : null;
}

/** Splits raw `initData` (a query string) into its fields; every one of them is signed. */
export function parseInitData(raw: string): TelegramWebAppData {
  const fields: TelegramWebAppData = {};
  for (const [key, value] of new URLSearchParams(raw)) fields[key] = value;
  return fields;
}
