/** Spec §8: too many wrong codes (blocking: the MFA screen offers nothing but Close). */
export const MFA_MAX_ATTEMPTS_TEXT =
  "You have exceeded the maximum number of attempts. Please close this window and try again in 10 seconds.";

/**
 * The maximum-attempts line with the time left of the server's lock-out (its `Retry-After`, carried by
 * `retryAfterSeconds`): the spec §8 line itself for the first lock (10 seconds) and when the time is
 * unknown (the client's own MFA_MAX_ATTEMPTS); later locks last longer (MFA_LOCKOUTS_S) and say so.
 */
export function mfaMaxAttemptsText(seconds?: number): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return MFA_MAX_ATTEMPTS_TEXT;
  const wait = Math.max(1, Math.ceil(seconds));
  let span: string;
  if (wait < 60) span = wait === 1 ? "1 second" : `${wait} seconds`;
  else {
    const minutes = Math.ceil(wait / 60);
    span = minutes === 1 ? "1 minute" : `${minutes} minutes`;
  }
  return `You have exceeded the maximum number of attempts. Please close this window and try again in ${span}.`;
}
