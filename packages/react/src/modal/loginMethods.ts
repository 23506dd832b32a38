import { type AppConfigResponse, isOAuthProvider, type OAuthProvider } from "@symbolon/core";
import { isOwnMethod, type OwnMethodName } from "./ownMethods";

/**
 * A login method this modal has screens for (guest is not listed; custom auth has no modal UI):
 * codes by email or SMS, Telegram, Farcaster, an external wallet (SIWE / SIWS), a passkey, a built-in OAuth provider, an operator's `custom:<name>` provider, or
 * another app of the server (`privy:{appId}`, cross-app).
 */
export type LoginMethod = OwnMethodName | OAuthProvider | `custom:${string}` | `privy:${string}`;

/** Whether a login method goes through an OAuth provider (a button that opens the provider). */
export function isOAuthMethod(
  method: string,
): method is OAuthProvider | `custom:${string}` | `privy:${string}` {
  return isOAuthProvider(method) || method.startsWith("custom:") || method.startsWith("privy:");
}

/** The login screen's methods: shown first, and behind "More options". */
export interface LoginMethods {
  primary: LoginMethod[];
  overflow: LoginMethod[];
}

/** Whether this build has screens for `name` and the app config turns it on. */
function supported(name: string, config: AppConfigResponse): boolean {
  if (isOwnMethod(name)) return true;
  // The config says which providers are on (configured with a client id on the server).
  if (isOAuthProvider(name)) return (config as unknown as Record<string, unknown>)[`${name}_oauth`] === true;
  if (name.startsWith("custom:"))
    return (config.custom_oauth_providers ?? []).some((p) => p.provider === name);
  // Cross-app: the server lists only providers in the app's `cross_app.providers`.
  if (name.startsWith("privy:")) return name.length > "privy:".length;
  return false;
}

/**
 * The app's `login_methods_and_order` (spec §3 `loginMethodsAndOrder`) reduced to the methods this
 * build supports, in order, each once; unknown names are skipped (and Telegram without a bot). No
 * list: email only.
 */
export function loginMethods(config: AppConfigResponse | null | undefined): LoginMethods {
  const order = config?.login_methods_and_order;
  if (!config || !order || (order.primary.length === 0 && order.overflow.length === 0)) {
    return { primary: ["email"], overflow: [] };
  }
  const seen = new Set<string>();
  // Telegram needs the app's bot (spec §3 telegramAuthConfiguration); without it there is no button.
  if (!config?.telegram_auth_config) seen.add("telegram");
  const keep = (names: readonly string[]) =>
    names.filter((name): name is LoginMethod => {
      if (!supported(name, config) || seen.has(name)) return false;
      seen.add(name);
      return true;
    });
  const primary = keep(order.primary);
  const overflow = keep(order.overflow);
  return primary.length === 0 && overflow.length === 0
    ? { primary: ["email"], overflow: [] }
    : { primary, overflow };
}
