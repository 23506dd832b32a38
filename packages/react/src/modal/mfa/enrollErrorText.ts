import { describeError, isApiError } from "@symbolon/core";
import {
  MFA_CANCELED_TEXT,
  MFA_SOMETHING_WRONG_TEXT,
  MFA_UNKNOWN_ERROR_TEXT,
  MFA_UNSUPPORTED_METHOD_TEXT,
  MFA_VERIFICATION_CANCELED_TEXT,
  mfaErrorText,
} from "./mfaTexts";

/** Spec §8 enrolment lines core throws as they are. */
const ENROLL_LINES: ReadonlySet<string> = new Set([
  MFA_CANCELED_TEXT,
  MFA_UNSUPPORTED_METHOD_TEXT,
  "Must have valid access token to enroll in MFA",
  "Must have valid access token to remove MFA",
]);

/**
 * Spec §8 "enrolment adds": the line an enrolment step shows for a failure — 'Verification canceled'
 * when the verification it needed was closed, the MFA screen lines, the server's sentence for bad input
 * (a phone number), else 'Unknown error'.
 */
export function enrollErrorText(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === "mfa_canceled" || message === "Canceled MFA verification.")
    return MFA_VERIFICATION_CANCELED_TEXT;
  if (typeof message === "string" && ENROLL_LINES.has(message)) return message;
  const { text } = mfaErrorText(error);
  if (text !== MFA_SOMETHING_WRONG_TEXT) return text;
  if (isApiError(error) && error.code === "invalid_data") return describeError(error);
  return MFA_UNKNOWN_ERROR_TEXT;
}
