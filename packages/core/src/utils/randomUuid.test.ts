import { afterEach, describe, expect, it, vi } from "vitest";
import { randomUuid } from "./randomUuid.ts";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("randomUuid", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("gives distinct v4 UUIDs", () => {
    const a = randomUuid();
    expect(a).toMatch(UUID_V4);
    expect(randomUuid()).not.toBe(a);
  });

  it("works where crypto.randomUUID is missing (insecure http pages)", () => {
    const { getRandomValues } = crypto;
    vi.stubGlobal("crypto", { getRandomValues: getRandomValues.bind(crypto) });
    const a = randomUuid();
    expect(a).toMatch(UUID_V4);
    expect(randomUuid()).not.toBe(a);
  });
});
