import { describe, expect, it } from "vitest";
import { toChainConfig } from "./toChainConfig";

describe("toChainConfig", () => {
  it("takes the default RPC and explorer of a viem-shaped chain", () => {
    expect(
      toChainConfig({
        id: 50312,
        name: "Somnia Testnet",
        nativeCurrency: { name: "STT", symbol: "STT", decimals: 18 },
        rpcUrls: { default: { http: ["https://rpc.example"] } },
        blockExplorers: { default: { name: "Explorer", url: "https://explorer.example" } },
      }),
    ).toEqual({
      id: 50312,
      name: "Somnia Testnet",
      rpcUrl: "https://rpc.example",
      nativeCurrency: { name: "STT", symbol: "STT", decimals: 18 },
      blockExplorerUrl: "https://explorer.example",
    });
  });

  it("refuses a chain without an RPC URL", () => {
    expect(() => toChainConfig({ id: 7, name: "Nowhere" })).toThrow(
      "Chain 7 (Nowhere) needs an RPC URL in rpcUrls.default.http[0].",
    );
  });
});
