import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import type { MfaClearData } from "../generated/protocol.ts";

/**
 * On logout: the frame forgets its unlocked keys and MFA token (`privy:mfa:clear`, the one event
 * the published client posts at sign-out) and the wallet state starts over.
 */
export function forgetWallets(client: Client, userId: string | null = null): void {
  const own = internals(client);
  own.unlockedWallets.clear();
  own.unlocking.clear();
  // Unlocks still in flight belong to the session that ended: their outcome must not touch the next one.
  own.walletEpoch += 1;
  client.store.setState({ embeddedWallets: [] });
  const frame = own.walletFrame;
  if (frame === null || !frame.isReady()) return;
  frame
    .request("privy:mfa:clear", (userId === null ? {} : { userId }) satisfies MfaClearData)
    .catch((error: unknown) => {
      console.error("Symbolon: the wallet frame did not confirm privy:mfa:clear.", error);
    });
}
