import type { RpcRequest } from "./waitForReceipt";

/** Gas of a plain transfer to an address without code. */
const TRANSFER_GAS = 21_000n;

/**
 * The most `address` can send in one plain transfer: its balance less the highest fee the wallet
 * will allow for it — the same rule as the wallet's own fill (max fee per gas = 2 × the latest base
 * fee + the priority fee; the gas price on a chain without base fee). Null when the chain does not
 * answer; never below 0.
 */
export async function maxSendable(request: RpcRequest, address: string): Promise<bigint | null> {
  try {
    const [balance, block] = await Promise.all([
      request("eth_getBalance", [address, "latest"]),
      request("eth_getBlockByNumber", ["latest", false]) as Promise<{ baseFeePerGas?: string | null } | null>,
    ]);
    const baseFee = block?.baseFeePerGas ? BigInt(block.baseFeePerGas) : null;
    const feePerGas =
      baseFee === null
        ? BigInt(String(await request("eth_gasPrice", [])))
        : baseFee * 2n + BigInt(String(await request("eth_maxPriorityFeePerGas", [])));
    const max = BigInt(String(balance)) - TRANSFER_GAS * feePerGas;
    return max > 0n ? max : 0n;
  } catch {
    return null;
  }
}
