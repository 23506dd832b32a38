import { PASSCODE_LENGTH } from "../generated/protocol.ts";

/** What {@link validatePasscode} found. */
export interface PasscodeValidation {
  /** The digits entered (whitespace and other characters dropped), at most PASSCODE_LENGTH of them. */
  digits: string;
  /** The spec §5 message, or null when the input is fine so far. */
  error: string | null;
}

/**
 * Spec §5 passcode rules: whitespace is stripped (pasted codes), only digits are allowed,
 * and no more than 6 of them. A shorter input is not an error: the user is still typing.
 */
export function validatePasscode(input: string): PasscodeValidation {
  const stripped = input.replace(/\s+/g, "");
  const digits = stripped.replace(/\D/g, "").slice(0, PASSCODE_LENGTH);
  if (/\D/.test(stripped)) return { digits, error: "Passcode can only be numbers" };
  if (stripped.length > PASSCODE_LENGTH) return { digits, error: "Passcode must be exactly 6 numbers" };
  return { digits, error: null };
}
