import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import { clearMfa } from "../mfa/clearMfa.ts";
import { forgetWallets } from "../wallet/forgetWallets.ts";
import { tokenStore } from "./tokenStore.ts";

/**
 * Spec §4 "destroy local state": forget every token and the user, lock the embedded wallets, and tell
 * the other tabs.
 */
export function clearLocalState(client: Client): void {
  const userId = client.store.getState().user?.id ?? null;
  tokenStore.clear(client);
  // Provider tokens (spec §4: logout clears them) go with the session.
  client.store.setState({ authenticated: false, user: null, identityToken: null, oauthTokens: {} });
  // The frame forgets the unlocked keys and its MFA token; spec §4: logout clears the MFA state.
  forgetWallets(client, userId);
  clearMfa(client);
  internals(client).channel?.post({ type: "sync" });
}
