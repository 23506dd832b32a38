// @vitest-environment node
import { describe, expect, it } from "vitest";
import { formatReport, INITIAL_BUDGET_GZIP_BYTES, measureBundle } from "./bundle-size.mjs";

describe("bundle size", () => {
  it("keeps the initial bundle under 35 KiB gzip and the modal in a lazy chunk", async () => {
    const size = await measureBundle();
    const report = formatReport(size);
    console.log(report);
    expect(size.initialGzipBytes).toBeLessThanOrEqual(INITIAL_BUDGET_GZIP_BYTES);
    const lazy = size.chunks.filter((chunk) => !chunk.initial);
    expect(lazy.some((chunk) => chunk.file.includes("LoginModal"))).toBe(true);
    expect(size.totalGzipBytes).toBeGreaterThan(size.initialGzipBytes);
    // The phone, refusal and terms screens are chunks of their own, each listed with its size.
    for (const screen of ["PhoneScreen", "RefusalScreen", "TransferScreen", "TermsScreen"]) {
      const chunk = lazy.find((c) => c.file.includes(screen));
      expect(chunk, screen).toBeDefined();
      expect(report).toContain(chunk?.file);
    }
  });
});
