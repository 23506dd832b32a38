// Error classes with stable codes, their guards, and words for the UI.
export { ApiError, type ApiErrorOptions, isApiError } from "../errors/ApiError.ts";
export { ClientError, isClientError } from "../errors/ClientError.ts";
export {
  CROSS_APP_MESSAGES,
  CrossAppError,
  type CrossAppErrorCode,
  isCrossAppError,
} from "../errors/CrossAppError.ts";
export { type CodeRefusal, codeRefusal } from "../errors/codeRefusal.ts";
export { describeError } from "../errors/describeError.ts";
export { needsNewCode } from "../errors/needsNewCode.ts";
export {
  IN_APP_BROWSER_MESSAGE,
  isOAuthError,
  OAuthError,
  type OAuthErrorCode,
  ORIGIN_MISMATCH_MESSAGE,
} from "../errors/OAuthError.ts";
export { SymbolonError, type SymbolonErrorOptions } from "../errors/SymbolonError.ts";
export { transferData } from "../errors/transferData.ts";
export {
  isWalletConnectionError,
  WalletConnectionError,
  type WalletConnectionErrorCode,
} from "../externalWallets/WalletConnectionError.ts";
export {
  FARCASTER_CONNECT_FAILED,
  FARCASTER_REQUEST_REJECTED,
  FARCASTER_TIMED_OUT_DETAIL,
  FarcasterError,
  type FarcasterErrorCode,
  isFarcasterError,
} from "../farcaster/FarcasterError.ts";
export {
  errorIndicatesMaxMfaRetries,
  errorIndicatesMfaTimeout,
  errorIndicatesMfaVerificationFailed,
} from "../mfa/mfaErrors.ts";
export { MFA_MAX_ATTEMPTS_TEXT, mfaMaxAttemptsText } from "../mfa/mfaLockoutText.ts";
