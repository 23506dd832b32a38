import { formatUser, type LoginResult } from "@symbolon/core";

/** The argument of `onComplete` after a login (the spec client's shape). */
export interface LoginCompleteParams {
  user: ReturnType<typeof formatUser>;
  isNewUser: boolean;
  wasAlreadyAuthenticated: boolean;
  loginMethod: "email";
  loginAccount: ReturnType<typeof formatUser>["linkedAccounts"][number] | null;
}

/** Builds the `onComplete` argument for an email login from core's login result. */
export function toLoginComplete(result: LoginResult, email: string | null): LoginCompleteParams {
  const user = formatUser(result.user);
  const emails = user.linkedAccounts.filter((account) => account.type === "email");
  const wanted = email?.trim().toLowerCase();
  const loginAccount =
    emails.find((account) => "address" in account && account.address === wanted) ?? emails[0] ?? null;
  return {
    user,
    isNewUser: result.isNewUser,
    wasAlreadyAuthenticated: result.wasAlreadyAuthenticated,
    loginMethod: "email",
    loginAccount,
  };
}
