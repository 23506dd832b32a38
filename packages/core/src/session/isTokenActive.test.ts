import { describe, expect, it } from "vitest";
import { mintToken } from "../test/fixtures.ts";
import { decodeJwtPayload } from "./decodeJwtPayload.ts";
import { isTokenActive } from "./isTokenActive.ts";

describe("isTokenActive", () => {
  const now = 1_800_000_000_000;
  const exp = now / 1000;

  it("is active until 30 s before exp", () => {
    expect(isTokenActive(mintToken({ exp: exp + 31 }), now)).toBe(true);
    expect(isTokenActive(mintToken({ exp: exp + 30 }), now)).toBe(false);
    expect(isTokenActive(mintToken({ exp: exp - 5 }), now)).toBe(false);
  });

  it("treats garbage and null as inactive", () => {
    expect(isTokenActive(null, now)).toBe(false);
    expect(isTokenActive("not-a-jwt", now)).toBe(false);
    expect(isTokenActive("a.%%%.c", now)).toBe(false);
  });
});

describe("decodeJwtPayload", () => {
  it("reads base64url claims including non-ASCII text", () => {
    const token = mintToken({ sub: "dïd:ü/+?" });
    expect(decodeJwtPayload(token)?.sub).toBe("dïd:ü/+?");
  });
});
