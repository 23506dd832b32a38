import { type Client, initialEmailFlow, initialSmsFlow } from "../client/createClient.ts";
import { initialExternalWallets } from "../externalWallets/types.ts";
import type { LogoutRequest } from "../generated/protocol.ts";
import { apiRequest } from "../http/apiRequest.ts";
import { initialOAuthFlow } from "../oauth/oauthState.ts";
import { initialPasskeyFlow } from "../passkeys/types.ts";
import { clearLocalState } from "../session/clearLocalState.ts";
import { forgetGuestCredential } from "../session/guestCredential.ts";
import { tokenStore } from "../session/tokenStore.ts";

/**
 * Signs out: clears local state at once (and tells the other tabs), then revokes the session on the
 * server with `POST /sessions/logout`. Also forgets the guest credential (a new guest next time). A failing server call does not keep the user signed in.
 */
export async function logout(client: Client): Promise<void> {
  const { token, refreshToken } = tokenStore.read(client);
  clearLocalState(client);
  forgetGuestCredential(client);
  client.store.setState({
    emailFlow: initialEmailFlow,
    smsFlow: initialSmsFlow,
    oauthFlow: initialOAuthFlow,
    passkeyFlow: initialPasskeyFlow,
    // Connected wallets stay connected (they are the wallet's, not the session's); the SIWE flow resets.
    externalWallets: { ...client.store.getState().externalWallets, siwe: initialExternalWallets.siwe },
  });
  if (refreshToken === null) return;
  const body: LogoutRequest = { refresh_token: refreshToken };
  try {
    await apiRequest(client, "POST", "/sessions/logout", { body, token, retries: 0 });
  } catch {
    // Already signed out locally; the session expires on the server by itself.
  }
}
