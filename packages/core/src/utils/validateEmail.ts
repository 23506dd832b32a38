/** Options of {@link validateEmail}. */
export interface ValidateEmailOptions {
  /** The app refuses addresses with '+' in the local part (app config `disable_plus_emails`). */
  disablePlusEmails?: boolean;
}

// One '@', a non-empty local part, a domain with a dot, no whitespace anywhere.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** Spec §5: null when `email` is acceptable, else the message to show. Surrounding spaces are ignored. */
export function validateEmail(email: string, options: ValidateEmailOptions = {}): string | null {
  const trimmed = email.trim();
  if (!EMAIL.test(trimmed)) return "Please enter a valid email address.";
  const local = trimmed.slice(0, trimmed.lastIndexOf("@"));
  if (options.disablePlusEmails && local.includes("+")) {
    return "Please enter a valid email address without a '+'.";
  }
  return null;
}
