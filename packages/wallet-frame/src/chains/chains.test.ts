import { describe, expect, it } from "vitest";
import { CHAINS, DEFAULT_CHAIN } from "./chains.ts";
import { ethereum } from "./ethereum.ts";

describe("CHAINS", () => {
  it("lists each chain under its own chainType, each named by its own entropyIdVerifier", () => {
    for (const [chainType, chain] of CHAINS) expect(chain.chainType).toBe(chainType);
    const verifiers = [...CHAINS.values()].map((chain) => chain.entropyIdVerifier);
    expect(new Set(verifiers).size).toBe(verifiers.length);
    expect(CHAINS.get(DEFAULT_CHAIN.chainType)).toBe(DEFAULT_CHAIN);
  });

  it("has Ethereum only so far, the protocol's default", () => {
    expect([...CHAINS.keys()]).toEqual(["ethereum"]);
    expect(DEFAULT_CHAIN).toBe(ethereum);
    // Inherited names are no chains.
    expect(CHAINS.get("constructor")).toBeUndefined();
  });
});

describe("ethereum", () => {
  it("takes 0x + 40 hex characters as an address, any case, one key per address", () => {
    const address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    expect(ethereum.isAddress(address)).toBe(true);
    expect(ethereum.isAddress(address.toLowerCase())).toBe(true);
    for (const bad of ["0x12", address.slice(2), `${address}00`, `0x${"g".repeat(40)}`]) {
      expect(ethereum.isAddress(bad)).toBe(false);
    }
    expect(ethereum.addressKey(address)).toBe(ethereum.addressKey(address.toUpperCase().replace("0X", "0x")));
  });
});
