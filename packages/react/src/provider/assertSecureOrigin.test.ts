import { describe, expect, it } from "vitest";
import { assertSecureOrigin } from "./assertSecureOrigin";

describe("assertSecureOrigin (spec §5)", () => {
  it.each([
    ["https:", "app.example.com"],
    ["http:", "localhost"],
    ["http:", "127.0.0.1"],
    ["http:", "[::1]"],
    ["http:", "web.localhost"],
    ["chrome-extension:", "abcdefghijklmnop"],
    ["moz-extension:", "f00"],
  ])("accepts %s//%s", (protocol, hostname) => {
    expect(() => assertSecureOrigin({ protocol, hostname })).not.toThrow();
  });

  it("refuses plain http away from localhost with a clear error", () => {
    expect(() => assertSecureOrigin({ protocol: "http:", hostname: "app.example.com" })).toThrow(
      "PrivyProvider must run on an https page (or localhost, or a browser extension); this page is served over http://app.example.com.",
    );
  });
});
