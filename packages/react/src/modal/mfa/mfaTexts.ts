// The MFA screens' spec §8 lines, word for word, and which error shows which. Imported by the modal
// controller (initial bundle): keep it to strings and one small function.

import { MFA_CODE_ALREADY_USED, MFA_MAX_ATTEMPTS_TEXT, mfaMaxAttemptsText } from "@symbolon/core";
import { PASSKEY_LINES } from "../passkeys/passkeyLines";

/** Spec §8: too many wrong codes (blocking: the screen offers nothing but Close); later locks say their time. */
export { MFA_MAX_ATTEMPTS_TEXT, mfaMaxAttemptsText };
/** Spec §8: a wrong code (not blocking: type it again). */
export const MFA_NOT_VALID_TEXT = "The code you entered is not valid";
/** The server's answer to an authenticator code already used (not blocking: the next code will do). */
export const MFA_CODE_USED_TEXT = MFA_CODE_ALREADY_USED;
/** Spec §8: the code wait ran out (blocking). */
export const MFA_TIME_LIMIT_TEXT =
  "You have exceeded the time limit for code entry. Please try again in 30 seconds.";
/** Spec §8: anything else. */
export const MFA_SOMETHING_WRONG_TEXT = "Something went wrong.";
/** Spec §8 enrolment: the verification an enrolment needs first was closed. */
export const MFA_VERIFICATION_CANCELED_TEXT = "Verification canceled";
/** Spec §8 enrolment: anything the enrolment screens cannot name. */
export const MFA_UNKNOWN_ERROR_TEXT = "Unknown error";
/** Spec §8 enrolment: the enrolment was closed before it finished (what `showMfaEnrollmentModal` reports). */
export const MFA_CANCELED_TEXT = "MFA canceled";
/** Spec §8 enrolment: a method the app does not offer (or this build does not know). */
export const MFA_UNSUPPORTED_METHOD_TEXT = "Unsupported MFA method";

/** What an MFA screen says about `error`, and whether it ends the verification (nothing left but Close). */
export interface MfaErrorText {
  text: string;
  blocking: boolean;
}

/** Spec §8 "MFA screens": the line for an error of `initMfa` / `submitMfa` / the retry loop. */
export function mfaErrorText(error: unknown): MfaErrorText {
  const { code, message, retryAfterSeconds } = (error ?? {}) as {
    code?: unknown;
    message?: unknown;
    retryAfterSeconds?: unknown;
  };
  if (code === "mfa_verification_max_attempts_reached" || code === "too_many_requests") {
    const wait = typeof retryAfterSeconds === "number" ? retryAfterSeconds : undefined;
    return { text: mfaMaxAttemptsText(wait), blocking: true };
  }
  if (code === "mfa_timeout") return { text: MFA_TIME_LIMIT_TEXT, blocking: true };
  if (message === MFA_CODE_USED_TEXT) return { text: MFA_CODE_USED_TEXT, blocking: false };
  if (message === MFA_NOT_VALID_TEXT || code === "invalid_credentials")
    return { text: MFA_NOT_VALID_TEXT, blocking: false };
  if (typeof message === "string" && PASSKEY_LINES.has(message)) return { text: message, blocking: false };
  return { text: MFA_SOMETHING_WRONG_TEXT, blocking: false };
}
