import type { Client } from "../client/createClient.ts";
import type { TelegramTransferRequest } from "../generated/protocol.ts";
import { type AccountChangeResult, accountRequest, requireUser } from "../session/accountRequest.ts";
import type { TelegramProof } from "../telegram/telegramProof.ts";

/** Parameters of {@link transferTelegram}. */
export interface TransferTelegramParameters {
  /** The nonce of the `account_transfer_required` refusal. */
  nonce: string;
  /** The proof the refused link sent (spec §3 transfer data `telegramAuthResult` / `telegramWebAppData`). */
  proof: TelegramProof;
}

/**
 * Moves a Telegram account that belongs to another user to the signed-in one (spec §7):
 * `POST /telegram/transfer {nonce, telegram_auth_result, telegram_web_app_data}`.
 */
export async function transferTelegram(
  client: Client,
  { nonce, proof }: TransferTelegramParameters,
): Promise<AccountChangeResult> {
  requireUser(client);
  const body: TelegramTransferRequest = { nonce, ...proof };
  return accountRequest(client, "/telegram/transfer", body);
}
