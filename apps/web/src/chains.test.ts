import { describe, expect, it } from "vitest";
import { SOMNIA_TESTNET_RPC_URL, somniaTestnet, supportedChain } from "./chains";

describe("chains", () => {
  it("describes Somnia Testnet with its public RPC by default, overridable", () => {
    expect(somniaTestnet()).toMatchObject({
      id: 50312,
      name: "Somnia Testnet",
      nativeCurrency: { symbol: "STT", decimals: 18 },
      rpcUrls: { default: { http: [SOMNIA_TESTNET_RPC_URL] } },
      blockExplorers: { default: { url: "https://shannon-explorer.somnia.network" } },
    });
    expect(somniaTestnet("http://localhost:8545").rpcUrls.default.http).toEqual(["http://localhost:8545"]);
  });

  it("finds the configured chain by id", () => {
    expect(supportedChain("50312", [somniaTestnet()]).name).toBe("Somnia Testnet");
  });

  it("refuses a chain id that is not configured with the spec message", () => {
    expect(() => supportedChain("1", [somniaTestnet()])).toThrow(
      "Chain ID 1 is not supported. It must be added to the config.supportedChains property of the PrivyProvider.",
    );
  });
});
