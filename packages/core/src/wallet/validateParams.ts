import { isAddress, isHex } from "viem";
import { ProviderRpcError, RPC_ERROR } from "./ProviderRpcError.ts";

// Spec §5: wallet requests reject invalid hex and non-integers with invalid-params errors (-32602),
// each message naming the parameter.

/** A quantity as callers give it: a bigint, a safe integer, or a 0x hex string. */
export type Quantity = bigint | number | string;

/** Throws -32602 `Invalid params: …`. */
export function invalidParams(message: string): never {
  throw new ProviderRpcError(RPC_ERROR.invalidParams, `Invalid params: ${message}`);
}

/** `value` as a 0x address (any case), else -32602. */
export function expectAddress(name: string, value: unknown): `0x${string}` {
  if (typeof value !== "string" || !isAddress(value, { strict: false })) {
    invalidParams(`"${name}" must be an address: 0x and 40 hex characters.`);
  }
  // EIP-55: a mixed-case address carries a checksum, and a wrong one means a mistyped address.
  const hex = value.slice(2);
  if (hex !== hex.toLowerCase() && hex !== hex.toUpperCase() && !isAddress(value, { strict: true })) {
    invalidParams(
      `"${name}" has a wrong EIP-55 checksum: its letter case does not match. Check the address.`,
    );
  }
  return value;
}

/** `value` as 0x hex of even length (calldata, a message), else -32602. */
export function expectData(name: string, value: unknown): `0x${string}` {
  if (typeof value !== "string" || !isHex(value, { strict: true }) || value.length % 2 !== 0) {
    invalidParams(`"${name}" must be 0x-prefixed hex of even length.`);
  }
  return value;
}

/** `value` as a non-negative integer (bigint), else -32602. */
export function expectQuantity(name: string, value: unknown): bigint {
  if (typeof value === "bigint") {
    if (value < 0n) invalidParams(`"${name}" must be a non-negative integer.`);
    return value;
  }
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value) || value < 0) invalidParams(`"${name}" must be a non-negative integer.`);
    return BigInt(value);
  }
  if (typeof value === "string" && /^0x[0-9a-fA-F]+$/.test(value)) return BigInt(value);
  return invalidParams(`"${name}" must be a 0x-prefixed hex quantity.`);
}

/** Like {@link expectQuantity} for fields that must fit a JS number (nonce, chain id). */
export function expectSmallQuantity(name: string, value: unknown): number {
  const quantity = expectQuantity(name, value);
  if (quantity > BigInt(Number.MAX_SAFE_INTEGER)) invalidParams(`"${name}" is too large.`);
  return Number(quantity);
}

/** The params of a request as a list (EIP-1193 allows an object or nothing). */
export function paramList(params: unknown): readonly unknown[] {
  if (params === undefined) return [];
  return Array.isArray(params) ? params : [params];
}
