import type { Client } from "../client/createClient.ts";
import { SymbolonError } from "../errors/SymbolonError.ts";
import type { PasskeyUnlinkRequest } from "../generated/protocol.ts";
import { withMfaRetry } from "../mfa/withMfaRetry.ts";
import { type AccountChangeResult, accountRequest, requireUser } from "../session/accountRequest.ts";
import { storeFrameUser } from "../session/storeFrameUser.ts";
import { walletFrame } from "../wallet/frameBridge.ts";
import type { FrameUserAnswer } from "../wallet/types.ts";
import { requireAccessToken } from "../wallet/walletPreconditions.ts";
import { PASSKEY_ENROLLED_IN_MFA_MESSAGE } from "./types.ts";

/**
 * Unlinks the passkey `credentialId` (never the last way in). One enrolled in MFA is unenrolled first
 * through the wallet frame (`privy:auth:unlink-passkey`, after MFA verification) when
 * `passkeys.shouldUnenrollMfaOnUnlink` (default true); otherwise 'Cannot unlink a passkey enrolled in MFA'.
 */
export async function unlinkPasskey(client: Client, credentialId: string): Promise<AccountChangeResult> {
  const user = requireUser(client);
  const passkey = user.linked_accounts.find(
    (account) => account.type === "passkey" && account.credential_id === credentialId,
  );
  if (passkey?.type === "passkey" && passkey.enrolled_in_mfa) {
    if (client.options.passkeys?.shouldUnenrollMfaOnUnlink === false) {
      throw new SymbolonError("invalid_data", PASSKEY_ENROLLED_IN_MFA_MESSAGE);
    }
    const accessToken = await requireAccessToken(client);
    const answer = await withMfaRetry(client, () =>
      walletFrame(client).request<FrameUserAnswer>("privy:auth:unlink-passkey", {
        accessToken,
        credentialId,
        removeAsMfa: true,
      }),
    );
    storeFrameUser(client, answer.user);
    return { user: answer.user, identityToken: client.store.getState().identityToken };
  }
  const body: PasskeyUnlinkRequest = { credential_id: credentialId };
  return accountRequest(client, "/passkeys/unlink", body);
}
