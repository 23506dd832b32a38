// Amounts in a chain's native currency, as the modal shows them (packages/react/src/modal/formatUnits.ts
// and roundUnits.ts, copied: this page does not load React).

/** `value` (integer base units) as an exact decimal string with `decimals` places, trailing zeros dropped. */
export function formatUnits(value: bigint, decimals: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/** `value` rounded half up to at most `significant` significant digits (whole units never cut). */
export function roundUnits(value: bigint, decimals: number, significant = 6): string {
  const exact = formatUnits(value, decimals);
  const negative = exact.startsWith("-");
  const [whole = "0", fraction = ""] = (negative ? exact.slice(1) : exact).split(".");
  const digits = `${whole}${fraction}`;
  const lead = digits.search(/[1-9]/);
  if (lead === -1) return exact;
  const keep = Math.max(lead + significant, whole.length);
  if (keep >= digits.length) return exact;
  let kept = BigInt(digits.slice(0, keep));
  if (Number(digits.charAt(keep)) >= 5) kept += 1n;
  return `${negative ? "-" : ""}${formatUnits(kept, keep - whole.length)}`;
}

/** Numeric transaction fields: bigint, integer numbers, hex or decimal text. */
export function toBigInt(value: unknown): bigint | undefined {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isInteger(value)) return BigInt(value);
  if (typeof value === "string" && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(value)) return BigInt(value);
  return undefined;
}
