import { hashTypedData, recoverAddress, recoverMessageAddress } from "viem";
import { afterEach, describe, expect, it, vi } from "vitest";
import { signMessage } from "../actions/signMessage.ts";
import { signTypedData } from "../actions/signTypedData.ts";
import type { ChainConfig } from "../chain/ChainConfig.ts";
import { useScriptedApp } from "../test/harness.ts";
import { signedInWalletClient } from "../test/walletHarness.ts";
import { setWalletConfirmation, type WalletConfirmationRequest } from "./confirmation.ts";
import { getEthereumProvider } from "./ethereumProvider.ts";

const scripted = useScriptedApp();

afterEach(() => {
  vi.unstubAllGlobals();
});

const somnia = (rpcUrl: string): ChainConfig => ({
  id: 50312,
  name: "Somnia Testnet",
  rpcUrl,
  nativeCurrency: { name: "Somnia Testnet Token", symbol: "STT", decimals: 18 },
});
const other = (rpcUrl: string): ChainConfig => ({
  id: 31337,
  name: "Local",
  rpcUrl,
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
});

async function setup(extra: Parameters<typeof signedInWalletClient>[1] = {}) {
  const rpcUrl = `${scripted.server.url}/rpc`;
  const wallet = await signedInWalletClient(scripted, {
    ...extra,
    options: { chains: [somnia(rpcUrl), other(rpcUrl)], ...extra.options },
  });
  const provider = getEthereumProvider(wallet.client, { address: wallet.address });
  return { ...wallet, provider };
}

const TYPED_DATA = {
  domain: { name: "Symbolon", version: "1", chainId: 50312 },
  types: { Greeting: [{ name: "text", type: "string" }] },
  primaryType: "Greeting",
  message: { text: "hello" },
} as const;

describe("EIP-1193 provider: accounts and chains", () => {
  it("answers the account and the active chain, and switches only to configured chains", async () => {
    const { provider, address } = await setup();
    expect(await provider.request({ method: "eth_requestAccounts" })).toEqual([address]);
    expect(await provider.request({ method: "eth_accounts" })).toEqual([address]);
    expect(await provider.request({ method: "eth_chainId" })).toBe("0xc488");
    const changes: string[] = [];
    const onChain = (id: string) => changes.push(id);
    provider.on("chainChanged", onChain as (value: never) => void);
    await provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId: "0x7a69" }] });
    expect(await provider.request({ method: "eth_chainId" })).toBe("0x7a69");
    expect(changes).toEqual(["0x7a69"]);
    const error = await provider
      .request({ method: "wallet_switchEthereumChain", params: [{ chainId: "0x1" }] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 4902,
      message:
        "Chain ID 1 is not supported. It must be added to the config.supportedChains property of the PrivyProvider.",
    });
    provider.removeListener("chainChanged", onChain as (value: never) => void);
  });

  it("says accountsChanged [] when the user logs out", async () => {
    const { provider, client } = await setup();
    const seen: unknown[] = [];
    provider.on("accountsChanged", ((accounts: unknown) => seen.push(accounts)) as (value: never) => void);
    const { logout } = await import("../actions/logout.ts");
    await logout(client);
    expect(seen).toEqual([[]]);
  });

  it("forwards read-only calls to the chain's RPC and passes its JSON-RPC errors through", async () => {
    scripted.server.on("POST /rpc", (hit) => {
      const { id, method } = hit.body as { id: number; method: string };
      if (method === "eth_blockNumber") return { json: { jsonrpc: "2.0", id, result: "0x2a" } };
      return {
        json: { jsonrpc: "2.0", id, error: { code: 3, message: "execution reverted", data: "0x08c379a0" } },
      };
    });
    const { provider } = await setup();
    expect(await provider.request({ method: "eth_blockNumber" })).toBe("0x2a");
    await expect(
      provider.request({ method: "eth_call", params: [{ to: "0x0" }, "latest"] }),
    ).rejects.toMatchObject({
      code: 3,
      message: "execution reverted",
      data: "0x08c379a0",
    });
    expect(scripted.server.hitsOf("POST /rpc").map((h) => (h.body as { method: string }).method)).toEqual([
      "eth_blockNumber",
      "eth_call",
    ]);
  });

  it("says when the RPC answers without a result", async () => {
    scripted.server.on("POST /rpc", (hit) => ({
      json: { jsonrpc: "2.0", id: (hit.body as { id: number }).id },
    }));
    const { provider } = await setup();
    await expect(provider.request({ method: "eth_blockNumber" })).rejects.toMatchObject({
      code: -32603,
      message: `The RPC of Somnia Testnet (${scripted.server.url}/rpc) answered HTTP 200 without a result.`,
    });
  });

  it("says which RPC failed when it cannot be reached or answers no JSON", async () => {
    scripted.server.on("POST /rpc", () => ({ status: 502, text: "Bad gateway" }));
    const { provider } = await setup();
    await expect(provider.request({ method: "eth_blockNumber" })).rejects.toMatchObject({
      code: -32603,
      message: `The RPC of Somnia Testnet (${scripted.server.url}/rpc) answered HTTP 502 with a body that is not JSON.`,
    });
    const down = await signedInWalletClient(scripted, {
      options: { chains: [somnia("http://127.0.0.1:1/")] },
    });
    const unreachable = getEthereumProvider(down.client, { address: down.address });
    await expect(unreachable.request({ method: "eth_blockNumber" })).rejects.toMatchObject({
      code: -32603,
      message: "The RPC of Somnia Testnet (http://127.0.0.1:1/) could not be reached.",
    });
  });

  it("refuses methods it does not support with 4200", async () => {
    const { provider } = await setup();
    await expect(provider.request({ method: "eth_sign", params: [] })).rejects.toMatchObject({
      code: 4200,
      message: 'The method "eth_sign" is not supported by the embedded wallet.',
    });
  });
});

