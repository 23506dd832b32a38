import { PrivyErrorCode, type PrivyErrorCodeValue } from "@symbolon/react";

/** The codes that mean the person closed the flow themselves: nothing to report. */
const CANCELLED: ReadonlySet<PrivyErrorCodeValue> = new Set([
  PrivyErrorCode.USER_EXITED_LINK_FLOW,
  PrivyErrorCode.USER_EXITED_UPDATE_FLOW,
  PrivyErrorCode.USER_EXITED_AUTH_FLOW,
]);

/** What people read for the codes a link can end with (spec §8); never the code itself. */
const MESSAGES: Partial<Record<PrivyErrorCodeValue, string>> = {
  [PrivyErrorCode.CANNOT_LINK_MORE_OF_TYPE]: "An account of this kind is linked already.",
  [PrivyErrorCode.TOO_MANY_REQUESTS]: "Too many attempts. Wait a moment and try again.",
  [PrivyErrorCode.OAUTH_UNEXPECTED]: "The provider's sign-in did not complete. Please try again.",
  [PrivyErrorCode.MUST_BE_AUTHENTICATED]: "Your session ended. Log in again to link accounts.",
};

/**
 * The Accounts card's note when a link flow ends without a new account: null when the person cancelled (closing the
 * modal or the account-transfer screen is a choice, not a failure), else a sentence without the raw code.
 */
export function linkErrorMessage(code: PrivyErrorCodeValue): string | null {
  if (CANCELLED.has(code)) return null;
  return MESSAGES[code] ?? "Could not link the account. Please try again.";
}
