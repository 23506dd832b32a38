import { describe, expect, it } from "vitest";
import { validatePasscode } from "./validatePasscode.ts";

describe("validatePasscode", () => {
  it("accepts six digits", () => {
    expect(validatePasscode("123456")).toEqual({ digits: "123456", error: null });
  });

  it("strips whitespace from a pasted code", () => {
    expect(validatePasscode(" 123 456\n")).toEqual({ digits: "123456", error: null });
  });

  it("accepts a partial code while typing", () => {
    expect(validatePasscode("12")).toEqual({ digits: "12", error: null });
  });

  it("refuses non-digits with the spec message", () => {
    expect(validatePasscode("12a456")).toEqual({ digits: "12456", error: "Passcode can only be numbers" });
  });

  it("refuses more than six digits with the spec message", () => {
    expect(validatePasscode("1234567")).toEqual({
      digits: "123456",
      error: "Passcode must be exactly 6 numbers",
    });
  });
});