describe("EIP-1193 provider: validation (-32602)", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    [
      "a short address",
      { to: "0x1234" },
      'Invalid params: "to" must be an address: 0x and 40 hex characters.',
    ],
    [
      "a non-hex address",
      { to: `0x${"zz".repeat(20)}` },
      'Invalid params: "to" must be an address: 0x and 40 hex characters.',
    ],
    [
      "a mixed-case address with a wrong EIP-55 checksum",
      { to: "0x70997970c51812dc3A010C7d01b50e0d17dc79C8" },
      'Invalid params: "to" has a wrong EIP-55 checksum: its letter case does not match. Check the address.',
    ],
    ["odd-length data", { data: "0xabc" }, 'Invalid params: "data" must be 0x-prefixed hex of even length.'],
    ["data without 0x", { data: "abcd" }, 'Invalid params: "data" must be 0x-prefixed hex of even length.'],
    ["a fractional value", { value: 1.5 }, 'Invalid params: "value" must be a non-negative integer.'],
    ["a negative value", { value: -1n }, 'Invalid params: "value" must be a non-negative integer.'],
    [
      "a decimal string value",
      { value: "100" },
      'Invalid params: "value" must be a 0x-prefixed hex quantity.',
    ],
    ["an invalid hex gas", { gas: "0xzz" }, 'Invalid params: "gas" must be a 0x-prefixed hex quantity.'],
    ["a NaN nonce", { nonce: Number.NaN }, 'Invalid params: "nonce" must be a non-negative integer.'],
    [
      "another sender",
      { from: "0x000000000000000000000000000000000000dEaD" },
      'Invalid params: "from" must be the wallet\'s address',
    ],
    ["an unknown type", { type: "0x3" }, 'Invalid params: "type" must be 0 (legacy) or 2 (EIP-1559).'],
    ["a nonce beyond 2^53", { nonce: "0xffffffffffffffffff" }, 'Invalid params: "nonce" is too large.'],
  ];
  for (const [what, tx, message] of cases) {
    it(`rejects ${what}`, async () => {
      const { provider, frame } = await setup();
      const error = await provider
        .request({
          method: "eth_sendTransaction",
          params: [{ to: "0x000000000000000000000000000000000000dEaD", ...tx }],
        })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: -32602 });
      expect((error as Error).message.startsWith(message)).toBe(true);
      expect(frame.events()).not.toContain("privy:wallets:rpc");
    });
  }

  it("rejects a transaction that is not an object", async () => {
    const { provider } = await setup();
    await expect(provider.request({ method: "eth_sendTransaction", params: ["0x00"] })).rejects.toMatchObject(
      {
        code: -32602,
        message: 'Invalid params: "transaction" must be an object.',
      },
    );
  });

  it("rejects a chain id that is not a configured chain with the 4902 message", async () => {
    const { provider } = await setup();
    await expect(
      provider.request({
        method: "eth_sendTransaction",
        params: [{ to: "0x000000000000000000000000000000000000dEaD", chainId: 5 }],
      }),
    ).rejects.toMatchObject({ code: 4902, message: expect.stringContaining("Chain ID 5 is not supported.") });
  });

  it("rejects a bad switch parameter, a non-string message and typed data with NaN or Infinity", async () => {
    const { provider, address } = await setup();
    await expect(
      provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId: 1.5 }] }),
    ).rejects.toMatchObject({
      code: -32602,
      message: 'Invalid params: "chainId" must be a non-negative integer.',
    });
    await expect(provider.request({ method: "personal_sign", params: [42, address] })).rejects.toMatchObject({
      code: -32602,
      message: 'Invalid params: "message" must be a string.',
    });
    await expect(
      provider.request({ method: "personal_sign", params: ["0x68", "0x12"] }),
    ).rejects.toMatchObject({
      code: -32602,
      message: 'Invalid params: "address" must be an address: 0x and 40 hex characters.',
    });
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(
        provider.request({
          method: "eth_signTypedData_v4",
          params: [
            address,
            { ...TYPED_DATA, types: { Greeting: [{ name: "n", type: "uint256" }] }, message: { n: bad } },
          ],
        }),
      ).rejects.toMatchObject({
        code: -32602,
        message: 'Invalid params: "typedData" must not contain NaN or Infinity.',
      });
    }
    await expect(
      provider.request({ method: "eth_signTypedData_v4", params: [address, "{not json"] }),
    ).rejects.toMatchObject({
      code: -32602,
      message:
        'Invalid params: "typedData" must be an EIP-712 object with types, primaryType, domain and message.',
    });
  });
});

