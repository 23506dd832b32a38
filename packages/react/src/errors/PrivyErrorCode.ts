/**
 * Codes passed to `onError` callbacks (spec §8 callback codes), with the same string values as the
 * spec's client so host apps can compare against either. Server and client error codes from
 * `@symbolon/core` are passed through unchanged (they are already snake_case).
 */
export const PrivyErrorCode = {
  MUST_BE_AUTHENTICATED: "must_be_authenticated",
  EMBEDDED_WALLET_NOT_FOUND: "embedded_wallet_not_found",
  TRANSACTION_FAILURE: "transaction_failure",
  UNABLE_TO_SIGN: "unable_to_sign",
  INVALID_MESSAGE: "invalid_message",
  UNSUPPORTED_CHAIN_ID: "unsupported_chain_id",
  UNSUPPORTED_WALLET_TYPE: "unsupported_wallet_type",
  MISSING_MFA_CREDENTIALS: "missing_or_invalid_mfa",
  CANNOT_LINK_MORE_OF_TYPE: "cannot_link_more_of_type",
  FAILED_TO_LINK_ACCOUNT: "failed_to_link_account",
  FAILED_TO_UPDATE_ACCOUNT: "failed_to_update_account",
  UNKNOWN_AUTH_ERROR: "unknown_auth_error",
  INVALID_CREDENTIALS: "invalid_credentials",
  INVALID_DATA: "invalid_data",
  GENERIC_CONNECT_WALLET_ERROR: "generic_connect_wallet_error",
  UNKNOWN_CONNECT_WALLET_ERROR: "unknown_connect_wallet_error",
  USER_EXITED_AUTH_FLOW: "exited_auth_flow",
  USER_EXITED_LINK_FLOW: "exited_link_flow",
  USER_EXITED_UPDATE_FLOW: "exited_update_flow",
  USER_EXITED_SET_PASSWORD_FLOW: "user_exited_set_password_flow",
  OAUTH_UNEXPECTED: "oauth_unexpected",
  TOO_MANY_REQUESTS: "too_many_requests",
  DISALLOWED_PLUS_EMAIL: "disallowed_plus_email",
} as const;

/** A callback error code: one of {@link PrivyErrorCode} or a server/client code passed through. */
export type PrivyErrorCodeValue = (typeof PrivyErrorCode)[keyof typeof PrivyErrorCode] | (string & {});
