import { startChain } from "@symbolon/stack";
import { parseEther, parseTransaction as parseRawTransaction, recoverTransactionAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendTransaction } from "./actions/sendTransaction.ts";
import type { ChainConfig } from "./chain/ChainConfig.ts";
import { getBalances } from "./chain/getBalances.ts";
import { useScriptedApp } from "./test/harness.ts";
import { signedInWalletClient } from "./test/walletHarness.ts";
import { setWalletConfirmation, type WalletConfirmationRequest } from "./wallet/confirmation.ts";
import { getEthereumProvider } from "./wallet/ethereumProvider.ts";

// Against a real anvil (tools/stack startChain: chain id 50312, Multicall3 at its canonical address). The
// wallet frame is the fake one, signing with viem's accounts; the real frame is covered by the e2e suite.
let chain: Awaited<ReturnType<typeof startChain>>;
let somnia: ChainConfig;
const scripted = useScriptedApp();

beforeAll(async () => {
  chain = await startChain({ quiet: true });
  somnia = {
    id: chain.chainId,
    name: "Somnia Testnet",
    rpcUrl: chain.rpcUrl,
    nativeCurrency: { name: "Somnia Testnet Token", symbol: "STT", decimals: 18 },
  };
}, 60_000);
afterAll(() => chain?.stop());

