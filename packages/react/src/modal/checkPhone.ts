import { parsePhone } from "@symbolon/core";

/**
 * The number as E.164 (`+12015550123`) when `national` is a valid number of `country` (spec §5:
 * phone submit is enabled only for a valid, qualified number); null otherwise. Core's `parsePhone`
 * loads libphonenumber-js on first use, so it is not in any bundle until a phone screen asks.
 */
export async function checkPhone(national: string, country: string): Promise<string | null> {
  const parsed = await parsePhone(national, country);
  return parsed.ok ? parsed.e164 : null;
}
