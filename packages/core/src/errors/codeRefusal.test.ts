import { describe, expect, it } from "vitest";
import { ApiError } from "./ApiError.ts";
import { codeRefusal } from "./codeRefusal.ts";
import { describeError } from "./describeError.ts";
import { needsNewCode } from "./needsNewCode.ts";

// The server's refusals of `POST /passwordless/authenticate` (crates/server/src/http/passwordless.rs).
const refused = (message: string) => new ApiError("invalid_credentials", message, 401);

describe("codeRefusal", () => {
  it("reads a wrong guess with the tries left", () => {
    expect(codeRefusal(refused("Invalid code. 3 attempts left."))).toEqual({
      kind: "wrong",
      attemptsLeft: 3,
    });
    expect(codeRefusal(refused("Invalid code. 1 attempt left."))).toEqual({ kind: "wrong", attemptsLeft: 1 });
    const last = codeRefusal(refused("Invalid code. No attempts left: request a new code."));
    expect(last).toEqual({ kind: "wrong", attemptsLeft: 0 });
    expect(needsNewCode(last)).toBe(true);
    expect(needsNewCode({ kind: "wrong", attemptsLeft: 1 })).toBe(false);
  });

  it("tells a used-up code from an expired one, and both need a new code", () => {
    const usedUp = codeRefusal(refused("Too many wrong attempts for this code. Request a new code."));
    const expired = codeRefusal(refused("This code has expired or was already used. Request a new code."));
    expect(usedUp).toEqual({ kind: "used_up" });
    expect(expired).toEqual({ kind: "expired" });
    expect(needsNewCode(usedUp) && needsNewCode(expired)).toBe(true);
  });

  it("reads the per-address lock with its wait, and the spec §5 passcode messages", () => {
    const locked = new ApiError(
      "too_many_requests",
      "Too many wrong codes for this address. Try again in 15 minutes.",
      429,
      { retryAfterSeconds: 900 },
    );
    expect(codeRefusal(locked)).toEqual({ kind: "locked", retryAfterSeconds: 900 });
    expect(codeRefusal(new ApiError("invalid_data", "Passcode must be exactly 6 numbers", 400))).toEqual({
      kind: "malformed",
    });
    expect(codeRefusal(new ApiError("too_many_requests", "Too many requests", 429))).toBeNull();
    expect(codeRefusal(new Error("x"))).toBeNull();
  });
});

describe("describeError for code refusals", () => {
  it("shows the server's sentence instead of one 'not valid' for every refusal", () => {
    for (const message of [
      "Invalid code. 4 attempts left.",
      "Too many wrong attempts for this code. Request a new code.",
      "This code has expired or was already used. Request a new code.",
    ]) {
      expect(describeError(refused(message))).toBe(message);
    }
    const locked = "Too many wrong codes for this address. Try again in 15 minutes.";
    expect(describeError(new ApiError("too_many_requests", locked, 429, { retryAfterSeconds: 900 }))).toBe(
      locked,
    );
    expect(describeError(new ApiError("invalid_data", "Passcode can only be numbers", 400))).toBe(
      "Passcode can only be numbers",
    );
  });
});
