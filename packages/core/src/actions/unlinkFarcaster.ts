import type { Client } from "../client/createClient.ts";
import type { FarcasterUnlinkRequest } from "../generated/protocol.ts";
import { type AccountChangeResult, accountRequest, requireUser } from "../session/accountRequest.ts";

/** `POST /farcaster/unlink {fid}`; never the last way in (`cannot_unlink_sole_account`). */
export async function unlinkFarcaster(client: Client, fid: number): Promise<AccountChangeResult> {
  requireUser(client);
  const body: FarcasterUnlinkRequest = { fid };
  return accountRequest(client, "/farcaster/unlink", body);
}
