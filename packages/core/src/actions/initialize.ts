import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import { asSymbolonError } from "../errors/asSymbolonError.ts";
import type { SymbolonError } from "../errors/SymbolonError.ts";
import { hasPendingWalletWork } from "../externalWallets/pendingWalletWork.ts";
import type { AppConfigResponse } from "../generated/protocol.ts";
import { apiRequest } from "../http/apiRequest.ts";
import { openTabChannel } from "../session/openTabChannel.ts";
import { syncFromStorage } from "../session/syncFromStorage.ts";
import { tokenStore } from "../session/tokenStore.ts";
import { preloadWalletFrame } from "../wallet/frameBridge.ts";
import { warmUpWallet } from "../wallet/unlockWallet.ts";
import { fetchUser } from "./fetchUser.ts";
import { logout } from "./logout.ts";
import { trackEvent } from "./trackEvent.ts";

/**
 * Fetches the app config, restores the session from storage and fetches the user, then sets
 * `ready`. Never rejects: on failure the cached user (if any) is kept and `error` records why.
 * Calling it again returns the same promise.
 */
export function initialize(client: Client): Promise<void> {
  const own = internals(client);
  own.initializing ??= run(client);
  return own.initializing;
}

async function run(client: Client): Promise<void> {
  const own = internals(client);
  const broadcast = client.options.broadcast ?? typeof window !== "undefined";
  if (broadcast && own.channel === null) own.channel = openTabChannel(client, () => syncFromStorage(client));
  trackEvent(client, "sdk_initialize");

  const cached = tokenStore.readUser(client);
  if (cached !== null) client.store.setState({ user: cached });
  const errors: SymbolonError[] = [];
  const [appConfig] = await Promise.all([
    apiRequest<AppConfigResponse>(client, "GET", `/apps/${encodeURIComponent(client.options.appId)}`).catch(
      (e: unknown) => {
        errors.push(asSymbolonError(e));
        return null;
      },
    ),
    fetchUser(client).then(
      (user) => {
        if (user === null) client.store.setState({ user: null, authenticated: false });
      },
      (e: unknown) => {
        errors.push(asSymbolonError(e));
        // Offline: keep the cached user for as long as the stored session lasts.
        const { token, refreshToken } = tokenStore.read(client);
        const signedIn = cached !== null && (token !== null || refreshToken !== null);
        client.store.setState({ user: signedIn ? cached : null, authenticated: signedIn });
      },
    ),
  ]);
  if (own.destroyed) return;
  client.store.setState({ appConfig });

  const { user } = client.store.getState();
  // Spec §4: an app requiring terms logs out a stored user who has not accepted them.
  if (appConfig?.require_users_accept_terms && user !== null && !user.has_accepted_terms)
    await logout(client);
  client.store.setState({ ready: true, error: errors[0] ?? null });
  // A restored session with an embedded wallet: unlock it in the background.
  if (client.store.getState().authenticated) warmUpWallet(client);
  else preloadWalletFrame(client);
  // Stored wallet connections and wallet deep links (issue 11): the wallet code loads only when needed.
  if (hasPendingWalletWork(client))
    void import("../externalWallets/afterInitialize.ts")
      .then(({ afterInitialize }) => afterInitialize(client))
      .catch((e: unknown) => console.warn("Symbolon: restoring wallet connections failed", e));
}
