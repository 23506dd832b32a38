import type { AppConfigResponse } from "@symbolon/core";

/** A login method this modal has screens for (guest is not listed; custom auth has no modal UI). */
export type LoginMethod = "email" | "sms" | "telegram" | "farcaster";

/** The login screen's methods: shown first, and behind "More options". */
export interface LoginMethods {
  primary: LoginMethod[];
  overflow: LoginMethod[];
}

const SUPPORTED: ReadonlySet<string> = new Set<LoginMethod>(["email", "sms", "telegram", "farcaster"]);

/**
 * The app's `login_methods_and_order` (spec §3 `loginMethodsAndOrder`) reduced to the methods this
 * build supports, in order, each once; unknown names are skipped (and Telegram without a bot). No
 * list: email only.
 */
export function loginMethods(config: AppConfigResponse | null | undefined): LoginMethods {
  const order = config?.login_methods_and_order;
  if (!order || (order.primary.length === 0 && order.overflow.length === 0)) {
    return { primary: ["email"], overflow: [] };
  }
  const seen = new Set<string>();
  // Telegram needs the app's bot (spec §3 telegramAuthConfiguration); without it there is no button.
  if (!config?.telegram_auth_config) seen.add("telegram");
  const keep = (names: readonly string[]) =>
    names.filter((name): name is LoginMethod => {
      if (!SUPPORTED.has(name) || seen.has(name)) return false;
      seen.add(name);
      return true;
    });
  const primary = keep(order.primary);
  const overflow = keep(order.overflow);
  return primary.length === 0 && overflow.length === 0
    ? { primary: ["email"], overflow: [] }
    : { primary, overflow };
}
