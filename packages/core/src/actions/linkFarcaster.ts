import type { Client } from "../client/createClient.ts";
import {
  approveFarcasterChannel,
  type FarcasterChannelOptions,
} from "../farcaster/approveFarcasterChannel.ts";
import type { FarcasterLinkRequest } from "../generated/protocol.ts";
import { type AccountChangeResult, accountRequest } from "../session/accountRequest.ts";
import { requireLinkable } from "../session/requireLinkable.ts";

/** `POST /farcaster/link`: adds the Farcaster account approved on a relay channel to the signed-in user. */
export async function linkFarcaster(
  client: Client,
  parameters: FarcasterChannelOptions = {},
): Promise<AccountChangeResult> {
  requireLinkable(client, "farcaster");
  const body: FarcasterLinkRequest = await approveFarcasterChannel(client, parameters);
  return accountRequest(client, "/farcaster/link", body);
}
