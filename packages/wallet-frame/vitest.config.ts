import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "node",
    include: ["src/**/*.test.ts"],
    testTimeout: 15_000,
    // The frame logs ignored messages on purpose; show logs only for failing tests.
    silent: "passed-only",
  },
});
