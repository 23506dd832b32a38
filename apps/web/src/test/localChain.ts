import { startChain } from "@symbolon/stack";
import { afterAll, beforeAll } from "vitest";
import { jsonRpc } from "../account/jsonRpc";

type Chain = Awaited<ReturnType<typeof startChain>>;

/** A real local chain (anvil via @symbolon/stack) for the tests of one file. */
export interface LocalChain {
  readonly rpcUrl: string;
  readonly funder: Chain["funder"];
  /** One JSON-RPC call to the chain. */
  request(method: string, params: unknown[]): Promise<unknown>;
  /** The balance of `address` in wei. */
  balanceOf(address: string): Promise<bigint>;
}

/** Starts anvil before the file's tests and stops it after them. */
export function localChainForFile(): LocalChain {
  let chain: Chain | undefined;
  beforeAll(async () => {
    chain = await startChain();
  }, 30_000);
  afterAll(() => chain?.stop());
  const started = () => {
    if (!chain) throw new Error("the local chain has not started");
    return chain;
  };
  const request = (method: string, params: unknown[]) => jsonRpc(started().rpcUrl, method, params);
  return {
    get rpcUrl() {
      return started().rpcUrl;
    },
    get funder() {
      return started().funder;
    },
    request,
    balanceOf: async (address) => BigInt(String(await request("eth_getBalance", [address, "latest"]))),
  };
}
