import { CLIENT_ERROR_MESSAGES, type ClientErrorCode } from "../generated/protocol.ts";
import { SymbolonError, type SymbolonErrorOptions } from "./SymbolonError.ts";

/** An error raised by the client itself (spec §8 client codes); the message defaults to the spec's. */
export class ClientError extends SymbolonError {
  override code: ClientErrorCode;

  constructor(code: ClientErrorCode, message?: string, options: SymbolonErrorOptions = {}) {
    super(code, message ?? CLIENT_ERROR_MESSAGES[code], options);
    this.name = "ClientError";
    this.code = code;
  }
}

/** Whether `e` is a {@link ClientError}. */
export function isClientError(e: unknown): e is ClientError {
  return e instanceof ClientError;
}
