import type { Client } from "../client/createClient.ts";
import type { AuthMode, TelegramAuthenticateRequest } from "../generated/protocol.ts";
import { ignoredLogin, type LoginResult, loginWithSession } from "../session/loginWithSession.ts";
import { type TelegramProofOptions, telegramProof } from "../telegram/telegramProof.ts";

/** Parameters of {@link loginWithTelegram}. */
export interface LoginWithTelegramParameters extends TelegramProofOptions {
  mode?: AuthMode;
}

/**
 * `POST /telegram/authenticate`: inside a Mini App with its `initData` (seamless), on the web
 * through Telegram's Login Widget popup (spec §4 Telegram flow). Call it from a click handler: the
 * popup opens before the first `await`. 'Telegram was not initialized' without the app's bot;
 * 'Telegram auth failed or was canceled by the client' when the popup closes without a result.
 */
export async function loginWithTelegram(
  client: Client,
  parameters: LoginWithTelegramParameters = {},
): Promise<LoginResult> {
  const ignored = ignoredLogin(client);
  if (ignored) return ignored;
  const { mode, ...proofOptions } = parameters;
  const proof = await telegramProof(client, proofOptions);
  const body: TelegramAuthenticateRequest = { ...proof };
  if (mode !== undefined) body.mode = mode;
  return loginWithSession(client, "/telegram/authenticate", body);
}
