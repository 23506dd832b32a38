import { describeError, isApiError } from "@symbolon/core";
import { PASSKEY_LINES } from "./passkeyLines";

/**
 * The line a passkey screen shows for a failure: the spec §8 passkey sentence core threw, the server's
 * refusal as a sentence for people, or 'Unknown error occurred.'.
 */
export function passkeyErrorText(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message === "string" && PASSKEY_LINES.has(message)) return message;
  if (isApiError(error)) {
    // The server's passkey refusals ('Unknown passkey', …) are sentences already.
    if (error.code === "invalid_credentials" || error.code === "cannot_link_more_of_type")
      return error.message;
    return describeError(error);
  }
  return "Unknown error occurred.";
}
