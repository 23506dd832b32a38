import { hexToBigInt, numberToHex } from "viem";
import type { ChainConfig } from "../chain/ChainConfig.ts";
import { rpcRequest } from "../chain/rpcRequest.ts";
import type { Client } from "../client/createClient.ts";
import {
  expectAddress,
  expectData,
  expectQuantity,
  expectSmallQuantity,
  invalidParams,
  type Quantity,
} from "./validateParams.ts";

/** A transaction as callers give it (spec §3 "Transaction request"). */
export interface TransactionRequest {
  from?: string;
  to?: string | null;
  value?: Quantity;
  data?: string;
  nonce?: Quantity;
  chainId?: Quantity;
  /** 0 / "0x0" / "legacy" for a legacy transaction, 2 / "0x2" / "eip1559" for a fee-market one. */
  type?: Quantity | "legacy" | "eip1559";
  gas?: Quantity;
  gasLimit?: Quantity;
  gasPrice?: Quantity;
  maxFeePerGas?: Quantity;
  maxPriorityFeePerGas?: Quantity;
}

/** A transaction with every field the signer needs; amounts as bigint (shown to the user as is). */
export interface FilledTransaction {
  type: "eip1559" | "legacy";
  from: `0x${string}`;
  to?: `0x${string}`;
  value: bigint;
  data?: `0x${string}`;
  nonce: number;
  chainId: number;
  gas: bigint;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
}

/** Checks every field of `request` (invalid ones fail with -32602) and keeps the ones given. */
export function parseTransaction(request: unknown, from: `0x${string}`): Partial<FilledTransaction> {
  if (typeof request !== "object" || request === null) invalidParams(`"transaction" must be an object.`);
  const tx = request as TransactionRequest;
  if (tx.from !== undefined && expectAddress("from", tx.from).toLowerCase() !== from.toLowerCase()) {
    invalidParams(`"from" must be the wallet's address ${from}.`);
  }
  const parsed: Partial<FilledTransaction> = { from };
  if (tx.to !== undefined && tx.to !== null) parsed.to = expectAddress("to", tx.to);
  if (tx.value !== undefined) parsed.value = expectQuantity("value", tx.value);
  if (tx.data !== undefined) parsed.data = expectData("data", tx.data);
  if (tx.nonce !== undefined) parsed.nonce = expectSmallQuantity("nonce", tx.nonce);
  if (tx.chainId !== undefined) parsed.chainId = expectSmallQuantity("chainId", tx.chainId);
  const gas = tx.gas ?? tx.gasLimit;
  if (gas !== undefined) parsed.gas = expectQuantity(tx.gas === undefined ? "gasLimit" : "gas", gas);
  if (tx.gasPrice !== undefined) parsed.gasPrice = expectQuantity("gasPrice", tx.gasPrice);
  if (tx.maxFeePerGas !== undefined) parsed.maxFeePerGas = expectQuantity("maxFeePerGas", tx.maxFeePerGas);
  if (tx.maxPriorityFeePerGas !== undefined) {
    parsed.maxPriorityFeePerGas = expectQuantity("maxPriorityFeePerGas", tx.maxPriorityFeePerGas);
  }
  if (tx.type !== undefined) parsed.type = parseType(tx.type);
  return parsed;
}

function parseType(type: unknown): "eip1559" | "legacy" {
  if (type === "legacy" || type === "eip1559") return type;
  const n = expectQuantity("type", type);
  if (n === 0n) return "legacy";
  if (n === 2n) return "eip1559";
  return invalidParams(`"type" must be 0 (legacy) or 2 (EIP-1559).`);
}

/**
 * Fills what the caller left out from the chain (docs/wallet.md "Chain"): nonce from
 * `eth_getTransactionCount` (pending), gas from `eth_estimateGas`, fees as EIP-1559 (priority fee from
 * `eth_maxPriorityFeePerGas`, max fee = 2 × the latest base fee + priority fee), or a legacy
 * `eth_gasPrice` when the caller gave a gas price or the chain has no base fee.
 */
export async function fillTransaction(
  client: Client,
  chain: ChainConfig,
  tx: Partial<FilledTransaction> & { from: `0x${string}` },
): Promise<FilledTransaction> {
  const rpc = <T>(method: string, params: unknown[]) => rpcRequest<T>(client, chain, method, params);
  const call = {
    from: tx.from,
    ...(tx.to ? { to: tx.to } : {}),
    ...(tx.value !== undefined ? { value: numberToHex(tx.value) } : {}),
    ...(tx.data ? { data: tx.data } : {}),
  };
  const wantsLegacy =
    tx.type === "legacy" ||
    (tx.type === undefined && tx.gasPrice !== undefined && tx.maxFeePerGas === undefined);
  const needsBlock = !wantsLegacy && tx.maxFeePerGas === undefined;
  const [nonce, gas, block] = await Promise.all([
    tx.nonce ?? rpc<string>("eth_getTransactionCount", [tx.from, "pending"]).then((n) => Number(n)),
    tx.gas ?? rpc<`0x${string}`>("eth_estimateGas", [call]).then(hexToBigInt),
    needsBlock
      ? rpc<{ baseFeePerGas?: `0x${string}` | null }>("eth_getBlockByNumber", ["latest", false])
      : null,
  ]);
  const base = {
    from: tx.from,
    ...(tx.to ? { to: tx.to } : {}),
    value: tx.value ?? 0n,
    ...(tx.data ? { data: tx.data } : {}),
    nonce,
    chainId: chain.id,
    gas,
  };
  const baseFee = block?.baseFeePerGas ? hexToBigInt(block.baseFeePerGas) : null;
  if (wantsLegacy || (needsBlock && baseFee === null)) {
    const gasPrice = tx.gasPrice ?? hexToBigInt(await rpc<`0x${string}`>("eth_gasPrice", []));
    return { type: "legacy", ...base, gasPrice };
  }
  const maxPriorityFeePerGas =
    tx.maxPriorityFeePerGas ?? hexToBigInt(await rpc<`0x${string}`>("eth_maxPriorityFeePerGas", []));
  const maxFeePerGas = tx.maxFeePerGas ?? (baseFee ?? 0n) * 2n + maxPriorityFeePerGas;
  return { type: "eip1559", ...base, maxFeePerGas, maxPriorityFeePerGas };
}

/** The JSON-RPC form of a filled transaction (hex quantities), as the frame's `eth_signTransaction` takes it. */
export function toRpcTransaction(tx: FilledTransaction): Record<string, string> {
  const rpc: Record<string, string> = {
    type: tx.type === "legacy" ? "0x0" : "0x2",
    from: tx.from,
    value: numberToHex(tx.value),
    nonce: numberToHex(tx.nonce),
    chainId: numberToHex(tx.chainId),
    gas: numberToHex(tx.gas),
  };
  if (tx.to) rpc.to = tx.to;
  if (tx.data) rpc.data = tx.data;
  if (tx.gasPrice !== undefined) rpc.gasPrice = numberToHex(tx.gasPrice);
  if (tx.maxFeePerGas !== undefined) rpc.maxFeePerGas = numberToHex(tx.maxFeePerGas);
  if (tx.maxPriorityFeePerGas !== undefined) rpc.maxPriorityFeePerGas = numberToHex(tx.maxPriorityFeePerGas);
  return rpc;
}
