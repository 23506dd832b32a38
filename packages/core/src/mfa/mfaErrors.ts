import { ClientError } from "../errors/ClientError.ts";
import { SymbolonError } from "../errors/SymbolonError.ts";
import { MFA_CANCELED_MESSAGE } from "./types.ts";

const codeOf = (error: unknown) => (error instanceof SymbolonError ? error.code : undefined);

/** The wallet operation failed because `MFA_MAX_ATTEMPTS` verifications did not get it through. */
export function errorIndicatesMaxMfaRetries(error: unknown): boolean {
  return codeOf(error) === "mfa_verification_max_attempts_reached";
}

/** Nobody entered a code within `MFA_CODE_WAIT_MS` (or the overall limit). */
export function errorIndicatesMfaTimeout(error: unknown): boolean {
  return codeOf(error) === "mfa_timeout";
}

/** The wallet frame refused the code, assertion or MFA token. */
export function errorIndicatesMfaVerificationFailed(error: unknown): boolean {
  return codeOf(error) === "missing_or_invalid_mfa";
}

/** Whether a frame error asks for (another) verification; the frame maps both server codes to the first. */
export function needsMfaVerification(error: unknown): boolean {
  const code = codeOf(error);
  return code === "missing_or_invalid_mfa" || code === "expired_or_invalid_mfa_token";
}

export const mfaTimeout = () => new ClientError("mfa_timeout");
export const maxMfaAttempts = () => new ClientError("mfa_verification_max_attempts_reached");
/** Spec §4: closing the verification before success. */
export const mfaCanceled = () => new SymbolonError("mfa_canceled", MFA_CANCELED_MESSAGE);
