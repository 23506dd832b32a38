import {
  type Client,
  type LoginResult,
  linkWithPasskey,
  loginWithPasskey,
  signupWithPasskey,
  type User,
  unlinkPasskey,
} from "@symbolon/core";

// The core passkey actions the screens call, in one place (the tests replace this module).

/** Logs in (`"login"`, a discoverable passkey) or signs up (`"signup"`, a new passkey). */
export function runPasskeyLogin(client: Client, intent: "login" | "signup"): Promise<LoginResult> {
  return intent === "signup" ? signupWithPasskey(client) : loginWithPasskey(client);
}

/** Adds a passkey to the signed-in user; the user as it is now. */
export async function addPasskey(client: Client): Promise<User> {
  return (await linkWithPasskey(client)).user;
}

/** Removes one of the user's passkeys (core refuses one enrolled in MFA unless configured to unenrol it). */
export async function removePasskey(client: Client, credentialId: string): Promise<User> {
  return (await unlinkPasskey(client, credentialId)).user;
}
