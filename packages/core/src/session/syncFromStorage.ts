import type { Client } from "../client/createClient.ts";
import { forgetWallets } from "../wallet/forgetWallets.ts";
import { tokenStore } from "./tokenStore.ts";

/** Brings this tab's state in line with the session another tab left in storage (login or logout). */
export function syncFromStorage(client: Client): void {
  const { token, refreshToken, identityToken } = tokenStore.read(client);
  const state = client.store.getState();
  if (token === null && refreshToken === null) {
    if (state.authenticated || state.user !== null) {
      const userId = state.user?.id ?? null;
      client.store.setState({ authenticated: false, user: null, identityToken: null });
      forgetWallets(client, userId);
    }
    return;
  }
  const user = tokenStore.readUser(client);
  if (user !== null) client.store.setState({ authenticated: true, user, identityToken });
}
