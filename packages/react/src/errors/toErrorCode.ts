import { PrivyErrorCode, type PrivyErrorCodeValue } from "./PrivyErrorCode";

/** The code an `onError` callback receives for a thrown value: its stable `code`, else unknown. */
export function toErrorCode(error: unknown): PrivyErrorCodeValue {
  if (typeof error === "object" && error !== null && "code" in error && typeof error.code === "string") {
    return error.code;
  }
  return PrivyErrorCode.UNKNOWN_AUTH_ERROR;
}
