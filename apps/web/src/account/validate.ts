import { formatEther, parseEther } from "viem";

// What the account page's forms accept, and the words they answer with when they do not.

/** Spec §5 "Sign message: non-empty string". */
export const EMPTY_MESSAGE = "Message must be a non-empty string";
export const INVALID_RECIPIENT = "Enter a valid address (0x followed by 40 hex characters)";
export const AMOUNT_NOT_POSITIVE = "Enter an amount greater than 0";
export const AMOUNT_TOO_PRECISE = "Amount has more than 18 decimals";
export const AMOUNT_OVER_BALANCE = "Amount exceeds your balance";

/** STT, like ether, has 18 decimals (spec §9). */
const DECIMALS = 18;

/** The spec §5 rule for a message to sign, or null when it may be signed. */
export function validateMessage(message: string): string | null {
  return message === "" ? EMPTY_MESSAGE : null;
}

/** An Ethereum address is 0x and 40 hex characters (spec §5); any letter case is accepted. */
export function validateRecipient(text: string): string | null {
  return /^0x[0-9a-fA-F]{40}$/.test(text.trim()) ? null : INVALID_RECIPIENT;
}

/** An amount the user typed: its value in wei, or why it cannot be sent. */
export type AmountCheck = { ok: true; wei: bigint } | { ok: false; error: string };

/**
 * Parses a positive decimal amount of STT with at most 18 decimals that does not exceed `balance`
 * (when the balance is known).
 */
export function parseAmount(text: string, balance: bigint | null): AmountCheck {
  const amount = text.trim();
  if (!/^(\d+\.?\d*|\.\d+)$/.test(amount)) return { ok: false, error: AMOUNT_NOT_POSITIVE };
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
