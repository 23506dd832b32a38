import type { Client } from "../client/createClient.ts";
import {
  approveFarcasterChannel,
  type FarcasterChannelOptions,
} from "../farcaster/approveFarcasterChannel.ts";
import type { AuthMode, FarcasterAuthenticateRequest } from "../generated/protocol.ts";
import { ignoredLogin, type LoginResult, loginWithSession } from "../session/loginWithSession.ts";

/** Parameters of {@link loginWithFarcaster}. */
export interface LoginWithFarcasterParameters extends FarcasterChannelOptions {
  mode?: AuthMode;
}

/**
 * Sign In With Farcaster through the relay: opens a channel (`onChannel` gets its URL for the QR
 * code or link), waits for the approval, then `POST /farcaster/authenticate`.
 */
export async function loginWithFarcaster(
  client: Client,
  parameters: LoginWithFarcasterParameters = {},
): Promise<LoginResult> {
  const ignored = ignoredLogin(client);
  if (ignored) return ignored;
  const { mode, ...channelOptions } = parameters;
  const approval = await approveFarcasterChannel(client, channelOptions);
  const body: FarcasterAuthenticateRequest = { ...approval };
  if (mode !== undefined) body.mode = mode;
  return loginWithSession(client, "/farcaster/authenticate", body);
}
