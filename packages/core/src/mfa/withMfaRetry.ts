import type { Client } from "../client/createClient.ts";
import { MFA_MAX_ATTEMPTS } from "../generated/protocol.ts";
import { awaitVerification, overallDeadlineFromNow, userMfaMethods } from "./awaitVerification.ts";
import { maxMfaAttempts, needsMfaVerification } from "./mfaErrors.ts";

/**
 * Runs a wallet-frame operation; when the frame answers `missing_or_invalid_mfa` the user is asked to
 * verify (listener or modal) and the operation runs again (spec §4 "Wallet-operation MFA retry"): up to
 * MFA_MAX_ATTEMPTS attempts, MFA_CODE_WAIT_MS per code wait, MFA_OVERALL_TIMEOUT_MS in all.
 */
export async function withMfaRetry<T>(client: Client, operation: () => Promise<T>): Promise<T> {
  const overallDeadline = overallDeadlineFromNow();
  let attempt = 0;
  for (;;) {
    try {
      return await operation();
    } catch (error) {
      // Without an enrolled method there is nothing to prompt for: the refusal stands.
      if (!needsMfaVerification(error) || userMfaMethods(client).length === 0) throw error;
    }
    attempt += 1;
    if (attempt > MFA_MAX_ATTEMPTS) throw maxMfaAttempts();
    attempt = await awaitVerification(client, { attempt, overallDeadline });
  }
}
