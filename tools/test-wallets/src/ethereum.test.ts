import {
  getAddress,
  type Hex,
  recoverTypedDataAddress,
  stringToHex,
  verifyMessage,
  verifyTypedData,
} from "viem";
import { describe, expect, it, vi } from "vitest";
import { controlOn } from "./control.ts";
import { createTestEthereumProvider } from "./ethereum.ts";
import { DEV_ETHEREUM_KEY, DEV_ETHEREUM_KEY_2 } from "./keys.ts";

const ANVIL_2 = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

function wallet(options: { chainId?: number; chains?: { id: number }[] } = {}) {
  const control = controlOn({});
  const provider = createTestEthereumProvider({ privateKey: DEV_ETHEREUM_KEY, ...options }, control);
  return { control, provider };
}

/** Runs `request` and returns its rejection (fails when it resolves). */
async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    (value) => {
      throw new Error(`expected a refusal, got ${JSON.stringify(value)}`);
    },
    (e: unknown) => e as { code: number; message: string },
  );
  return { code: error.code, message: error.message };
}

const TYPED = {
  domain: { name: "Symbolon", version: "1", chainId: 1n },
  types: {
    EIP712Domain: [
      { name: "name", type: "string" },
      { name: "version", type: "string" },
      { name: "chainId", type: "uint256" },
    ],
    Mail: [{ name: "contents", type: "string" }],
  },
  primaryType: "Mail",
  message: { contents: "hello" },
} as const;

describe("injected Ethereum test wallet", () => {
  it("uses the key's account: anvil's dev account 2 for the dev key", () => {
    expect(wallet().control.address).toBe(ANVIL_2);
    const other = createTestEthereumProvider({ privateKey: DEV_ETHEREUM_KEY_2 }, controlOn({}));
    expect(other).toBeDefined();
  });

  it("shows no account before the user connects, then the account and an accountsChanged event", async () => {
    const { provider } = wallet();
    const changed = vi.fn();
    provider.on("accountsChanged", changed);
    expect(await provider.request({ method: "eth_accounts" })).toEqual([]);
    expect(await provider.request({ method: "eth_requestAccounts" })).toEqual([ANVIL_2]);
    expect(await provider.request({ method: "eth_accounts" })).toEqual([ANVIL_2]);
    expect(changed).toHaveBeenCalledWith([ANVIL_2]);
    await provider.request({ method: "wallet_revokePermissions", params: [{ eth_accounts: {} }] });
    expect(await provider.request({ method: "eth_accounts" })).toEqual([]);
    expect(changed).toHaveBeenLastCalledWith([]);
  });

  it("personal_sign gives a signature viem verifies against the address (hex and text messages)", async () => {
    const { provider, control } = wallet();
    await provider.request({ method: "eth_requestAccounts" });
    const message = "example.com wants you to sign in with your Ethereum account:\nhello";
    const fromHex = (await provider.request({
      method: "personal_sign",
      params: [stringToHex(message), ANVIL_2],
    })) as Hex;
    expect(await verifyMessage({ address: ANVIL_2, message, signature: fromHex })).toBe(true);
    const fromText = (await provider.request({
      method: "personal_sign",
      params: [message, ANVIL_2.toLowerCase()],
    })) as Hex;
    expect(fromText).toBe(fromHex);
    expect(control.messages).toEqual([message, message]);
    expect(await verifyMessage({ address: ANVIL_2, message: "another", signature: fromHex })).toBe(false);
  });

  it("eth_signTypedData_v4 signs the JSON typed data for the address", async () => {
    const { provider } = wallet();
    await provider.request({ method: "eth_requestAccounts" });
    const signature = (await provider.request({
      method: "eth_signTypedData_v4",
      params: [ANVIL_2, JSON.stringify({ ...TYPED, domain: { ...TYPED.domain, chainId: 1 } })],
    })) as Hex;
    expect(await verifyTypedData({ address: ANVIL_2, signature, ...TYPED })).toBe(true);
    expect(await recoverTypedDataAddress({ signature, ...TYPED })).toBe(getAddress(ANVIL_2));
  });

  it("with reject set, prompts answer 4001 'User rejected the request.' until it is cleared", async () => {
    const { provider, control } = wallet();
    control.reject = true;
    expect(await refusal(provider.request({ method: "eth_requestAccounts" }))).toEqual({
      code: 4001,
      message: "User rejected the request.",
    });
    // Reads are not prompts.
    expect(await provider.request({ method: "eth_chainId" })).toBe("0x1");
    control.reject = ["personal_sign"];
    await provider.request({ method: "eth_requestAccounts" });
    expect(
      (await refusal(provider.request({ method: "personal_sign", params: ["0x68", ANVIL_2] }))).code,
    ).toBe(4001);
    control.reject = false;
    expect(await provider.request({ method: "personal_sign", params: ["0x68", ANVIL_2] })).toMatch(
      /^0x[0-9a-f]{130}$/,
    );
    expect(control.requests).toContain("personal_sign");
  });

  it("refuses to sign before connecting or for another address (4100)", async () => {
    const { provider } = wallet();
    expect(
      (await refusal(provider.request({ method: "personal_sign", params: ["0x68", ANVIL_2] }))).code,
    ).toBe(4100);
    await provider.request({ method: "eth_requestAccounts" });
    const other = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    expect((await refusal(provider.request({ method: "personal_sign", params: ["0x68", other] }))).code).toBe(
      4100,
    );
  });

  it("switches to known chains, answers 4902 for unknown ones until added, and rejects bad hex", async () => {
    const { provider, control } = wallet();
    const changed = vi.fn();
    provider.on("chainChanged", changed);
    expect(await provider.request({ method: "eth_chainId" })).toBe("0x1");
    const somnia = { chainId: "0xc488" };
    expect(
      (await refusal(provider.request({ method: "wallet_switchEthereumChain", params: [somnia] }))).code,
    ).toBe(4902);
    await provider.request({
      method: "wallet_addEthereumChain",
      params: [{ ...somnia, chainName: "Somnia Testnet", rpcUrls: ["http://127.0.0.1:8545"] }],
    });
    expect(await provider.request({ method: "eth_chainId" })).toBe("0xc488");
    expect(control.chainId).toBe(50312);
    expect(changed).toHaveBeenCalledWith("0xc488");
    await provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId: "0x1" }] });
    expect(changed).toHaveBeenLastCalledWith("0x1");
    for (const chainId of ["0xzz", "12", "0x", 5])
      expect(
        (await refusal(provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId }] })))
          .code,
      ).toBe(-32602);
  });

  it("starts on a configured chain it knows; unknown methods answer 4200", async () => {
    const { provider } = wallet({ chainId: 50312 });
    expect(await provider.request({ method: "eth_chainId" })).toBe("0xc488");
    await provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId: "0xc488" }] });
    expect((await refusal(provider.request({ method: "eth_coinbaseDance" }))).code).toBe(4200);
  });
});
