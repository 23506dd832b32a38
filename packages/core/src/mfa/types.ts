// CHANGED: + ENROLL_REQUIRES_TOKEN_MESSAGE, UNENROLL_REQUIRES_TOKEN_MESSAGE (moved here from enrollment.ts).
import type { SymbolonError } from "../errors/SymbolonError.ts";
import type { MfaMethodType } from "../generated/protocol.ts";

// The MFA contract of issue 12 (contract-12.md "Client"): the `mfaState` slice, options, messages
// and the action signatures. The modal watches `mfaState.modal` and `mfaState.pending`.

/** An MFA method: "totp" (authenticator app), "sms" or "passkey" (public name: `MfaMethodType`). */
export type MfaMethod = MfaMethodType;

/** A wallet operation (or `promptMfa`) waiting for the user to verify. */
export interface MfaPendingVerification {
  /** The user's enrolled methods, in the order to offer them (the first is preselected). */
  methods: MfaMethod[];
  /** 1-based; a failed code or a still-refused retry moves to the next attempt. */
  attempt: number;
  /** MFA_MAX_ATTEMPTS. */
  maxAttempts: number;
  /** Epoch ms when this attempt's wait (MFA_CODE_WAIT_MS) ends with `mfa_timeout`. */
  deadline: number;
  /** Epoch ms when the whole verification (MFA_OVERALL_TIMEOUT_MS) ends with `mfa_timeout`. */
  overallDeadline: number;
  /** Why the previous attempt failed (e.g. 'The code you entered is not valid'), else null. */
  error: SymbolonError | null;
}

/** Progress of `initMfa` / `submitMfa` (what the verification screen shows). */
export type MfaVerificationStatus =
  | "idle"
  | "sending-code"
  | "awaiting-code"
  | "awaiting-passkey"
  | "submitting"
  | "verified"
  | "error";

/** Progress of the enrolment actions. */
export type MfaEnrollmentStatus =
  | "idle"
  | "initializing"
  | "awaiting-code"
  | "awaiting-passkey"
  | "submitting"
  | "done"
  | "error";

/** Which MFA screen the modal should show; null = none. The modal opens/closes on this field. */
export type MfaModal = "verify" | "enroll";

/** The `mfaState` slice of the client state. */
export interface MfaState {
  /** The verification a wallet operation waits for, or null. */
  pending: MfaPendingVerification | null;
  /**
   * Set by the retry loop (unless an MFA listener is registered or `mfa.noPromptOnMfaRequired`) and by
   * `promptMfa` to "verify"; by `showMfaEnrollmentModal` to "enroll". The modal shows the screen while it
   * is set and calls `closeMfaModal(client)` when the user closes it (which cancels a pending
   * verification: 'Canceled MFA verification.').
   */
  modal: MfaModal | null;
  verification: {
    status: MfaVerificationStatus;
    method: MfaMethod | null;
    error: SymbolonError | null;
  };
  enrollment: {
    status: MfaEnrollmentStatus;
    method: MfaMethod | null;
    /** SMS enrolment: the number the code went to. */
    phoneNumber: string | null;
    /** TOTP enrolment: the pending secret and its `otpauth://` URL (for the QR code). */
    totp: { secret: string; authUrl: string } | null;
    error: SymbolonError | null;
  };
}

/** No verification pending, nothing shown (also after logout). */
export const initialMfaState: MfaState = {
  pending: null,
  modal: null,
  verification: { status: "idle", method: null, error: null },
  enrollment: { status: "idle", method: null, phoneNumber: null, totp: null, error: null },
};

/** Provider/client config `mfa` (spec §3 app config). */
export interface MfaOptions {
  /** True: never open the modal's MFA screen by itself (a registered listener still runs). */
  noPromptOnMfaRequired?: boolean;
}

/** What `registerMfaListener` takes (`useRegisterMfaListener`). */
export interface MfaListener {
  /** Called when a wallet operation needs verification, with the user's methods. */
  onMfaRequired(methods: MfaMethod[]): void;
}

/** Parameters of `initMfaEnrollment`. */
export type InitMfaEnrollmentParameters =
  | { method: "totp" }
  | { method: "sms"; phoneNumber: string }
  | { method: "passkey" };

/** Parameters of `submitMfaEnrollment`. */
export type SubmitMfaEnrollmentParameters =
  | { method: "totp"; mfaCode: string }
  | { method: "sms"; phoneNumber: string; mfaCode: string }
  | { method: "passkey"; credentialIds: string[]; removeForLogin?: boolean };

/** Spec §8 texts. */
export const MFA_CANCELED_MESSAGE = "Canceled MFA verification.";
export const INVALID_MFA_CODE_MESSAGE = "Invalid MFA code";
export const MFA_CODE_NOT_VALID_MESSAGE = "The code you entered is not valid";
export const ENROLL_REQUIRES_TOKEN_MESSAGE = "Must have valid access token to enroll in MFA";
export const UNENROLL_REQUIRES_TOKEN_MESSAGE = "Must have valid access token to remove MFA";

/**
 * Action signatures (implemented in this folder, exported from `@symbolon/core`):
 * - `initMfa(client, method): Promise<PasskeyAuthenticationResponse | undefined>` — sms sends the code;
 *   passkey fetches the options and runs the WebAuthn prompt, answering the assertion to submit; totp: no-op.
 * - `submitMfa(client, method, code | assertion): Promise<void>` — frame `privy:mfa:verify`; resolves the
 *   pending verification (the wallet operation is retried).
 * - `cancelMfa(client): void` — the pending verification fails with MFA_CANCELED_MESSAGE.
 * - `promptMfa(client): Promise<void>` — asks for a verification now (modal or listener).
 * - `closeMfaModal(client): void` — the modal was closed (cancels a pending verification).
 * - `withMfaRetry(client, op)` — runs `op`, prompting and retrying on `missing_or_invalid_mfa`.
 * - `registerMfaListener(client, listener): () => void`.
 * - `showMfaEnrollmentModal(client): void`.
 * - `initMfaEnrollment(client, params): Promise<{secret, authUrl} | undefined>` (totp answers the secret).
 * - `submitMfaEnrollment(client, params): Promise<User>`; `unenrollMfa(client, method): Promise<User>`.
 * - `errorIndicatesMaxMfaRetries(e)`, `errorIndicatesMfaTimeout(e)`, `errorIndicatesMfaVerificationFailed(e)`.
 */
export type MfaActionNames =
  | "initMfa"
  | "submitMfa"
  | "cancelMfa"
  | "promptMfa"
  | "closeMfaModal"
  | "withMfaRetry"
  | "registerMfaListener"
  | "showMfaEnrollmentModal"
  | "initMfaEnrollment"
  | "submitMfaEnrollment"
  | "unenrollMfa";
