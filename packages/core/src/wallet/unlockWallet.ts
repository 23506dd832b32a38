import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import { asSymbolonError } from "../errors/asSymbolonError.ts";
import { ClientError } from "../errors/ClientError.ts";
import { WALLET_CREATION_TIMEOUT_MS } from "../generated/protocol.ts";
import { withMfaRetry } from "../mfa/withMfaRetry.ts";
import { findEmbeddedWallet, getEmbeddedWallets } from "./embeddedWallets.ts";
import { canUseWalletFrame, walletFrame } from "./frameBridge.ts";
import type { ConnectAnswer, EmbeddedWalletStatus } from "./types.ts";
import { assertSecurePage, requireAccessToken } from "./walletPreconditions.ts";

/**
 * Makes the frame hold `address` unlocked: `privy:connect`, then `privy:recover` when the device share
 * is missing or stale (new device). Concurrent callers share one attempt; a success lasts until logout.
 * Progress and failure show in `embeddedWallet`.
 */
export function unlockWallet(client: Client, address: string): Promise<void> {
  const own = internals(client);
  const key = address.toLowerCase();
  if (own.unlockedWallets.has(key)) return Promise.resolve();
  let running = own.unlocking.get(key);
  if (running === undefined) {
    running = run(client, address).finally(() => own.unlocking.delete(key));
    own.unlocking.set(key, running);
  }
  return running;
}

/**
 * After login or session restore: unlocks the user's first embedded wallet in the background, so the
 * first signature does not wait for it. Failures land in `embeddedWallet.error` and the console.
 */
export function warmUpWallet(client: Client): void {
  if (!canUseWalletFrame(client)) return;
  const [first] = getEmbeddedWallets(client.store.getState().user);
  if (first === undefined) return;
  unlockWallet(client, first.address).catch((error: unknown) => {
    if (!internals(client).destroyed)
      console.error("Symbolon: the embedded wallet could not be unlocked.", error);
  });
}

/** Sets `embeddedWallet` in the client state. */
export function setWalletStatus(client: Client, status: EmbeddedWalletStatus, error: unknown = null): void {
  client.store.setState({
    embeddedWallet: { status, error: error === null ? null : asSymbolonError(error) },
  });
}

async function run(client: Client, address: string): Promise<void> {
  try {
    assertSecurePage();
    const accessToken = await requireAccessToken(client);
    const frame = walletFrame(client);
    if (!frame.isReady()) {
      setWalletStatus(client, "loading-frame");
      await frame.ready();
    }
    setWalletStatus(client, "connecting");
    // Unlocking fetches key material, which needs MFA when the app protects transactions.
    const connected = await withMfaRetry(client, () =>
      frame.request<ConnectAnswer>("privy:connect", { accessToken, address }),
    );
    if (!connected.unlocked) {
      const method = findEmbeddedWallet(client.store.getState().user, address)?.recovery_method;
      if (method !== "privy") throw new ClientError("unsupported_recovery_method");
      setWalletStatus(client, "recovering");
      await withMfaRetry(client, () =>
        frame.request("privy:recover", { accessToken, address }, { timeoutMs: WALLET_CREATION_TIMEOUT_MS }),
      );
    }
    internals(client).unlockedWallets.add(address.toLowerCase());
    setWalletStatus(client, "ready");
  } catch (error) {
    setWalletStatus(client, "error", error);
    throw error;
  }
}
