/** Makes one JSON-RPC call (the wallet's EIP-1193 provider, or a plain fetch). */
export type RpcRequest = (method: string, params: unknown[]) => Promise<unknown>;

/** How often and how long to ask for a receipt; anvil mines at once, public testnets take seconds. */
const POLL_MS = 500;
const TIMEOUT_MS = 60_000;

/** Polls `eth_getTransactionReceipt` until the transaction is mined; returns its block number. */
export async function waitForReceipt(
  request: RpcRequest,
  hash: string,
  timeoutMs = TIMEOUT_MS,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const receipt = (await request("eth_getTransactionReceipt", [hash])) as {
      blockNumber?: string;
      status?: string;
    } | null;
    if (receipt?.blockNumber) {
      if (receipt.status === "0x0") throw new Error(`Transaction ${hash} failed`);
      return Number(BigInt(receipt.blockNumber));
    }
    if (Date.now() > deadline) throw new Error(`Transaction ${hash} was not confirmed in time`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
