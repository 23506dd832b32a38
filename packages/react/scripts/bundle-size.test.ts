// @vitest-environment node
import { describe, expect, it } from "vitest";
import { measureBundle } from "./bundle-size.mjs";

/** Budget for what a host page downloads before anyone clicks "Log in". */
const INITIAL_BUDGET_GZIP_BYTES = 35 * 1024;

describe("bundle size", () => {
  it("keeps the initial bundle under 35 KiB gzip and the modal in a lazy chunk", async () => {
    const size = await measureBundle();
    console.log(`initial ${size.initialGzipBytes} B gzip, total ${size.totalGzipBytes} B gzip`);
    expect(size.initialGzipBytes).toBeLessThanOrEqual(INITIAL_BUDGET_GZIP_BYTES);
    const lazy = size.chunks.filter((chunk) => !chunk.initial);
    expect(lazy.some((chunk) => chunk.file.includes("LoginModal"))).toBe(true);
    expect(size.totalGzipBytes).toBeGreaterThan(size.initialGzipBytes);
  });
});
