import type { Client } from "../client/createClient.ts";
import { FarcasterError } from "../farcaster/FarcasterError.ts";
import { type FarcasterPollOptions, pollFarcaster } from "../farcaster/pollFarcaster.ts";
import type { FarcasterSignerRequest, FarcasterSignerResponse } from "../generated/protocol.ts";
import { apiRequest } from "../http/apiRequest.ts";
import { requireUser } from "../session/accountRequest.ts";

/** Parameters of {@link requestFarcasterSigner}. */
export interface RequestFarcasterSignerParameters extends FarcasterPollOptions {
  /** The signer's Ed25519 public key, `0x…` hex. */
  publicKey: string;
  /** Called while approval is pending: show `url` as a QR code (desktop) or a link (mobile). */
  onApprovalUrl?: (url: string) => void;
}

/**
 * Asks for a Farcaster signer for the signed-in user's fid (spec §4 "Farcaster signer"):
 * `POST /farcaster/signer/init {ed25519_public_key}`, then `POST /farcaster/signer/status` every
 * 2 s while `pending_approval`. Approved resolves; revoked fails with 'Request rejected'; 300 s
 * or a missing public key fail with 'Connect failed'.
 */
export async function requestFarcasterSigner(
  client: Client,
  parameters: RequestFarcasterSignerParameters,
): Promise<FarcasterSignerResponse> {
  requireUser(client);
  const publicKey = parameters.publicKey?.trim();
  if (!publicKey) throw new FarcasterError("farcaster_connect_failed", "No signer public key.");
  const body: FarcasterSignerRequest = { ed25519_public_key: publicKey };
  const settle = (signer: FarcasterSignerResponse): FarcasterSignerResponse | null => {
    if (signer.status === "approved") return signer;
    if (signer.status === "revoked") throw new FarcasterError("farcaster_rejected");
    return null;
  };
  const first = await apiRequest<FarcasterSignerResponse>(client, "POST", "/farcaster/signer/init", { body });
  if (settle(first)) return first;
  if (first.signer_approval_url) parameters.onApprovalUrl?.(first.signer_approval_url);
  return pollFarcaster(
    async () =>
      settle(await apiRequest<FarcasterSignerResponse>(client, "POST", "/farcaster/signer/status", { body })),
    parameters,
  );
}
