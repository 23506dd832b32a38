import type { Client } from "../client/createClient.ts";
import type { GuestAuthenticateRequest } from "../generated/protocol.ts";
import { guestCredential } from "../session/guestCredential.ts";
import { ignoredLogin, type LoginResult, loginWithSession } from "../session/loginWithSession.ts";

/**
 * `POST /guest/authenticate`: signs in as a guest (spec §6: "created from a stored random
 * credential"; `user.is_guest` is true). The credential (32 random bytes, base64url) is made once
 * and kept in storage under `privy:guest_credential:<appId>`, so a reload or a later call signs the
 * same guest in again. `logout` forgets it (like the spec client, logout destroys local state): after
 * it, the next guest is a new one. An expired session does not forget it. A guest may later log in
 * with a real method (the login is not ignored for guests).
 */
export async function loginAsGuest(client: Client): Promise<LoginResult> {
  const ignored = ignoredLogin(client);
  if (ignored) return ignored;
  const current = client.store.getState().user;
  if (current?.is_guest) return { user: current, isNewUser: false, wasAlreadyAuthenticated: true };
  const body: GuestAuthenticateRequest = { guest_credential: guestCredential(client) };
  return loginWithSession(client, "/guest/authenticate", body);
}
