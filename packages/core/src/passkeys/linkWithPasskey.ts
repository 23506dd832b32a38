import type { Client } from "../client/createClient.ts";
import { SymbolonError } from "../errors/SymbolonError.ts";
import {
  MAX_PASSKEYS_PER_USER,
  type PasskeyRegisterRequest,
  type PasskeyRegistrationInitResponse,
  type User,
} from "../generated/protocol.ts";
import { apiRequest } from "../http/apiRequest.ts";
import { type AccountChangeResult, accountRequest, requireUser } from "../session/accountRequest.ts";
import { requireAccessToken } from "../wallet/walletPreconditions.ts";
import { PASSKEY_LIMIT_MESSAGE } from "./types.ts";
import { createPasskey, runPasskeyFlow } from "./webauthn.ts";

/** How many passkeys `user` has linked. */
export function passkeyCount(user: User | null): number {
  return user?.linked_accounts.filter((account) => account.type === "passkey").length ?? 0;
}

/**
 * Adds a passkey to the signed-in user: `/passkeys/link/init` (the user's passkeys excluded), the
 * browser creates the credential, `/passkeys/link`. At most MAX_PASSKEYS_PER_USER: 'Cannot link more
 * passkeys to account.'
 */
export async function linkWithPasskey(client: Client): Promise<AccountChangeResult> {
  return runPasskeyFlow(client, "link", async (step) => {
    const user = requireUser(client);
    if (passkeyCount(user) >= MAX_PASSKEYS_PER_USER) {
      throw new SymbolonError("cannot_link_more_of_type", PASSKEY_LIMIT_MESSAGE);
    }
    const token = await requireAccessToken(client);
    const init = await apiRequest<PasskeyRegistrationInitResponse>(client, "POST", "/passkeys/link/init", {
      body: {},
      token,
    });
    step("awaiting-passkey");
    const credential = await createPasskey(init.options);
    step("submitting-response");
    const body: PasskeyRegisterRequest = {
      relying_party: init.relying_party,
      authenticator_response: credential,
    };
    return accountRequest(client, "/passkeys/link", body);
  });
}
