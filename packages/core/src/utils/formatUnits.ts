/**
 * `value` (integer base units) as a decimal string with `decimals` places, trailing zeros dropped
 * — the output of viem's `formatUnits`, without pulling viem into the modal or a page that loads no viem.
 */
export function formatUnits(value: bigint, decimals: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}
