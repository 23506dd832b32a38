import { describe, expect, it } from "vitest";
import { formatUnits } from "./formatUnits.ts";

describe("formatUnits", () => {
  it("formats wei as ether like viem's formatEther", () => {
    expect(formatUnits(10_000_000_000_000_000n, 18)).toBe("0.01");
    expect(formatUnits(1_500_000_000_000_000_000n, 18)).toBe("1.5");
    expect(formatUnits(1n, 18)).toBe("0.000000000000000001");
    expect(formatUnits(0n, 18)).toBe("0");
    expect(formatUnits(-2_000_000_000_000_000_000n, 18)).toBe("-2");
  });

  it("handles zero decimals", () => {
    expect(formatUnits(42n, 0)).toBe("42");
  });
});
