import type { SymbolonError } from "../errors/SymbolonError.ts";

// The passkey contract of issue 12 (contract-12.md "Client"): flow state, options, messages. The
// actions live next to this file (`loginWithPasskey.ts`, …) and are exported from `@symbolon/core`.

/** Spec §4 passkey flow: generating-challenge, awaiting-passkey, (submitting-response), done or error. */
export type PasskeyFlowStatus =
  | "initial"
  | "generating-challenge"
  | "awaiting-passkey"
  | "submitting-response"
  | "done"
  | "error";

/** What the passkey flow in progress does. */
export type PasskeyFlowIntent = "login" | "signup" | "link";

/** The `passkeyFlow` slice of the client state (one flow at a time: login, sign-up or link). */
export interface PasskeyFlowState {
  status: PasskeyFlowStatus;
  intent: PasskeyFlowIntent | null;
  error: SymbolonError | null;
}

/** The passkey flow before anything happened (also after logout). */
export const initialPasskeyFlow: PasskeyFlowState = { status: "initial", intent: null, error: null };

/** Provider/client config `passkeys` (spec §3 app config). */
export interface PasskeysOptions {
  /** Unlinking a passkey enrolled in MFA unenrols it first (through the wallet frame). Default true. */
  shouldUnenrollMfaOnUnlink?: boolean;
  /** Unenrolling passkey MFA also unlinks those passkeys (`removeForLogin`). Default true. */
  shouldUnlinkOnUnenrollMfa?: boolean;
}

/** Spec §8: the browser refused, the user dismissed the prompt, or it timed out. */
export const PASSKEY_REJECTED_MESSAGE = "Passkey request timed out or rejected by user.";
/** Spec §8: any other WebAuthn failure. */
export const PASSKEY_UNKNOWN_ERROR_MESSAGE = "Unknown error occurred.";
/** Spec §8: the user has MAX_PASSKEYS_PER_USER passkeys already. */
export const PASSKEY_LIMIT_MESSAGE = "Cannot link more passkeys to account.";
/** Spec §8: unlinking a passkey enrolled in MFA while `shouldUnenrollMfaOnUnlink` is off. */
export const PASSKEY_ENROLLED_IN_MFA_MESSAGE = "Cannot unlink a passkey enrolled in MFA";

/**
 * Action signatures (implemented in this folder):
 * - `loginWithPasskey(client): Promise<LoginResult>` — `/passkeys/authenticate/init` → WebAuthn get →
 *   `/passkeys/authenticate`.
 * - `signupWithPasskey(client): Promise<LoginResult>` — `/passkeys/register/init` → WebAuthn create →
 *   `/passkeys/register`.
 * - `linkWithPasskey(client): Promise<AccountChangeResult>` — `/passkeys/link/init` → create → `/passkeys/link`.
 * - `unlinkPasskey(client, credentialId): Promise<AccountChangeResult>`.
 * - `resetPasskeyFlow(client): void`.
 * Each moves `passkeyFlow`; errors carry the messages above.
 */
export type PasskeyActionNames =
  | "loginWithPasskey"
  | "signupWithPasskey"
  | "linkWithPasskey"
  | "unlinkPasskey"
  | "resetPasskeyFlow";
