import type { Client, CustomAuthSyncStatus } from "../client/createClient.ts";
import { isApiError } from "../errors/ApiError.ts";
import { asSymbolonError } from "../errors/asSymbolonError.ts";
import { loginWithCustomToken } from "./loginWithCustomToken.ts";
import { logout } from "./logout.ts";

/** Parameters of {@link syncCustomAuth}. */
export interface SyncCustomAuthParameters {
  /** The host's current JWT, or undefined/empty when its user is signed out. */
  getCustomAccessToken: () => Promise<string | null | undefined>;
  /** True while the host is still finding out whether its user is signed in: nothing happens. */
  isLoading: boolean;
}

/** The token the last sync of each client used (spec §4: an unchanged token is ignored). */
const lastTokens = new WeakMap<Client, string>();

/** The sign-in a sync of each client is running, with its token: a second sync of that token joins it. */
const inFlight = new WeakMap<Client, { token: string; done: Promise<CustomAuthSyncStatus> }>();

type SetStatus = (status: CustomAuthSyncStatus, error?: unknown) => CustomAuthSyncStatus;

/**
 * Spec §4 "Custom token sync": follows the host's sign-in with the host's JWT. Call it whenever the
 * host's auth state may have changed (the React hook calls it on mount and when `isLoading` or the
 * getter changes). Status in `state.customAuthSync`:
 * - `not-enabled` when the app config has `custom_jwt_auth` off (nothing else happens);
 * - an empty token while signed in logs the user out;
 * - a token equal to the last one synced is ignored, and so is a second sync of the token being signed
 *   in (it resolves with that sign-in's status);
 * - otherwise `loading`, then `done` (signed in with `loginWithCustomToken`) or `error`;
 * - a `linked_to_another_user` refusal resets to `initial` and retries once.
 * Resolves with the status it ended in.
 */
export async function syncCustomAuth(
  client: Client,
  parameters: SyncCustomAuthParameters,
): Promise<CustomAuthSyncStatus> {
  const set: SetStatus = (status, error = null) => {
    client.store.setState({
      customAuthSync: { status, error: error === null ? null : asSymbolonError(error) },
    });
    return status;
  };
  const { appConfig } = client.store.getState();
  if (appConfig !== null && !appConfig.custom_jwt_auth) return set("not-enabled");
  if (parameters.isLoading) return client.store.getState().customAuthSync.status;
  for (let attempt = 0; ; attempt++) {
    let token: string | null | undefined;
    try {
      token = await parameters.getCustomAccessToken();
    } catch (e) {
      return set("error", e);
    }
    if (!token) {
      lastTokens.delete(client);
      if (client.store.getState().authenticated) await logout(client);
      return set("initial");
    }
    if (lastTokens.get(client) === token && client.store.getState().authenticated) {
      return client.store.getState().customAuthSync.status;
    }
    // React runs effects twice in development (StrictMode), and hosts may sync from several hooks: a
    // second sync of the token being signed in joins that sign-in instead of starting another (two
    // sessions, then two wallet creations of which the second failed and logged the user out).
    const running = inFlight.get(client);
    if (running?.token === token) return running.done;
    const done = signIn(client, token, attempt === 0, set);
    inFlight.set(client, { token, done });
    const status = await done.finally(() => {
      if (inFlight.get(client)?.done === done) inFlight.delete(client);
    });
    if (status !== "initial" || attempt > 0) return status;
  }
}

/**
 * One sign-in with `token`, ending in `done` or `error` — or `initial` when `mayRetry` and the server
 * says the account is linked to another user (spec §4: the caller then retries once).
 */
async function signIn(
  client: Client,
  token: string,
  mayRetry: boolean,
  set: SetStatus,
): Promise<CustomAuthSyncStatus> {
  lastTokens.set(client, token);
  set("loading");
  try {
    await loginWithCustomToken(client, token);
    return set("done");
  } catch (e) {
    lastTokens.delete(client);
    if (mayRetry && isApiError(e) && e.code === "linked_to_another_user") return set("initial");
    return set("error", e);
  }
}