async function rpc<T>(method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(chain.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result as T;
}

/** Sends `ether` from anvil's funded dev account (anvil signs it) and waits until it is mined. */
async function fund(address: string, ether: string) {
  const hash = await rpc<string>("eth_sendTransaction", [
    { from: chain.funder.address, to: address, value: `0x${parseEther(ether).toString(16)}` },
  ]);
  await receipt(hash);
}

async function receipt(hash: string) {
  for (let i = 0; i < 200; i++) {
    const found = await rpc<{ status: string } | null>("eth_getTransactionReceipt", [hash]);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no receipt for ${hash}`);
}

/** A fetch that counts the JSON-RPC methods it sends. */
function countingFetch() {
  const methods: string[] = [];
  const counted: typeof fetch = async (input, init) => {
    if (String(input) === chain.rpcUrl)
      methods.push((JSON.parse(String(init?.body)) as { method: string }).method);
    return fetch(input, init);
  };
  return { methods, fetch: counted };
}

const RECIPIENT = "0x00000000000000000000000000000000000b0b00";

describe("against anvil", { timeout: 30_000 }, () => {
  it("fills, signs and sends a transaction: EIP-1559 fees, pending nonce, estimated gas", async () => {
    const counting = countingFetch();
    const { client, address } = await signedInWalletClient(scripted, {
      options: { chains: [somnia], fetch: counting.fetch },
    });
    await fund(address, "1");
    const asked: WalletConfirmationRequest[] = [];
    setWalletConfirmation(client, async (request) => {
      asked.push(request);
      return true;
    });
    const before = BigInt(await rpc<string>("eth_getBalance", [RECIPIENT, "latest"]));
    const { hash } = await sendTransaction(client, { to: RECIPIENT, value: parseEther("0.01") });
    expect((await receipt(hash)).status).toBe("0x1");
    expect(BigInt(await rpc<string>("eth_getBalance", [RECIPIENT, "latest"])) - before).toBe(
      parseEther("0.01"),
    );

    const sent = await rpc<Record<string, string>>("eth_getTransactionByHash", [hash]);
    const block = await rpc<{ baseFeePerGas: string }>("eth_getBlockByNumber", ["latest", false]);
    expect(sent).toMatchObject({ type: "0x2", nonce: "0x0", chainId: "0xc488", from: address.toLowerCase() });
    expect(BigInt(sent.gas ?? 0)).toBe(21_000n);
    const transaction = asked[0]?.transaction ?? {};
    expect(asked[0]).toMatchObject({ kind: "send-transaction", address, chain: { id: 50312 } });
    expect(transaction).toMatchObject({
      type: "eip1559",
      to: RECIPIENT,
      value: parseEther("0.01"),
      nonce: 0,
      gas: 21_000n,
    });
    const priority = transaction.maxPriorityFeePerGas as bigint;
    expect(typeof priority).toBe("bigint");
    // max fee = 2 × the base fee of the block it was filled from + the priority fee.
    expect((transaction.maxFeePerGas as bigint) - priority).toBeGreaterThanOrEqual(
      BigInt(block.baseFeePerGas),
    );
    expect(BigInt(sent.maxFeePerGas ?? 0)).toBe(transaction.maxFeePerGas);
    expect(counting.methods).toEqual(
      expect.arrayContaining([
        "eth_getTransactionCount",
        "eth_estimateGas",
        "eth_getBlockByNumber",
        "eth_maxPriorityFeePerGas",
        "eth_sendRawTransaction",
      ]),
    );

    // The next one takes the next nonce from the pending count, without waiting for anything.
    const second = await sendTransaction(client, { to: RECIPIENT, value: 1n });
    expect((await rpc<Record<string, string>>("eth_getTransactionByHash", [second.hash])).nonce).toBe("0x1");
  });

  it("sends a legacy transaction when the caller gives a gas price, and keeps the caller's gas", async () => {
    const { client, address } = await signedInWalletClient(scripted, { options: { chains: [somnia] } });
    await fund(address, "1");
    const gasPrice = BigInt(await rpc<string>("eth_gasPrice")) * 2n;
    const provider = getEthereumProvider(client, { address });
    const hash = (await provider.request({
      method: "eth_sendTransaction",
      params: [{ to: RECIPIENT, value: "0x1", gasPrice: `0x${gasPrice.toString(16)}`, gas: "0x7530" }],
    })) as string;
    expect((await receipt(hash)).status).toBe("0x1");
    const sent = await rpc<Record<string, string>>("eth_getTransactionByHash", [hash]);
    expect(sent).toMatchObject({ type: "0x0", gas: "0x7530" });
    expect(BigInt(sent.gasPrice ?? 0)).toBe(gasPrice);
  });

  it("eth_signTransaction gives a signed transaction of the wallet without sending it", async () => {
    const { client, address } = await signedInWalletClient(scripted, { options: { chains: [somnia] } });
    const provider = getEthereumProvider(client, { address });
    const raw = (await provider.request({
      method: "eth_signTransaction",
      params: [
        {
          to: RECIPIENT,
          value: "0x5",
          gas: "0x5208",
          maxFeePerGas: "0x3b9aca00",
          maxPriorityFeePerGas: "0x1",
        },
      ],
    })) as `0x${string}`;
    const parsed = parseRawTransaction(raw);
    expect(parsed).toMatchObject({ chainId: 50312, to: RECIPIENT, value: 5n, nonce: 0, type: "eip1559" });
    expect(await recoverTransactionAddress({ serializedTransaction: raw as never })).toBe(address);
    expect(await rpc<string>("eth_getTransactionCount", [address, "pending"])).toBe("0x0");
  });

  it("reads balances in one aggregate3 eth_call through Multicall3", async () => {
    const counting = countingFetch();
    const { client, address } = await signedInWalletClient(scripted, {
      options: { chains: [somnia], fetch: counting.fetch },
    });
    await fund(address, "0.25");
    const empty = "0x00000000000000000000000000000000000e0e00";
    const balances = await getBalances(client, [address, chain.funder.address, empty]);
    expect(balances[0]).toBe(parseEther("0.25"));
    expect(balances[1]).toBe(BigInt(await rpc<string>("eth_getBalance", [chain.funder.address, "latest"])));
    expect(balances[2]).toBe(0n);
    expect(counting.methods).toEqual(["eth_getCode", "eth_call"]);
    await getBalances(client, [address]);
    expect(counting.methods).toEqual(["eth_getCode", "eth_call", "eth_call"]);
    await expect(getBalances(client, ["0x1234"])).rejects.toMatchObject({
      code: "invalid_input",
      message: '"0x1234" is not an Ethereum address (0x and 40 hex characters).',
    });
    await expect(getBalances(client, [address], 1)).rejects.toMatchObject({
      code: "invalid_input",
      message:
        "Chain ID 1 is not supported. It must be added to the config.supportedChains property of the PrivyProvider.",
    });
  });

  // Last: it removes Multicall3 from the chain.
  it("falls back to eth_getBalance per address on a chain without Multicall3", async () => {
    const code = await rpc<string>("eth_getCode", [chain.multicall3, "latest"]);
    await rpc("anvil_setCode", [chain.multicall3, "0x"]);
    try {
      const counting = countingFetch();
      const { client } = await signedInWalletClient(scripted, {
        options: { chains: [somnia], fetch: counting.fetch },
      });
      const balances = await getBalances(client, [chain.funder.address, RECIPIENT]);
      expect(balances).toEqual([
        BigInt(await rpc<string>("eth_getBalance", [chain.funder.address, "latest"])),
        BigInt(await rpc<string>("eth_getBalance", [RECIPIENT, "latest"])),
      ]);
      expect(counting.methods).toEqual(["eth_getCode", "eth_getBalance", "eth_getBalance"]);
    } finally {
      await rpc("anvil_setCode", [chain.multicall3, code]);
    }
  });
});
