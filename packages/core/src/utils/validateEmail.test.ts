import { describe, expect, it } from "vitest";
import { validateEmail } from "./validateEmail.ts";

const INVALID = "Please enter a valid email address.";
const PLUS = "Please enter a valid email address without a '+'.";

describe("validateEmail", () => {
  it.each(["ada@example.com", "a.b-c@mail.example.co.uk", "  ada@example.com  ", "ada+news@example.com"])(
    "accepts %j",
    (email) => {
      expect(validateEmail(email)).toBeNull();
    },
  );

  it.each([
    "",
    "ada",
    "ada@",
    "@example.com",
    "ada@example",
    "ada@@example.com",
    "a da@example.com",
    "ada@exa mple.com",
    "ada@example.",
  ])("refuses %j with the spec message", (email) => {
    expect(validateEmail(email)).toBe(INVALID);
  });

  it("refuses a '+' in the local part when plus addresses are disabled", () => {
    expect(validateEmail("ada+news@example.com", { disablePlusEmails: true })).toBe(PLUS);
  });

  it("accepts addresses without '+' when plus addresses are disabled", () => {
    expect(validateEmail("ada@example.com", { disablePlusEmails: true })).toBeNull();
  });

  it("reports bad syntax before the plus rule", () => {
    expect(validateEmail("ada+x@", { disablePlusEmails: true })).toBe(INVALID);
  });
});
