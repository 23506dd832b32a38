import { formatUnits } from "./formatUnits.ts";

/**
 * `value` (integer base units) as a decimal string a person reads at a glance: at most `significant`
 * significant digits, rounded half up, trailing zeros dropped ("0.999958" for 0.999957999999).
 * Whole units are never cut: 123456789.5 shows as "123456790". Show the exact value beside it
 * (a title, or the details) when it matters.
 */
export function roundUnits(value: bigint, decimals: number, significant = 6): string {
  const exact = formatUnits(value, decimals);
  const negative = exact.startsWith("-");
  const [whole = "0", fraction = ""] = (negative ? exact.slice(1) : exact).split(".");
  const digits = `${whole}${fraction}`;
  const lead = digits.search(/[1-9]/);
  if (lead === -1) return exact;
  // Keep `significant` digits from the first non-zero one, but never fewer than the whole part.
  const keep = Math.max(lead + significant, whole.length);
  if (keep >= digits.length) return exact;
  let kept = BigInt(digits.slice(0, keep));
  if (Number(digits.charAt(keep)) >= 5) kept += 1n;
  const places = keep - whole.length;
  const rounded = formatUnits(kept, places);
  return `${negative ? "-" : ""}${rounded}`;
}
