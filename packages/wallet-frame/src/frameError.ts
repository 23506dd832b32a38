import type { FrameErrorType } from "../../core/src/generated/protocol.ts";
import { ApiCallError } from "./api.ts";

/** Error `type`s the frame answers with: generated from crates/protocol frame.rs (docs/wallet.md). */
export type { FrameErrorType };

/** An error that becomes the answer `{error: {type, message}}`. */
export class FrameError extends Error {
  constructor(
    readonly type: FrameErrorType,
    message: string,
    /** Seconds until the refusal ends (an MFA lock-out), answered as `retryAfterSeconds`. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = "FrameError";
  }
}

/** A wasm `WalletError` (a JS Error with `name` WalletError and a stable `code`). */
export function isWalletError(error: unknown): error is Error & { code: string } {
  return (
    error instanceof Error &&
    error.name === "WalletError" &&
    typeof (error as { code?: unknown }).code === "string"
  );
}

// Codes that mean the caller's input was wrong, not the wallet (crates/wallet-core error.rs).
const INVALID_INPUT_CODES = new Set([
  "invalid_hex",
  "invalid_address",
  "invalid_address_checksum",
  "invalid_json",
  "non_finite_number",
  "invalid_number",
  "number_out_of_range",
  "invalid_typed_data",
  "invalid_transaction",
  "invalid_message",
]);

/** Server codes meaning "verify MFA (again), then retry": no token, or a dead one. */
export const MFA_RETRY_CODES: ReadonlySet<string> = new Set([
  "missing_or_invalid_mfa",
  "expired_or_invalid_mfa_token",
]);

/** What the host's MFA retry loop looks for (spec §8 client message). */
export function mfaRetryError(): FrameError {
  return new FrameError("missing_or_invalid_mfa", "MFA verification failed, retry.");
}

/**
 * The frame error for anything thrown while handling a request: frame errors stay as they
 * are, the server's MFA refusals become the MFA types, wasm input errors become
 * `invalid_input`, everything else `fallback` with its message.
 */
export function toFrameError(error: unknown, fallback: FrameErrorType): FrameError {
  if (error instanceof FrameError) return error;
  if (error instanceof ApiCallError && error.code !== null) {
    if (MFA_RETRY_CODES.has(error.code)) return mfaRetryError();
    if (error.code === "missing_mfa_enrollment")
      return new FrameError("missing_mfa_enrollment", error.message);
  }
  if (isWalletError(error) && INVALID_INPUT_CODES.has(error.code)) {
    return new FrameError("invalid_input", error.message);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new FrameError(fallback, message);
}
