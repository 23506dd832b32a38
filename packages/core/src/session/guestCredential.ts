import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import { storageKey } from "./storageKey.ts";

/** Spec §9: the guest credential is 32 random bytes, base64url. */
const GUEST_CREDENTIAL_BYTES = 32;

/** Base64url without padding, from bytes (no Buffer). */
function base64url(bytes: Uint8Array): string {
  const binary = Array.from(bytes, (b) => String.fromCharCode(b)).join("");
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The stored guest credential of this app, or a new one (made with Web Crypto, then stored). */
export function guestCredential(client: Client): string {
  const storage = internals(client).storage();
  const key = storageKey(client.options.appId, "guest_credential");
  const stored = storage.getItem(key);
  if (stored) return stored;
  const credential = base64url(crypto.getRandomValues(new Uint8Array(GUEST_CREDENTIAL_BYTES)));
  storage.setItem(key, credential);
  return credential;
}

/** Forgets the guest credential (logout): the next `loginAsGuest` is a new guest. */
export function forgetGuestCredential(client: Client): void {
  internals(client).storage().removeItem(storageKey(client.options.appId, "guest_credential"));
}
