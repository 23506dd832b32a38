import { SymbolonError, type SymbolonErrorOptions } from "../errors/SymbolonError.ts";

/** Spec §8 Farcaster titles. */
export const FARCASTER_CONNECT_FAILED = "Connect failed";
export const FARCASTER_REQUEST_REJECTED = "Request rejected";
/** Spec §4: the detail line of a Farcaster request that took longer than FARCASTER_TIMEOUT_MS. */
export const FARCASTER_TIMED_OUT_DETAIL = "The request timed out. Try again.";

/** Why a Farcaster sign-in or signer request did not complete. */
export type FarcasterErrorCode = "farcaster_timeout" | "farcaster_rejected" | "farcaster_connect_failed";

/**
 * A Farcaster request that did not complete: `message` is the screen's title ('Connect failed',
 * 'Request rejected'), `detail` its second line when there is one.
 */
export class FarcasterError extends SymbolonError {
  override code: FarcasterErrorCode;
  /** The line under the title, if any. */
  detail: string | null;

  constructor(code: FarcasterErrorCode, detail: string | null = null, options: SymbolonErrorOptions = {}) {
    super(
      code,
      code === "farcaster_rejected" ? FARCASTER_REQUEST_REJECTED : FARCASTER_CONNECT_FAILED,
      options,
    );
    this.name = "FarcasterError";
    this.code = code;
    this.detail = detail;
  }
}

/** Whether `e` is a {@link FarcasterError}. */
export function isFarcasterError(e: unknown): e is FarcasterError {
  return e instanceof FarcasterError;
}
