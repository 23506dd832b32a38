// @vitest-environment jsdom
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { roundUnits } from "@symbolon/core";
import { describe, expect, it } from "vitest";
import { deniedUrl } from "./authorize.ts";
import { type AuthorizeContext, readContext } from "./context.ts";
import { readableMessage, requestView } from "./requestView.ts";
import { parseRequest, requestAddress } from "./transact.ts";
import { header } from "./ui.ts";

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

/** The rows of a `<dl class="rows">` as label → text. */
function rowsOf(nodes: HTMLElement[]): Record<string, string> {
  const rows: Record<string, string> = {};
  for (const row of nodes[0]?.querySelectorAll(":scope > .row") ?? []) {
    rows[row.querySelector("dt")?.textContent ?? ""] = row.querySelector("dd")?.textContent ?? "";
  }
  return rows;
}

const text = (nodes: HTMLElement[]) => nodes.map((n) => n.textContent).join("\n");

describe("what the signing page shows", () => {
  const TO = "0x2222222222222222222222222222222222222222";
  const somnia = {
    id: 50312,
    name: "Somnia Testnet",
    rpcUrl: "https://dream-rpc.somnia.network",
    nativeCurrency: { name: "Somnia Test Token", symbol: "STT", decimals: 18 },
  };

  it("a transaction as rows: to, the amount in STT, the network and the fee; no JSON, no hex value", () => {
    const view = requestView(
      {
        method: "eth_signTransaction",
        params: [
          {
            from: WALLET,
            to: TO,
            value: "0x1bc16d674ec80000", // 2 STT
            gas: "0x5208", // 21000
            maxFeePerGas: "0x3b9aca00", // 1 gwei
            chainId: "0xc488",
            nonce: "0x0",
          },
        ],
        chain: somnia,
      },
      WALLET,
    );
    expect(rowsOf(view)).toEqual({
      Wallet: WALLET,
      To: TO,
      Amount: "2 STT",
      Network: "Somnia Testnet",
      "Estimated max fee": "0.000021 STT",
      Total: "2.00002 STT", // rounded like the modal; exact on hover
    });
    expect(text(view)).not.toMatch(/[{}"]|0x1bc16d674ec80000|0x5208/);
    expect(view.some((n) => n.querySelector("pre"))).toBe(false);
  });

  it("names chain 50312 and its currency when the request does not carry its chain", () => {
    const view = requestView(
      {
        method: "eth_signTransaction",
        params: [{ from: WALLET, to: TO, value: "1500000000000000", chainId: 50312 }],
      },
      WALLET,
    );
    expect(rowsOf(view)).toMatchObject({ Amount: "0.0015 STT", Network: "Somnia Testnet" });
  });

  it("a message as text, hex decoded when it is UTF-8", () => {
    expect(readableMessage("0x48656c6c6f20e29c93")).toBe("Hello ✓");
    expect(readableMessage("0xdeadbeef")).toBe("0xdeadbeef");
    expect(readableMessage("plain")).toBe("plain");
    const view = requestView({ method: "personal_sign", params: ["0x6869", WALLET] }, WALLET);
    expect(view[1]?.querySelector("pre")?.textContent).toBe("hi");
  });

  it("typed data as rows, nested structs under their field, the JSON only behind Details", () => {
    const view = requestView(
      {
        method: "eth_signTypedData_v4",
        params: [
          WALLET,
          {
            domain: { name: "Mail", version: "1", chainId: 50312, verifyingContract: TO },
            types: {
              Person: [
                { name: "name", type: "string" },
                { name: "wallet", type: "address" },
              ],
              Mail: [
                { name: "from", type: "Person" },
                { name: "contents", type: "string" },
              ],
            },
            primaryType: "Mail",
            message: { from: { name: "Cow", wallet: WALLET }, contents: "Hello, Bob!" },
          },
        ],
      },
      WALLET,
    );
    expect(rowsOf(view)).toMatchObject({ App: "Mail", Chain: "Somnia Testnet", Contract: TO, Type: "Mail" });
    const nested = [...(view[0]?.querySelectorAll(".fields .fields dt") ?? [])].map((n) => n.textContent);
    expect(nested).toEqual(["name", "wallet"]);
    expect(view[1]?.tagName).toBe("DETAILS");
  });

  it("addresses are shown whole in an element that wraps anywhere", () => {
    const view = requestView({ method: "personal_sign", params: ["hi", WALLET] }, WALLET);
    const shown = view[0]?.querySelector(".address");
    expect(shown?.textContent).toBe(WALLET);
    const css = readFileSync(join(import.meta.dirname, "style.css"), "utf8");
    expect(css).toMatch(/\.address\s*\{[^}]*overflow-wrap:\s*anywhere/);
    expect(css).toMatch(/\.row dd\s*\{[^}]*overflow-wrap:\s*anywhere/);
  });

  it("rounds for reading like the modal", () => {
    expect(roundUnits(999957999999000000n, 18)).toBe("0.999958");
  });
});

describe("the page's header", () => {
  it("names the requesting app beside its letter tile, or shows its https icon", () => {
    const head = header(
      { name: "app B" },
      "Connect to app A",
      "app B wants to connect to your app A account",
    );
    expect(head.querySelector("h1")?.textContent).toBe("Connect to app A");
    expect(head.textContent).toContain("app B wants to connect");
    const tile = head.querySelector(".tile");
    expect(tile?.textContent).toBe("A");
    expect(tile?.getAttribute("aria-hidden")).toBe("true");
    const icon = header({ name: "B", iconUrl: "https://b.test/icon.png" }, "t").querySelector("img");
    expect(icon?.getAttribute("src")).toBe("https://b.test/icon.png");
    expect(header({ name: "B", iconUrl: "javascript:x" }, "t").querySelector("img")).toBeNull();
  });
});