describe("signing", () => {
  it("signs a message in the frame after the wallet was unlocked, with a signature of the wallet", async () => {
    const { client, address, frame } = await setup();
    const { signature } = await signMessage(client, { message: "Hello Symbolon" });
    expect(
      await recoverMessageAddress({ message: "Hello Symbolon", signature: signature as `0x${string}` }),
    ).toBe(address);
    expect(frame.events()).toEqual(["privy:wallets:connect", "privy:wallets:rpc"]);
    const rpc = frame.received.find((r) => r.event === "privy:wallets:rpc")?.data as Record<string, unknown>;
    expect(rpc).toMatchObject({
      entropyId: address,
      entropyIdVerifier: "ethereum-address-verifier",
      hdWalletIndex: 0,
      chainType: "ethereum",
      request: { method: "personal_sign" },
    });
    expect(typeof rpc.accessToken).toBe("string");
  });

  it("signs typed data", async () => {
    const { client, address } = await setup();
    const { signature } = await signTypedData(client, TYPED_DATA);
    const hash = hashTypedData(TYPED_DATA);
    expect(await recoverAddress({ hash, signature: signature as `0x${string}` })).toBe(address);
  });

  it("needs an embedded wallet when no address is given", async () => {
    const { client } = await setup({ withWallet: false });
    await expect(signMessage(client, { message: "hi" })).rejects.toMatchObject({
      code: "embedded_wallet_request_error",
      message: "The user has no embedded wallet. Create one with createWallet() first.",
    });
  });

  it("refuses an empty or non-string message", async () => {
    const { client } = await setup();
    for (const message of ["", 7 as unknown as string]) {
      await expect(signMessage(client, { message })).rejects.toMatchObject({
        code: "invalid_input",
        message: "Message must be a non-empty string",
      });
    }
  });

  it("asks the confirmation handler first; a refusal is 4001 and nothing is signed", async () => {
    const { client, address, frame } = await setup();
    const asked: WalletConfirmationRequest[] = [];
    setWalletConfirmation(client, async (request) => {
      asked.push(request);
      return false;
    });
    const error = await signMessage(
      client,
      { message: "gm" },
      { uiOptions: { title: "Sign in", buttonText: "Sign" } },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 4001, message: "User rejected the request." });
    expect(asked).toEqual([
      {
        kind: "sign-message",
        address,
        chain: expect.objectContaining({ id: 50312, name: "Somnia Testnet" }),
        message: "gm",
        uiOptions: { title: "Sign in", buttonText: "Sign" },
      },
    ]);
    expect(frame.events()).not.toContain("privy:wallets:rpc");
  });

  it("skips the confirmation when wallet UIs are off for the call or for the app", async () => {
    const first = await setup();
    const handler = vi.fn(async () => false);
    setWalletConfirmation(first.client, handler);
    await signMessage(first.client, { message: "gm" }, { uiOptions: { showWalletUIs: false } });
    expect(handler).not.toHaveBeenCalled();
    const headless = await setup({ options: { embeddedWallets: { showWalletUIs: false } } });
    setWalletConfirmation(headless.client, handler);
    await signMessage(headless.client, { message: "gm" });
    expect(handler).not.toHaveBeenCalled();
    setWalletConfirmation(headless.client, null);
  });

  it("needs a signed-in user: 'Missing access token'", async () => {
    const { provider, client, address } = await setup({ signedIn: false });
    await expect(
      provider.request({ method: "personal_sign", params: ["0x68", address] }),
    ).rejects.toMatchObject({
      code: "attempted_rpc_call_before_logged_in",
      message: "Missing access token",
    });
    await expect(signMessage(client, { message: "hi" })).rejects.toMatchObject({
      message: "Missing access token",
    });
  });

  it("refuses an address that is not one of the user's embedded wallets with 4100", async () => {
    const { client } = await setup();
    const stranger = getEthereumProvider(client, { address: "0x000000000000000000000000000000000000dEaD" });
    await expect(
      stranger.request({
        method: "personal_sign",
        params: ["0x68", "0x000000000000000000000000000000000000dEaD"],
      }),
    ).rejects.toMatchObject({
      code: 4100,
      message: "0x000000000000000000000000000000000000dEaD is not an embedded wallet of the signed-in user.",
    });
  });

  it("works only over HTTPS away from localhost", async () => {
    const { provider, client } = await setup();
    vi.stubGlobal("window", { location: { protocol: "http:", hostname: "shop.example" } });
    await expect(provider.request({ method: "eth_accounts" })).rejects.toMatchObject({
      code: "embedded_wallet_request_error",
      message: "Embedded wallet is only available over HTTPS",
    });
    await expect(signMessage(client, { message: "hi" })).rejects.toThrow(
      "Embedded wallet is only available over HTTPS",
    );
    vi.stubGlobal("window", { location: { protocol: "http:", hostname: "localhost" } });
    await expect(provider.request({ method: "eth_accounts" })).resolves.toHaveLength(1);
    vi.stubGlobal("window", { location: { protocol: "https:", hostname: "shop.example" } });
    await expect(provider.request({ method: "eth_accounts" })).resolves.toHaveLength(1);
  });
});
