import { describe, expect, it } from "vitest";
import { roundUnits } from "./roundUnits.ts";

const ether = (text: string) => {
  const [whole, fraction = ""] = text.split(".");
  return BigInt(`${whole}${fraction.padEnd(18, "0")}`);
};

describe("roundUnits", () => {
  it("keeps six significant digits, rounded, for amounts people read", () => {
    expect(roundUnits(ether("0.999957999999999999"), 18)).toBe("0.999958");
    expect(roundUnits(ether("0.000042123456789"), 18)).toBe("0.0000421235");
    expect(roundUnits(ether("1.23456749"), 18)).toBe("1.23457");
  });

  it("leaves short amounts, zero and whole units alone", () => {
    expect(roundUnits(ether("0.01"), 18)).toBe("0.01");
    expect(roundUnits(0n, 18)).toBe("0");
    expect(roundUnits(ether("1234567.89"), 18)).toBe("1234568");
    expect(roundUnits(ether("0.9999999"), 18)).toBe("1");
  });
});
