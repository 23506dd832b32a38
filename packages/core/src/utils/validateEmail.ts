/** Options of {@link validateEmail}. */
export interface ValidateEmailOptions {
  /** The app refuses addresses with '+' in the local part (app config `disable_plus_emails`). */
  disablePlusEmails?: boolean;
}

/** Spec §5: the message for a '+' address when the app refuses them. */
export const PLUS_EMAIL_MESSAGE = "Please enter a valid email address without a '+'.";

// One '@', a non-empty local part, a domain with a dot, no whitespace anywhere.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** Spec §5: null when `email` is acceptable, else the message to show. Surrounding spaces are ignored. */
export function validateEmail(email: string, options: ValidateEmailOptions = {}): string | null {
  const trimmed = email.trim();
  if (!EMAIL.test(trimmed)) return "Please enter a valid email address.";
  const local = trimmed.slice(0, trimmed.lastIndexOf("@"));
  if (options.disablePlusEmails && local.includes("+")) {
    return PLUS_EMAIL_MESSAGE;
  }
  return null;
}
