import { decodeFunctionResult, encodeFunctionData, isAddress, multicall3Abi } from "viem";
import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import type { ChainConfig } from "./ChainConfig.ts";
import { requireChain } from "./requireChain.ts";
import { rpcRequest } from "./rpcRequest.ts";

/** Multicall3's canonical address (the same on every chain that has it). */
export const MULTICALL3_ADDRESS = "0xcA11bde05977b3631167028862bE2a173976CA11" as const;

/** Chains (per client) known to have or lack Multicall3, so the check runs once. */
const hasMulticall = new WeakMap<Client, Map<number, boolean>>();

/**
 * The native balances of `addresses` on `chainId` (default: the active chain), in wei, in order.
 * One `eth_call` to Multicall3's `aggregate3` of `getEthBalance`; `eth_getBalance` per address on a
 * chain without Multicall3.
 */
export async function getBalances(
  client: Client,
  addresses: readonly string[],
  chainId?: number,
): Promise<bigint[]> {
  const chain = requireChain(client, chainId);
  for (const address of addresses) {
    if (!isAddress(address, { strict: false })) {
      throw new ClientError(
        "invalid_input",
        `"${address}" is not an Ethereum address (0x and 40 hex characters).`,
      );
    }
  }
  if (addresses.length === 0) return [];
  if (!(await multicallDeployed(client, chain))) {
    return Promise.all(
      addresses.map(async (address) =>
        BigInt(await rpcRequest<string>(client, chain, "eth_getBalance", [address, "latest"])),
      ),
    );
  }
  const data = encodeFunctionData({
    abi: multicall3Abi,
    functionName: "aggregate3",
    args: [
      addresses.map((address) => ({
        target: MULTICALL3_ADDRESS,
        allowFailure: false,
        callData: encodeFunctionData({
          abi: multicall3Abi,
          functionName: "getEthBalance",
          args: [address as `0x${string}`],
        }),
      })),
    ],
  });
  const result = await rpcRequest<`0x${string}`>(client, chain, "eth_call", [
    { to: MULTICALL3_ADDRESS, data },
    "latest",
  ]);
  const results = decodeFunctionResult({ abi: multicall3Abi, functionName: "aggregate3", data: result });
  return results.map(({ returnData }) =>
    decodeFunctionResult({ abi: multicall3Abi, functionName: "getEthBalance", data: returnData }),
  );
}

async function multicallDeployed(client: Client, chain: ChainConfig): Promise<boolean> {
  let known = hasMulticall.get(client);
  if (known === undefined) {
    known = new Map();
    hasMulticall.set(client, known);
  }
  const cached = known.get(chain.id);
  if (cached !== undefined) return cached;
  const code = await rpcRequest<string>(client, chain, "eth_getCode", [MULTICALL3_ADDRESS, "latest"]);
  const deployed = code !== "0x" && code !== "0x0" && code !== "";
  known.set(chain.id, deployed);
  return deployed;
}
