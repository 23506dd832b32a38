import { formatUser, type LoginResult, type OAuthProvider, oauthAccountType } from "@symbolon/core";

/** How the user logged in: a code, guest, custom JWT, Telegram, Farcaster or an OAuth provider (`google`, …, `custom:<name>`). */
export type LoginMethod =
  | "email"
  | "sms"
  | "guest"
  | "custom"
  | "telegram"
  | "farcaster"
  | "siwe"
  | "siws"
  | "passkey"
  | OAuthProvider
  | `custom:${string}`;

/** The argument of `onComplete` after a login (the spec client's shape). */
export interface LoginCompleteParams {
  user: ReturnType<typeof formatUser>;
  isNewUser: boolean;
  wasAlreadyAuthenticated: boolean;
  loginMethod: LoginMethod;
  loginAccount: ReturnType<typeof formatUser>["linkedAccounts"][number] | null;
}

const ACCOUNT_TYPE: Record<string, string | null> = {
  email: "email",
  sms: "phone",
  guest: null,
  custom: "custom_auth",
  telegram: "telegram",
  farcaster: "farcaster",
  siwe: "wallet",
  siws: "wallet",
  passkey: "passkey",
};

/**
 * Builds the `onComplete` argument from core's login result; `subject` is the address or number
 * the code went to, or the provider's subject (it picks the login account when the user has several).
 */
export function toLoginComplete(
  result: LoginResult,
  subject: string | null,
  method: LoginMethod = "email",
): LoginCompleteParams {
  const user = formatUser(result.user);
  const type =
    method in ACCOUNT_TYPE
      ? ACCOUNT_TYPE[method]
      : method.startsWith("custom:")
        ? method
        : oauthAccountType(method);
  const candidates = user.linkedAccounts.filter((account) => account.type === type);
  const wanted = subject?.trim().toLowerCase();
  const loginAccount =
    candidates.find(
      (account) =>
        (account.type === "email" && account.address === wanted) ||
        (account.type === "phone" && account.number === wanted) ||
        (account.type === "wallet" && account.address.toLowerCase() === wanted) ||
        ("subject" in account && account.subject.toLowerCase() === wanted),
    ) ??
    candidates[0] ??
    null;
  return {
    user,
    isNewUser: result.isNewUser,
    wasAlreadyAuthenticated: result.wasAlreadyAuthenticated,
    loginMethod: method,
    loginAccount,
  };
}
