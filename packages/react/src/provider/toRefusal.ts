/** The server refusals of a login or link that have a screen of their own (spec §2, §8). */
export type RefusalCode =
  | "allowlist_rejected"
  | "max_accounts_reached"
  | "user_does_not_exist"
  | "signup_disabled"
  | "linked_to_another_user"
  | "account_transfer_required";

/** What `account_transfer_required` carries: the proof to move the account, and what it is. */
export interface TransferOffer {
  /** Single-use proof that the caller just verified the account. */
  nonce: string;
  /** `email` or `phone`. */
  accountType: string;
  /** The account as shown to the user (the address or number). */
  displayName: string;
  /** The current owner's embedded wallet, which stays with them. */
  embeddedWalletAddress: string | null;
}

/** A refused login or link, as its screen shows it. */
export interface Refusal {
  code: RefusalCode;
  /** The server's sentence, when it sent one. */
  message: string | null;
  /** `account_transfer_required` only. */
  transfer: TransferOffer | null;
}

const CODES: ReadonlySet<string> = new Set<RefusalCode>([
  "allowlist_rejected",
  "max_accounts_reached",
  "user_does_not_exist",
  "signup_disabled",
  "linked_to_another_user",
  "account_transfer_required",
]);

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

/** Reads the transfer data from the error (`data` or `transferData`, server or client field names). */
function transferOf(error: Record<string, unknown>): TransferOffer | null {
  const raw = (error.transferData ?? error.data) as Record<string, unknown> | null | undefined;
  if (!raw || typeof raw !== "object") return null;
  const nonce = text(raw.nonce);
  if (nonce === null) return null;
  return {
    nonce,
    accountType: text(raw.account_type) ?? text(raw.accountType) ?? "",
    displayName: text(raw.display_name) ?? text(raw.displayName) ?? "",
    embeddedWalletAddress: text(raw.embedded_wallet_address) ?? text(raw.embeddedWalletAddress),
  };
}

/** The refusal screen an error leads to, or null when it has none (it is then shown in place). */
export function toRefusal(error: unknown): Refusal | null {
  if (typeof error !== "object" || error === null) return null;
  const fields = error as Record<string, unknown>;
  const code = fields.code;
  if (typeof code !== "string" || !CODES.has(code)) return null;
  const transfer = code === "account_transfer_required" ? transferOf(fields) : null;
  // A transfer without its nonce cannot be offered: the account is simply linked elsewhere.
  const routed = (
    code === "account_transfer_required" && transfer === null ? "linked_to_another_user" : code
  ) as RefusalCode;
  return { code: routed, message: text(fields.message), transfer };
}
