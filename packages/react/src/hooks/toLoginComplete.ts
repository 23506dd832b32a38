import { formatUser, type LoginResult } from "@symbolon/core";

/** How the user logged in. */
export type LoginMethod = "email" | "sms" | "guest" | "custom" | "telegram" | "farcaster";

/** The argument of `onComplete` after a login (the spec client's shape). */
export interface LoginCompleteParams {
  user: ReturnType<typeof formatUser>;
  isNewUser: boolean;
  wasAlreadyAuthenticated: boolean;
  loginMethod: LoginMethod;
  loginAccount: ReturnType<typeof formatUser>["linkedAccounts"][number] | null;
}

const ACCOUNT_TYPE = {
  email: "email",
  sms: "phone",
  guest: null,
  custom: "custom_auth",
  telegram: "telegram",
  farcaster: "farcaster",
} as const;

/**
 * Builds the `onComplete` argument from core's login result; `subject` is the address or number
 * the code went to (it picks the login account when the user has several).
 */
export function toLoginComplete(
  result: LoginResult,
  subject: string | null,
  method: LoginMethod = "email",
): LoginCompleteParams {
  const user = formatUser(result.user);
  const type = ACCOUNT_TYPE[method];
  const candidates = user.linkedAccounts.filter((account) => account.type === type);
  const wanted = subject?.trim().toLowerCase();
  const loginAccount =
    candidates.find(
      (account) =>
        (account.type === "email" && account.address === wanted) ||
        (account.type === "phone" && account.number === wanted),
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
