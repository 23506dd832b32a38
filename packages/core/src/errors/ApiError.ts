import type { ServerErrorCode } from "../generated/protocol.ts";
import { SymbolonError, type SymbolonErrorOptions } from "./SymbolonError.ts";

/** Options of an {@link ApiError}. */
export interface ApiErrorOptions extends SymbolonErrorOptions {
  /** Seconds the server asked us to wait (`Retry-After`), when known. */
  retryAfterSeconds?: number;
  /** Details the refusal carried (`account_transfer_required`: an `AccountTransferData`). */
  data?: unknown;
}

/** The server answered with an error body `{error, code}`. */
export class ApiError extends SymbolonError {
  override code: ServerErrorCode;
  /** HTTP status of the answer. */
  status: number;
  /** Seconds to wait before retrying, from `Retry-After` (rate limits). */
  retryAfterSeconds?: number;
  /**
   * Details the refusal carried, as the server sent them: `account_transfer_required` carries
   * `{nonce, account_type, display_name, embedded_wallet_address}` (see `transferData`).
   */
  data?: unknown;

  constructor(code: ServerErrorCode, message: string, status: number, options: ApiErrorOptions = {}) {
    super(code, message, options);
    this.name = "ApiError";
    this.code = code;
    this.status = status;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
    if (options.data !== undefined) this.data = options.data;
  }
}

/** Whether `e` is an {@link ApiError}. */
export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}
