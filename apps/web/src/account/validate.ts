import { formatEther, isAddress, parseEther } from "viem";

// What the account page's forms accept, and the words they answer with when they do not.

/** Spec §5 "Sign message: non-empty string". */
export const EMPTY_MESSAGE = "Message must be a non-empty string";
export const INVALID_RECIPIENT = "Enter a valid address (0x followed by 40 hex characters)";
export const BAD_CHECKSUM =
  "This address has a typo: its capital letters do not match its checksum. Copy it again from its source.";
export const AMOUNT_NOT_POSITIVE = "Enter an amount greater than 0";
export const AMOUNT_NOT_A_NUMBER = "Enter the amount as a number, such as 0.5 or 0,5";
export const AMOUNT_TOO_PRECISE = "Amount has more than 18 decimals";
export const AMOUNT_OVER_BALANCE = "Amount exceeds your balance";

/** STT, like ether, has 18 decimals (spec §9). */
const DECIMALS = 18;

/** What the form says for an empty message: the spec's rule (EMPTY_MESSAGE) in a person's words. */
export const EMPTY_MESSAGE_SHOWN = "Write a message to sign first.";

/**
 * The spec §5 rule for a message to sign (non-empty; the API throws EMPTY_MESSAGE), as the words the
 * form shows, or null when it may be signed.
 */
export function validateMessage(message: string): string | null {
  // Only spaces or line breaks: nothing a person could read in the confirmation.
  return message.trim() === "" ? EMPTY_MESSAGE_SHOWN : null;
}

/**
 * An Ethereum address is 0x and 40 hex characters (spec §5). All lower or all upper case is taken
 * as it is; mixed case must match its EIP-55 checksum (a mistyped letter shows up there).
 */
export function validateRecipient(text: string): string | null {
  const address = text.trim();
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return INVALID_RECIPIENT;
  // One-case addresses carry no checksum (EIP-55); mixed case gets viem's strict EIP-55 check.
  const hex = address.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return null;
  return isAddress(address, { strict: true }) ? null : BAD_CHECKSUM;
}

/** An amount the user typed: its value in wei, or why it cannot be sent. */
export type AmountCheck = { ok: true; wei: bigint } | { ok: false; error: string };

/**
 * Parses a positive decimal amount of STT (point or comma) with at most 18 decimals that does not exceed `balance`
 * (when the balance is known).
 */
export function parseAmount(text: string, balance: bigint | null): AmountCheck {
  // A decimal comma ("0,5") is a decimal point written the way half the world writes it.
  const amount = text.trim().replace(/^(\d*),(\d*)$/, "$1.$2");
  if (amount === "" || /^-/.test(amount)) return { ok: false, error: AMOUNT_NOT_POSITIVE };
  if (!/^(\d+\.?\d*|\.\d+)$/.test(amount)) return { ok: false, error: AMOUNT_NOT_A_NUMBER };
  const fraction = amount.split(".")[1] ?? "";
  if (fraction.length > DECIMALS) return { ok: false, error: AMOUNT_TOO_PRECISE };
  const wei = parseEther(amount);
  if (wei <= 0n) return { ok: false, error: AMOUNT_NOT_POSITIVE };
  if (balance !== null && wei > balance) return { ok: false, error: AMOUNT_OVER_BALANCE };
  return { ok: true, wei };
}

/** A balance in wei as STT with exactly 4 decimals, cut (never rounded up): "1.2345 STT". */
export function formatBalance(wei: bigint): string {
  const [whole, fraction = ""] = formatEther(wei).split(".");
  return `${whole}.${fraction.padEnd(4, "0").slice(0, 4)} STT`;
}
