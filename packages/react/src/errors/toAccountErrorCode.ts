import { isApiError, isClientError, TELEGRAM_INVALID_LAUNCH_PARAMS_MESSAGE } from "@symbolon/core";
import { PrivyErrorCode, type PrivyErrorCodeValue } from "./PrivyErrorCode";

/**
 * The spec §8 callback code for a failed link or update: MUST_BE_AUTHENTICATED when signed out,
 * CANNOT_LINK_MORE_OF_TYPE when the user already has one, INVALID_CREDENTIALS for a wrong code,
 * else FAILED_TO_LINK_ACCOUNT / FAILED_TO_UPDATE_ACCOUNT.
 */
export function toAccountErrorCode(error: unknown, flow: "link" | "update"): PrivyErrorCodeValue {
  if (isClientError(error)) {
    if (error.code === "attempted_rpc_call_before_logged_in") return PrivyErrorCode.MUST_BE_AUTHENTICATED;
    if (error.message === TELEGRAM_INVALID_LAUNCH_PARAMS_MESSAGE) return PrivyErrorCode.INVALID_DATA;
    if (error.message.startsWith("User already has an account of type"))
      return PrivyErrorCode.CANNOT_LINK_MORE_OF_TYPE;
  }
  if (isApiError(error)) {
    if (error.code === "cannot_link_more_of_type") return PrivyErrorCode.CANNOT_LINK_MORE_OF_TYPE;
    if (error.code === "invalid_credentials") return PrivyErrorCode.INVALID_CREDENTIALS;
  }
  return flow === "link" ? PrivyErrorCode.FAILED_TO_LINK_ACCOUNT : PrivyErrorCode.FAILED_TO_UPDATE_ACCOUNT;
}
