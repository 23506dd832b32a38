import { CLIENT_ERROR_MESSAGES, type ClientErrorCode } from "../generated/protocol.ts";
import { SymbolonError, type SymbolonErrorOptions } from "./SymbolonError.ts";

/** Options of a {@link ClientError}. */
export interface ClientErrorOptions extends SymbolonErrorOptions {
  /** Seconds until a refusal ends (the wallet frame's MFA lock-out), when known. */
  retryAfterSeconds?: number;
}

/** An error raised by the client itself (spec §8 client codes); the message defaults to the spec's. */
export class ClientError extends SymbolonError {
  override code: ClientErrorCode;
  /** Seconds until the refusal ends (`mfa_verification_max_attempts_reached` from a server lock-out). */
  retryAfterSeconds?: number;

  constructor(code: ClientErrorCode, message?: string, options: ClientErrorOptions = {}) {
    super(code, message ?? CLIENT_ERROR_MESSAGES[code], options);
    this.name = "ClientError";
    this.code = code;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** Whether `e` is a {@link ClientError}. */
export function isClientError(e: unknown): e is ClientError {
  return e instanceof ClientError;
}
