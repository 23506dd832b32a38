import { describe, expect, it } from "vitest";
import { deniedUrl } from "./authorize.ts";
import { type AuthorizeContext, readContext } from "./context.ts";
import { describe as describeRequest, parseRequest, requestAddress } from "./transact.ts";

const WALLET = "0x1111111111111111111111111111111111111111";

function doc(content: string | null) {
  return {
    querySelector: () => (content === null ? null : { getAttribute: () => content }),
  } as unknown as Pick<Document, "querySelector">;
}

describe("the page's context", () => {
  it("is read from the server's meta tag, and nothing else", () => {
    expect(readContext(doc('{"mode":"transact","api_url":"http://id.test"}'))).toEqual({
      mode: "transact",
      api_url: "http://id.test",
    });
    expect(readContext(doc(null))).toBeNull();
    expect(readContext(doc("not json"))).toBeNull();
    expect(readContext(doc('{"mode":"other"}'))).toBeNull();
  });
});

describe("consent", () => {
  it("Deny returns access_denied with the requester's state to the checked redirect URI", () => {
    const context = {
      redirect_uri: "http://id.test/api/v1/oauth/callback",
      state: "s&1",
    } as AuthorizeContext;
    const url = new URL(deniedUrl(context));
    expect(`${url.origin}${url.pathname}`).toBe("http://id.test/api/v1/oauth/callback");
    expect(url.searchParams.get("error")).toBe("access_denied");
    expect(url.searchParams.get("state")).toBe("s&1");
  });
});

describe("signing requests", () => {
  it("accepts the three wallet methods and finds the signing address", () => {
    const sign = parseRequest(JSON.stringify({ method: "personal_sign", params: ["hi", WALLET] }));
    expect(sign && requestAddress(sign)).toBe(WALLET);
    expect(sign && describeRequest(sign)).toBe("hi");
    const typed = parseRequest(
      JSON.stringify({ method: "eth_signTypedData_v4", params: [WALLET, { a: 1 }] }),
    );
    expect(typed && requestAddress(typed)).toBe(WALLET);
    const send = parseRequest(JSON.stringify({ method: "eth_signTransaction", params: [{ from: WALLET }] }));
    expect(send && requestAddress(send)).toBe(WALLET);
  });

  it("refuses anything else", () => {
    expect(parseRequest(null)).toBeNull();
    expect(parseRequest("{")).toBeNull();
    expect(parseRequest(JSON.stringify({ method: "eth_sign", params: [] }))).toBeNull();
    expect(parseRequest(JSON.stringify({ method: "eth_sendTransaction", params: [{}] }))).toBeNull();
    expect(parseRequest(JSON.stringify({ method: "personal_sign", params: "x" }))).toBeNull();
    const noAddress = parseRequest(JSON.stringify({ method: "personal_sign", params: ["hi"] }));
    expect(noAddress && requestAddress(noAddress)).toBeNull();
  });
});
