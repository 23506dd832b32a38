import {
  OTP_REFUSAL_EXPIRED,
  OTP_REFUSAL_LOCKED_PREFIX,
  OTP_REFUSAL_USED_UP,
  OTP_REFUSAL_WRONG_PREFIX,
} from "../generated/protocol.ts";
import { isApiError } from "./ApiError.ts";

/**
 * Why the server refused a login code, as a person needs to know it: a wrong guess (with the tries
 * left), a code whose tries are used up, a code that expired or was already used, the address's
 * failure budget spent (wait), or a code that is not six digits (spec §5).
 */
export type CodeRefusal =
  | { kind: "wrong"; attemptsLeft: number }
  | { kind: "used_up" }
  | { kind: "expired" }
  | { kind: "locked"; retryAfterSeconds?: number }
  | { kind: "malformed" };

/** What follows the wrong-code prefix: ' 3 attempts left.', ' 1 attempt left.', ' No attempts left: …'. */
const ATTEMPTS_LEFT = /^ (\d+|No) attempts? left/;

/**
 * Reads a `POST /passwordless/authenticate` refusal. The server answers every refusal with
 * `invalid_credentials` (or `too_many_requests` / `invalid_data`) and tells them apart in its
 * message, whose fixed parts come from the protocol (`OTP_REFUSAL_*`), so both sides read the same
 * text; `null` when the error is not a code refusal.
 */
export function codeRefusal(e: unknown): CodeRefusal | null {
  if (!isApiError(e)) return null;
  if (e.code === "invalid_credentials") {
    const wrong = e.message.startsWith(OTP_REFUSAL_WRONG_PREFIX)
      ? ATTEMPTS_LEFT.exec(e.message.slice(OTP_REFUSAL_WRONG_PREFIX.length))
      : null;
    if (wrong) return { kind: "wrong", attemptsLeft: wrong[1] === "No" ? 0 : Number(wrong[1]) };
    if (e.message === OTP_REFUSAL_USED_UP) return { kind: "used_up" };
    if (e.message === OTP_REFUSAL_EXPIRED) return { kind: "expired" };
    return null;
  }
  if (e.code === "too_many_requests" && e.message.startsWith(OTP_REFUSAL_LOCKED_PREFIX)) {
    return e.retryAfterSeconds === undefined
      ? { kind: "locked" }
      : { kind: "locked", retryAfterSeconds: e.retryAfterSeconds };
  }
  if (e.code === "invalid_data" && e.message.startsWith("Passcode ")) return { kind: "malformed" };
  return null;
}
