import { describe, expect, it } from "vitest";
import { ApiError } from "./ApiError.ts";
import { ClientError } from "./ClientError.ts";
import { describeError } from "./describeError.ts";

describe("describeError", () => {
  it("explains a wrong code", () => {
    expect(describeError(new ApiError("invalid_credentials", "Invalid code", 401))).toBe(
      "That code is not valid. Check it and try again.",
    );
  });

  it("explains a rate limit, with the wait when known", () => {
    expect(describeError(new ApiError("too_many_requests", "x", 429))).toBe(
      "Too many requests. Please wait before trying again.",
    );
    expect(describeError(new ApiError("too_many_requests", "x", 429, { retryAfterSeconds: 30 }))).toBe(
      "Too many requests. Please wait before trying again. Try again in 30 seconds.",
    );
    expect(describeError(new ApiError("too_many_requests", "x", 429, { retryAfterSeconds: 90 }))).toBe(
      "Too many requests. Please wait before trying again. Try again in 2 minutes.",
    );
  });

  it("explains a refused plus address with the spec message", () => {
    expect(describeError(new ApiError("disallowed_plus_email", "x", 400))).toBe(
      "Please enter a valid email address without a '+'.",
    );
  });

  it("tells a wallet operation refused after an MFA lock-out how long is left (not 'Something went wrong')", () => {
    const locked = (seconds?: number) =>
      describeError(
        new ClientError(
          "mfa_verification_max_attempts_reached",
          undefined,
          seconds === undefined ? {} : { retryAfterSeconds: seconds },
        ),
      );
    const spec =
      "You have exceeded the maximum number of attempts. Please close this window and try again in 10 seconds.";
    expect(locked()).toBe(spec);
    expect(locked(10)).toBe(spec);
    expect(locked(1)).toContain("try again in 1 second.");
    expect(locked(60)).toContain("try again in 1 minute.");
    expect(locked(300)).toContain("try again in 5 minutes.");
  });

  it("explains network failures", () => {
    expect(describeError(new ClientError("network_error", "fetch failed"))).toBe(
      "Unable to reach the server. Check your connection and try again.",
    );
  });

  it("shows validation messages as they are", () => {
    expect(describeError(new ClientError("invalid_input", "Please enter a valid email address."))).toBe(
      "Please enter a valid email address.",
    );
  });

  it("falls back to a generic sentence", () => {
    expect(describeError(new Error("weird"))).toBe("Something went wrong. Please try again.");
    expect(describeError(new ApiError("internal_error", "x", 500))).toBe(
      "Something went wrong. Please try again.",
    );
  });
});
