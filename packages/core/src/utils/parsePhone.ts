/** What {@link parsePhone} found: the number in E.164, or the reason it is not valid. */
export type ParsedPhone = { ok: true; e164: string } | { ok: false; message: string };

/** The message for a number that is not a valid, qualified phone number (spec §5). */
export const INVALID_PHONE_MESSAGE = "Please enter a valid phone number.";

/**
 * Validates a phone number with libphonenumber-js and gives it in E.164 (spec §5: submit only when
 * the number is valid and qualified). `defaultCountry` (ISO 3166 alpha-2, e.g. "US") qualifies a
 * national number; without it the number must start with `+`. libphonenumber-js is loaded here by
 * a dynamic import, so it stays out of the initial bundle.
 */
export async function parsePhone(input: string, defaultCountry?: string): Promise<ParsedPhone> {
  const text = input.trim();
  if (text === "") return { ok: false, message: INVALID_PHONE_MESSAGE };
  const { parsePhoneNumberFromString } = await import("libphonenumber-js/min");
  const parsed = parsePhoneNumberFromString(
    text,
    defaultCountry === undefined ? undefined : (defaultCountry.toUpperCase() as never),
  );
  if (!parsed?.isValid()) return { ok: false, message: INVALID_PHONE_MESSAGE };
  return { ok: true, e164: parsed.number };
}
