import { parsePhoneNumberFromString } from "libphonenumber-js/min";

/**
 * A phone number as people write it ("+12016591679" → "+1 201 659 1679"), by libphonenumber-js; a
 * number it cannot read is shown as stored.
 */
export function formatPhone(number: string): string {
  return parsePhoneNumberFromString(number)?.formatInternational() ?? number;
}
