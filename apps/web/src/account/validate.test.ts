import { parseEther } from "viem";
import { describe, expect, it } from "vitest";
import {
  AMOUNT_NOT_A_NUMBER,
  AMOUNT_NOT_POSITIVE,
  AMOUNT_OVER_BALANCE,
  AMOUNT_TOO_PRECISE,
  BAD_CHECKSUM,
  EMPTY_MESSAGE,
  formatBalance,
  INVALID_RECIPIENT,
  parseAmount,
  validateMessage,
  validateRecipient,
} from "./validate";

describe("validateMessage", () => {
  it("refuses an empty message (the spec's rule) in a person's words", () => {
    expect(EMPTY_MESSAGE).toBe("Message must be a non-empty string");
    expect(validateMessage("")).toBe("Write a message to sign first.");
    expect(validateMessage("hello")).toBeNull();
  });
});

describe("validateRecipient", () => {
  it("accepts 0x and 40 hex characters in any case", () => {
    expect(validateRecipient("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")).toBeNull();
    expect(validateRecipient("0x70997970c51812dc3a010c7d01b50e0d17dc79c8")).toBeNull();
    expect(validateRecipient(" 0x70997970c51812dc3a010c7d01b50e0d17dc79c8 ")).toBeNull();
  });

  it("accepts all-lower and all-upper case, and mixed case only with a correct EIP-55 checksum", () => {
    expect(validateRecipient("0x70997970C51812DC3A010C7D01B50E0D17DC79C8")).toBeNull();
    // One letter's case flipped: a typo the checksum catches.
    expect(validateRecipient("0x70997970c51812dc3A010C7d01b50e0d17dc79C8")).toBe(BAD_CHECKSUM);
    expect(BAD_CHECKSUM).toBe(
      "This address has a typo: its capital letters do not match its checksum. Copy it again from its source.",
    );
  });

  it.each([
    "",
    "70997970c51812dc3a010c7d01b50e0d17dc79c8",
    "0x70997970c51812dc3a010c7d01b50e0d17dc79c",
    "0x70997970c51812dc3a010c7d01b50e0d17dc79c8a",
    "0x70997970c51812dc3a010c7d01b50e0d17dc79cg",
  ])("refuses %j", (text) => {
    expect(validateRecipient(text)).toBe("Enter a valid address (0x followed by 40 hex characters)");
    expect(INVALID_RECIPIENT).toBe("Enter a valid address (0x followed by 40 hex characters)");
  });
});

describe("parseAmount", () => {
  it("parses decimal STT into wei with viem's parseEther", () => {
    expect(parseAmount("0.01", null)).toEqual({ ok: true, wei: 10_000_000_000_000_000n });
    expect(parseAmount("1", null)).toEqual({ ok: true, wei: parseEther("1") });
    expect(parseAmount(" .5 ", null)).toEqual({ ok: true, wei: parseEther("0.5") });
    expect(parseAmount("2.", null)).toEqual({ ok: true, wei: parseEther("2") });
    expect(parseAmount("0.000000000000000001", null)).toEqual({ ok: true, wei: 1n });
  });

  it.each(["", "0", "0.000", "0,000", "-1"])("refuses %j as not greater than 0", (text) => {
    expect(parseAmount(text, null)).toEqual({ ok: false, error: "Enter an amount greater than 0" });
    expect(AMOUNT_NOT_POSITIVE).toBe("Enter an amount greater than 0");
  });

  it.each(["abc", "1e3", "1.2.3", ".", "1,000.5", "0,5,1"])(
    "says what an amount may look like for %j",
    (text) => {
      expect(parseAmount(text, null)).toEqual({
        ok: false,
        error: "Enter the amount as a number, such as 0.5 or 0,5",
      });
      expect(AMOUNT_NOT_A_NUMBER).toBe("Enter the amount as a number, such as 0.5 or 0,5");
    },
  );

  it("accepts a decimal comma", () => {
    expect(parseAmount("0,5", null)).toEqual({ ok: true, wei: parseEther("0.5") });
    expect(parseAmount(" 1,25 ", null)).toEqual({ ok: true, wei: parseEther("1.25") });
  });

  it("refuses more than 18 decimals", () => {
    expect(parseAmount("0.0000000000000000001", null)).toEqual({
      ok: false,
      error: "Amount has more than 18 decimals",
    });
    expect(AMOUNT_TOO_PRECISE).toBe("Amount has more than 18 decimals");
  });

  it("refuses more than the balance, and allows exactly the balance", () => {
    const balance = parseEther("1");
    expect(parseAmount("1.000000000000000001", balance)).toEqual({
      ok: false,
      error: "Amount exceeds your balance",
    });
    expect(AMOUNT_OVER_BALANCE).toBe("Amount exceeds your balance");
    expect(parseAmount("1", balance)).toEqual({ ok: true, wei: balance });
  });
});

describe("formatBalance", () => {
  it("shows 4 decimals and STT, cutting instead of rounding up", () => {
    expect(formatBalance(0n)).toBe("0.0000 STT");
    expect(formatBalance(parseEther("1"))).toBe("1.0000 STT");
    expect(formatBalance(parseEther("0.98995"))).toBe("0.9899 STT");
    expect(formatBalance(parseEther("12345.6"))).toBe("12345.6000 STT");
  });
});
