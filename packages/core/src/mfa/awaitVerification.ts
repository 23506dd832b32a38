import type { Client } from "../client/createClient.ts";
import type { SymbolonError } from "../errors/SymbolonError.ts";
import { MFA_CODE_WAIT_MS, MFA_MAX_ATTEMPTS, MFA_OVERALL_TIMEOUT_MS } from "../generated/protocol.ts";
import { maxMfaAttempts, mfaTimeout } from "./mfaErrors.ts";
import { type MfaWait, mfaRuntime, setMfaState } from "./mfaRuntime.ts";
import { initialMfaState, type MfaMethod } from "./types.ts";

/** The user's enrolled MFA methods, in their order. */
export function userMfaMethods(client: Client): MfaMethod[] {
  return client.store.getState().user?.mfa_methods.map((method) => method.type) ?? [];
}

/** How a verification is asked for. */
export interface VerificationRequest {
  /** 1-based attempt this wait starts at. */
  attempt: number;
  /** Epoch ms the whole verification must end by. */
  overallDeadline: number;
  /** `promptMfa`: open the modal even when a listener is registered or prompts are off. */
  forceModal?: boolean;
}

/**
 * Waits until the user verified (a `submitMfa` succeeded). Concurrent operations share one wait. The
 * registered listener is told, else the modal opens unless `mfa.noPromptOnMfaRequired`. Rejects with
 * `mfa_timeout` after MFA_CODE_WAIT_MS without a good submit (or at the overall deadline), with
 * `mfa_verification_max_attempts_reached` once the attempts are used up, and when canceled.
 * Resolves with the attempt the verification succeeded at.
 */
export function awaitVerification(client: Client, request: VerificationRequest): Promise<number> {
  const runtime = mfaRuntime(client);
  const joined = runtime.wait;
  if (joined !== null) return joined.promise.then(() => joined.attempt);
  let settle!: Pick<MfaWait, "resolve" | "reject">;
  const promise = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const wait: MfaWait = {
    attempt: request.attempt,
    overallDeadline: request.overallDeadline,
    promise,
    timer: undefined,
    resolve: () => finish(client, wait, null, settle),
    reject: (error) => finish(client, wait, error, settle),
  };
  runtime.wait = wait;
  startAttempt(client, wait, null);
  const methods = userMfaMethods(client);
  const { listener } = runtime;
  if (listener !== null && !request.forceModal) listener.onMfaRequired(methods);
  else if (request.forceModal || client.options.mfa?.noPromptOnMfaRequired !== true) openVerifyModal(client);
  return promise.then(() => wait.attempt);
}

/**
 * A submit failed: the next attempt starts (with a fresh code wait), or the wait fails once
 * MFA_MAX_ATTEMPTS attempts were used. Answers whether the wait is still on.
 */
export function failAttempt(client: Client, error: SymbolonError): boolean {
  const wait = mfaRuntime(client).wait;
  if (wait === null) return false;
  if (wait.attempt >= MFA_MAX_ATTEMPTS) {
    wait.reject(maxMfaAttempts());
    return false;
  }
  wait.attempt += 1;
  startAttempt(client, wait, error);
  return true;
}

/** Epoch ms of the overall deadline of a verification starting now. */
export function overallDeadlineFromNow(): number {
  return Date.now() + MFA_OVERALL_TIMEOUT_MS;
}

function startAttempt(client: Client, wait: MfaWait, error: SymbolonError | null): void {
  clearTimeout(wait.timer);
  const deadline = Math.min(Date.now() + MFA_CODE_WAIT_MS, wait.overallDeadline);
  wait.timer = setTimeout(() => wait.reject(mfaTimeout()), Math.max(0, deadline - Date.now()));
  const { mfaState } = client.store.getState();
  setMfaState(client, {
    pending: {
      methods: userMfaMethods(client),
      attempt: wait.attempt,
      maxAttempts: MFA_MAX_ATTEMPTS,
      deadline,
      overallDeadline: wait.overallDeadline,
      error,
    },
    verification:
      error === null ? initialMfaState.verification : { ...mfaState.verification, status: "error", error },
  });
}

/** The enrolment screen shows the verification step itself; otherwise the modal's verify screen opens. */
function openVerifyModal(client: Client): void {
  if (client.store.getState().mfaState.modal === null) setMfaState(client, { modal: "verify" });
}

function finish(
  client: Client,
  wait: MfaWait,
  error: SymbolonError | null,
  settle: Pick<MfaWait, "resolve" | "reject">,
): void {
  const runtime = mfaRuntime(client);
  if (runtime.wait !== wait) return;
  runtime.wait = null;
  clearTimeout(wait.timer);
  // The modal stays on its success or error screen until the user closes it (`closeMfaModal`).
  const { verification } = client.store.getState().mfaState;
  setMfaState(client, {
    pending: null,
    verification:
      error === null
        ? { ...verification, status: "verified", error: null }
        : { ...verification, status: "error", error },
  });
  if (error === null) settle.resolve();
  else settle.reject(error);
}
