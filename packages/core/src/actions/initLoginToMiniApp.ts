import type { Client } from "../client/createClient.ts";
import type { FarcasterV2InitResponse } from "../generated/protocol.ts";
import { apiRequest } from "../http/apiRequest.ts";

/**
 * `POST /api/v2/farcaster/init`: a single-use nonce for a Farcaster Mini App sign-in. The host puts
 * it in the Sign In With Farcaster message the Mini App SDK has the user sign.
 */
export async function initLoginToMiniApp(client: Client): Promise<{ nonce: string; expiresAt: string }> {
  const answer = await apiRequest<FarcasterV2InitResponse>(client, "POST", "/farcaster/init", {
    body: {},
    prefix: "/api/v2",
  });
  return { nonce: answer.nonce, expiresAt: answer.expires_at };
}
