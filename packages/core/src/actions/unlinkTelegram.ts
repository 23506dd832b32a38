import type { Client } from "../client/createClient.ts";
import type { TelegramUnlinkRequest } from "../generated/protocol.ts";
import { type AccountChangeResult, accountRequest, requireUser } from "../session/accountRequest.ts";

/** `POST /telegram/unlink {telegram_user_id}`; never the last way in (`cannot_unlink_sole_account`). */
export async function unlinkTelegram(client: Client, telegramUserId: string): Promise<AccountChangeResult> {
  requireUser(client);
  const body: TelegramUnlinkRequest = { telegram_user_id: String(telegramUserId).trim() };
  return accountRequest(client, "/telegram/unlink", body);
}
