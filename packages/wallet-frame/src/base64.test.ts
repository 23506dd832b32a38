import { describe, expect, it } from "vitest";
import { fromBase64, toBase64 } from "./base64.ts";
import { userIdOf } from "./jwt.ts";
import { accessToken } from "./test/tokens.ts";

describe("base64", () => {
  it("round-trips bytes as standard padded base64", () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString("base64"));
    expect(fromBase64(toBase64(bytes))).toEqual(bytes);
    expect(toBase64(new Uint8Array([0xfb, 0xff]))).toBe("+/8=");
  });
});

describe("userIdOf", () => {
  it("reads `sub` from a JWT without verifying it", () => {
    expect(userIdOf(accessToken("did:privy:ünïcode"))).toBe("did:privy:ünïcode");
  });

  it("gives null for anything without a string sub", () => {
    const part = (claims: unknown) => Buffer.from(JSON.stringify(claims)).toString("base64url");
    for (const token of [
      "",
      "abc",
      "a..c",
      `h.${part({ sub: 5 })}.s`,
      `h.${part({ sub: "" })}.s`,
      `h.${part(null)}.s`,
      "h.!!!.s",
    ]) {
      expect(userIdOf(token)).toBeNull();
    }
  });
});
