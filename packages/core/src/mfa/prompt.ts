import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import { requireUser } from "../session/accountRequest.ts";
import { awaitVerification, overallDeadlineFromNow, userMfaMethods } from "./awaitVerification.ts";
import { mfaCanceled } from "./mfaErrors.ts";
import { mfaRuntime, setMfaState } from "./mfaRuntime.ts";
import { initialMfaState, type MfaListener } from "./types.ts";

// The small, always-loaded part of MFA: what the retry loop, the modal and logout need at once.
// Verifying and enrolling (`initMfa`, `submitMfa`, enrolment) load on first use.

/** Ends the pending verification: the waiting operation fails with 'Canceled MFA verification.' */
export function cancelMfa(client: Client): void {
  mfaRuntime(client).wait?.reject(mfaCanceled());
  setMfaState(client, { verification: initialMfaState.verification });
}

/** The modal's MFA screen was closed: before success that cancels, after it the result stands. */
export function closeMfaModal(client: Client): void {
  cancelMfa(client);
  setMfaState(client, { modal: null });
}

/** Asks the user to verify now (the modal's verification screen); resolves once verified. */
export async function promptMfa(client: Client): Promise<void> {
  requireUser(client);
  if (userMfaMethods(client).length === 0) {
    throw new ClientError("invalid_input", "The user has not enrolled in MFA.");
  }
  await awaitVerification(client, {
    attempt: 1,
    overallDeadline: overallDeadlineFromNow(),
    forceModal: true,
  });
}

/**
 * Lets the app show its own MFA UI: `onMfaRequired(methods)` runs instead of the modal whenever a
 * wallet operation needs verification. Returns the function that unregisters it.
 */
export function registerMfaListener(client: Client, listener: MfaListener): () => void {
  const runtime = mfaRuntime(client);
  runtime.listener = listener;
  return () => {
    if (runtime.listener === listener) runtime.listener = null;
  };
}

/** Opens the modal's MFA enrolment screens (the modal watches `mfaState.modal`). */
export function showMfaEnrollmentModal(client: Client): void {
  setMfaState(client, { modal: "enroll" });
}
