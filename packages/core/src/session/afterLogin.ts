import { createWallet } from "../actions/createWallet.ts";
import { logout } from "../actions/logout.ts";
import type { Client } from "../client/createClient.ts";
import { ClientError } from "../errors/ClientError.ts";
import type { User } from "../generated/protocol.ts";
import { needsWalletOnLogin } from "../wallet/embeddedWallets.ts";
import { warmUpWallet } from "../wallet/unlockWallet.ts";

/**
 * What every login method runs once the session is stored. Per `embeddedWallets.ethereum.createOnLogin`
 * it creates the embedded wallet of a user who has none (there is no second wallet on login, so
 * `all-users` and `users-without-wallets` agree); a failure logs the user out (spec §4) and throws a
 * message for the login UI. A user who has a wallet gets it unlocked in the background.
 * Resolves with the user as it is afterwards.
 */
export async function afterLogin(client: Client, user: User): Promise<User> {
  if (!needsWalletOnLogin(client, user)) {
    warmUpWallet(client);
    return user;
  }
  try {
    await createWallet(client);
  } catch (cause) {
    await logout(client);
    throw new ClientError("embedded_wallet_creation_error", walletCreationFailedMessage(cause), { cause });
  }
  return client.store.getState().user ?? user;
}

/** The message shown when the wallet could not be created on login. */
export function walletCreationFailedMessage(cause: unknown): string {
  const reason = (cause instanceof Error ? cause.message : String(cause)).replace(/\.+$/, "");
  return `Could not create your wallet: ${reason}. You have been logged out; please try again.`;
}
