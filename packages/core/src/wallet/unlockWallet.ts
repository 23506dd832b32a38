import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import { asSymbolonError } from "../errors/asSymbolonError.ts";
import { ClientError, isClientError } from "../errors/ClientError.ts";
import { type EntropyData, WALLET_CREATION_TIMEOUT_MS } from "../generated/protocol.ts";
import { needsMfaVerification } from "../mfa/mfaErrors.ts";
import { withMfaRetry } from "../mfa/withMfaRetry.ts";
import { findEmbeddedWallet, getEmbeddedWallets, walletEntropy } from "./embeddedWallets.ts";
import { canUseWalletFrame, walletFrame } from "./frameBridge.ts";
import type { EmbeddedChainType, EmbeddedWallet, EmbeddedWalletStatus, EntropyAnswer } from "./types.ts";
import { assertSecurePage, requireAccessToken } from "./walletPreconditions.ts";

/**
 * Makes the frame hold `address` unlocked: `privy:wallets:connect` of its entropy (the index 0
 * wallet, from which every index derives), then `privy:wallets:recover` when the frame answers
 * `wallet_not_on_device` (device share missing or stale: a new device). Concurrent callers share one attempt; a success lasts until logout.
 * Progress and failure show in its entry of `embeddedWallets`. When the key material needs MFA, the user is asked
 * (`withMfaRetry`) unless `promptMfa` is false (the background warm-up: nobody asked for the wallet yet).
 */
export function unlockWallet(
  client: Client,
  address: string,
  { promptMfa = true }: { promptMfa?: boolean } = {},
): Promise<void> {
  const own = internals(client);
  const key = address.toLowerCase();
  if (own.unlockedWallets.has(key)) return Promise.resolve();
  const running = own.unlocking.get(key);
  if (running === undefined) {
    const started: Promise<void> = run(client, address, promptMfa).finally(() => {
      // After a logout the map may hold the next session's attempt: leave that one.
      if (own.unlocking.get(key) === started) own.unlocking.delete(key);
    });
    own.unlocking.set(key, started);
    return started;
  }
  if (!promptMfa) return running;
  // Joining a warm-up that stopped at MFA: this caller may prompt, so it tries again.
  return running.catch((error: unknown) => {
    if (needsMfaVerification(error)) return unlockWallet(client, address);
    throw error;
  });
}

/**
 * After login or session restore: unlocks the user's first embedded wallet in the background, so the
 * first signature does not wait for it. Failures land in its `embeddedWallets` entry's error and the console.
 */
export function warmUpWallet(client: Client): void {
  if (!canUseWalletFrame(client)) return;
  const [first] = getEmbeddedWallets(client.store.getState().user);
  if (first === undefined) return;
  const own = internals(client);
  const epoch = own.walletEpoch;
  unlockWallet(client, first.address, { promptMfa: false }).catch((error: unknown) => {
    // A wallet whose key needs MFA stays locked until it is used (the user is asked then); a
    // warm-up the user logged out of (its session refused) is no failure of the wallet.
    if (own.destroyed || own.walletEpoch !== epoch || needsMfaVerification(error)) return;
    console.error("Symbolon: the embedded wallet could not be unlocked.", error);
  });
}

/** Which embedded wallet a status is for: its chain, and its `entropyId` once known (null keeps the one known). */
export interface WalletOfStatus {
  chainType: EmbeddedChainType;
  entropyId: string | null;
}

/** Sets where the embedded wallet `wallet` stands in `embeddedWallets`, adding it when new. */
export function setWalletStatus(
  client: Client,
  wallet: WalletOfStatus,
  status: EmbeddedWalletStatus,
  error: unknown = null,
): void {
  const { embeddedWallets } = client.store.getState();
  const previous = embeddedWallets.find((entry) => entry.chainType === wallet.chainType);
  const next: EmbeddedWallet = {
    chainType: wallet.chainType,
    entropyId: wallet.entropyId ?? previous?.entropyId ?? null,
    state: { status, error: error === null ? null : asSymbolonError(error) },
  };
  client.store.setState({
    embeddedWallets: previous
      ? embeddedWallets.map((entry) => (entry === previous ? next : entry))
      : [...embeddedWallets, next],
  });
}

async function run(client: Client, address: string, promptMfa: boolean): Promise<void> {
  const mfa = <T>(operation: () => Promise<T>) => (promptMfa ? withMfaRetry(client, operation) : operation());
  const own = internals(client);
  const epoch = own.walletEpoch;
  // Whether the session this attempt started in is still the client's (no logout since).
  const current = () => own.walletEpoch === epoch;
  const tracked: WalletOfStatus = { chainType: "ethereum", entropyId: null };
  const status = (next: EmbeddedWalletStatus, error: unknown = null) => {
    if (current()) setWalletStatus(client, tracked, next, error);
  };
  try {
    assertSecurePage();
    const accessToken = await requireAccessToken(client);
    const frame = walletFrame(client);
    if (!frame.isReady()) {
      status("loading-frame");
      await frame.ready();
    }
    const { user } = client.store.getState();
    const wallet = findEmbeddedWallet(user, address);
    if (wallet === undefined) {
      throw new ClientError("invalid_input", `${address} is not an embedded wallet of the signed-in user.`);
    }
    const { entropyId, entropyIdVerifier } = walletEntropy(user, wallet);
    tracked.entropyId = entropyId;
    const entropy = { accessToken, entropyId, entropyIdVerifier } satisfies EntropyData;
    status("connecting");
    try {
      // Unlocking fetches key material, which needs MFA when the app protects transactions.
      await mfa(() => frame.request<EntropyAnswer>("privy:wallets:connect", entropy));
    } catch (error) {
      if (!isClientError(error) || error.code !== "wallet_not_on_device") throw error;
      if (wallet.recovery_method !== "privy") throw new ClientError("unsupported_recovery_method");
      status("recovering");
      await mfa(() =>
        frame.request<EntropyAnswer>("privy:wallets:recover", entropy, {
          timeoutMs: WALLET_CREATION_TIMEOUT_MS,
        }),
      );
    }
    if (!current()) return;
    own.unlockedWallets.add(address.toLowerCase());
    setWalletStatus(client, tracked, "ready");
  } catch (error) {
    if (!current()) throw error;
    // Left locked for MFA without a prompt is no failure of the wallet.
    if (!promptMfa && needsMfaVerification(error)) status("idle");
    else status("error", error);
    throw error;
  }
}
