import { mfaMaxAttemptsText } from "../mfa/mfaLockoutText.ts";
import { isApiError } from "./ApiError.ts";
import { isClientError } from "./ClientError.ts";
import { codeRefusal } from "./codeRefusal.ts";

const GENERIC = "Something went wrong. Please try again.";

/** Words a person understands for any error the client throws, for display in the UI. */
export function describeError(e: unknown): string {
  if (isClientError(e)) {
    if (e.code === "network_error") return "Unable to reach the server. Check your connection and try again.";
    // Validation failures carry the spec's message (e.g. the email rules of §5).
    if (e.code === "invalid_input") return e.message;
    // An operation that needed MFA failed after too many tries: say when it may be tried again
    // (the server's lock-out, when the wallet frame passed it on).
    if (e.code === "mfa_verification_max_attempts_reached") return mfaMaxAttemptsText(e.retryAfterSeconds);
    return GENERIC;
  }
  if (!isApiError(e)) return GENERIC;
  switch (e.code) {
    case "invalid_credentials":
      // The server's refusals of a code are sentences for people (tries left, used up, expired).
      return codeRefusal(e) ? e.message : "That code is not valid. Check it and try again.";
    case "too_many_requests":
      if (codeRefusal(e)) return e.message;
      return e.retryAfterSeconds === undefined
        ? "Too many requests. Please wait before trying again."
        : `Too many requests. Please wait before trying again. Try again in ${formatWait(e.retryAfterSeconds)}.`;
    case "disallowed_plus_email":
      return "Please enter a valid email address without a '+'.";
    case "invalid_data":
      // Spec §5 passcode messages ('Passcode can only be numbers', …) are shown as they are.
      if (codeRefusal(e)) return e.message;
      return "Please check what you entered and try again.";
    case "user_does_not_exist":
      return "No account exists for this login.";
    case "signup_disabled":
      return "New accounts cannot be created right now.";
    case "allowlist_rejected":
      return "This account is not allowed to access this app.";
    case "disallowed_login_method":
      return "This login method is not enabled for this app.";
    default:
      return GENERIC;
  }
}

function formatWait(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? "1 second" : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}
