import type { Client } from "../client/createClient.ts";
import { isApiError } from "../errors/ApiError.ts";
import type { TelegramLinkRequest } from "../generated/protocol.ts";
import { type AccountChangeResult, accountRequest } from "../session/accountRequest.ts";
import { requireLinkable } from "../session/requireLinkable.ts";
import { type TelegramProofOptions, telegramProof } from "../telegram/telegramProof.ts";

/**
 * `POST /telegram/link`: adds a Telegram account to the signed-in user, proven by `launchParams`
 * (their `initDataRaw` is required, spec §5), the Mini App's `initData`, or the Login Widget popup.
 */
export async function linkTelegram(
  client: Client,
  parameters: TelegramProofOptions = {},
): Promise<AccountChangeResult> {
  requireLinkable(client, "telegram");
  const body: TelegramLinkRequest = await telegramProof(client, parameters);
  try {
    return await accountRequest(client, "/telegram/link", body);
  } catch (error) {
    // Keep the proof with the transfer offer: moving the account sends it again (spec §7).
    if (isApiError(error) && error.code === "account_transfer_required" && typeof error.data === "object")
      Object.assign(error.data ?? {}, body);
    throw error;
  }
}
