// Transaction amounts as the modal reads them (formatting and rounding: core's formatUnits and roundUnits).

/** Numeric transaction fields: bigint, integer numbers, hex or decimal text. */
export function toBigInt(value: unknown): bigint | undefined {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isInteger(value)) return BigInt(value);
  if (typeof value === "string" && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(value)) return BigInt(value);
  return undefined;
}
