import { SymbolonError, type SymbolonErrorOptions } from "./SymbolonError.ts";

/** Why a cross-app request failed (spec §8 "Cross-app"). */
export type CrossAppErrorCode =
  /** The app does not list the provider: 'Invalid connected app'. */
  | "invalid_connected_app"
  /** 'Cannot transact against a read-only provider app'. */
  | "read_only_provider"
  /** No provider token: 'Transactions require a valid token'. */
  | "missing_provider_token"
  /** 'Cannot request a signature with this wallet address'. */
  | "invalid_wallet_address"
  /** The popup could not be opened: 'Failed to initialize signature request'. */
  | "popup_blocked"
  /** The popup was closed, or the user refused: 'User rejected request'. */
  | "user_rejected"
  /** No answer within 120 s: 'Request timeout'. */
  | "request_timeout"
  /** The provider's page answered with an error. */
  | "provider_error";

/** Spec §8 messages of the cross-app errors. */
export const CROSS_APP_MESSAGES = {
  invalid_connected_app: "Invalid connected app",
  read_only_provider: "Cannot transact against a read-only provider app",
  missing_provider_token: "Transactions require a valid token",
  invalid_wallet_address: "Cannot request a signature with this wallet address",
  popup_blocked: "Failed to initialize signature request",
  user_rejected: "User rejected request",
  request_timeout: "Request timeout",
} as const satisfies Partial<Record<CrossAppErrorCode, string>>;

/** A cross-app request failed: a stable `code` and the spec's message. */
export class CrossAppError extends SymbolonError {
  override code: CrossAppErrorCode;

  constructor(code: CrossAppErrorCode, message?: string, options: SymbolonErrorOptions = {}) {
    super(code, message ?? (CROSS_APP_MESSAGES as Record<string, string>)[code] ?? code, options);
    this.name = "CrossAppError";
    this.code = code;
  }
}

/** Whether `e` is a {@link CrossAppError}. */
export function isCrossAppError(e: unknown): e is CrossAppError {
  return e instanceof CrossAppError;
}
