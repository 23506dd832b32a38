import type { PasskeyAccount, User } from "@symbolon/core";

/** A passkey of the user (server form, spec §3 passkey account). */
export type Passkey = PasskeyAccount & { type: "passkey" };

/** The user's passkeys, oldest first (as the server lists them). */
export function passkeysOf(user: User | null | undefined): Passkey[] {
  return (user?.linked_accounts ?? []).filter((account): account is Passkey => account.type === "passkey");
}

/** A passkey's name for people: its authenticator's, else "Passkey". */
export function passkeyName(passkey: Passkey): string {
  return passkey.authenticator_name ?? "Passkey";
}
