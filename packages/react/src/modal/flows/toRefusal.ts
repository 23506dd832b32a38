import { type OAuthUserInfo, type TelegramProof, transferData, transferProofOf } from "@symbolon/core";

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
  /** OAuth accounts: what the provider told (sent back to `/oauth/transfer`). */
  oauthUserInfo: OAuthUserInfo | null;
  /** A Telegram account: the proof the link sent, which the transfer sends again. */
  telegramProof: TelegramProof | null;
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

/** The transfer offer of the refusal, from core's `transferData` (the server's field names). */
function transferOf(error: unknown): TransferOffer | null {
  const data = transferData(error);
  if (data === null) return null;
  return {
    nonce: data.nonce,
    accountType: data.account_type,
    displayName: data.display_name,
    embeddedWalletAddress: data.embedded_wallet_address,
    oauthUserInfo: data.oauth_user_info ?? null,
    telegramProof: transferProofOf(error),
  };
}

/** The refusal screen an error leads to, or null when it has none (it is then shown in place). */
export function toRefusal(error: unknown): Refusal | null {
  if (typeof error !== "object" || error === null) return null;
  const fields = error as Record<string, unknown>;
  const code = fields.code;
  if (typeof code !== "string" || !CODES.has(code)) return null;
  const transfer = code === "account_transfer_required" ? transferOf(error) : null;
  // A transfer without its nonce cannot be offered: the account is simply linked elsewhere.
  const routed = (
    code === "account_transfer_required" && transfer === null ? "linked_to_another_user" : code
  ) as RefusalCode;
  return { code: routed, message: text(fields.message), transfer };
}
