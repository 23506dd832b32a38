import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import { ClientError } from "../errors/ClientError.ts";
import { WALLET_CREATION_TIMEOUT_MS, type WalletsAddData } from "../generated/protocol.ts";
import { withMfaRetry } from "../mfa/withMfaRetry.ts";
import { tokenStore } from "../session/tokenStore.ts";
import {
  findEmbeddedWallet,
  getEmbeddedWallets,
  type WalletLinkedAccount,
  walletEntropy,
} from "../wallet/embeddedWallets.ts";
import { walletFrame } from "../wallet/frameBridge.ts";
import type { WalletCreatedAnswer } from "../wallet/types.ts";
import { setWalletStatus, unlockWallet, type WalletOfStatus } from "../wallet/unlockWallet.ts";
import { assertSecurePage, requireAccessToken } from "../wallet/walletPreconditions.ts";

/** Options of {@link createWallet}. */
export interface CreateWalletOptions {
  /** Derive one more wallet (next index) from the same key when the user already has one. */
  createAdditional?: boolean;
}

/** Spec: a second `createWallet()` without `createAdditional`. */
export const WALLET_EXISTS_MESSAGE = "User already has an embedded wallet.";

/**
 * Creates the user's embedded Ethereum wallet in the wallet frame (`privy:wallet:create`), or with
 * `createAdditional` the next one (`privy:wallets:add`, after unlocking the first). Updates the user
 * and resolves with the new linked account.
 */
export async function createWallet(
  client: Client,
  options: CreateWalletOptions = {},
): Promise<WalletLinkedAccount> {
  assertSecurePage();
  const accessToken = await requireAccessToken(client);
  const wallets = getEmbeddedWallets(client.store.getState().user);
  const last = wallets.at(-1);
  if (last === undefined) {
    // One first wallet per user: a second call while it is being made (an effect run twice, two
    // hooks) gets the same wallet instead of a second creation the server refuses.
    const running = rootCreations.get(client);
    if (running !== undefined) return running;
    const creating = createRootWallet(client, accessToken).finally(() => rootCreations.delete(client));
    rootCreations.set(client, creating);
    return creating;
  }
  if (!options.createAdditional) {
    throw new ClientError("embedded_wallet_creation_error", WALLET_EXISTS_MESSAGE);
  }
  // Further wallets derive from the first one's key, so the frame must hold it unlocked.
  await unlockWallet(client, wallets[0]?.address ?? last.address);
  let created: WalletCreatedAnswer;
  // Named by its entropy, the index 0 wallet's address (every index derives from it).
  const { entropyId, entropyIdVerifier } = walletEntropy(client.store.getState().user, last);
  const wallet: WalletOfStatus = { chainType: "ethereum", entropyId };
  try {
    setWalletStatus(client, wallet, "creating");
    const walletIndex = (last.wallet_index ?? 0) + 1;
    created = await withMfaRetry(client, () =>
      walletFrame(client).request<WalletCreatedAnswer>("privy:wallets:add", {
        accessToken,
        chainType: "ethereum",
        entropyId,
        entropyIdVerifier,
        hdWalletIndex: walletIndex,
      } satisfies WalletsAddData),
    );
  } catch (error) {
    setWalletStatus(client, wallet, "error", error);
    throw error;
  }
  return adoptCreated(client, created, wallet);
}

/** The first wallet each client is creating, while it is. */
const rootCreations = new WeakMap<Client, Promise<WalletLinkedAccount>>();

/** Creates the user's first wallet in the frame (`privy:wallet:create`). */
async function createRootWallet(client: Client, accessToken: string): Promise<WalletLinkedAccount> {
  const frame = walletFrame(client);
  let created: WalletCreatedAnswer;
  // Its entropy is named by the address it is about to get.
  const wallet: WalletOfStatus = { chainType: "ethereum", entropyId: null };
  try {
    if (!frame.isReady()) {
      setWalletStatus(client, wallet, "loading-frame");
      await frame.ready();
    }
    setWalletStatus(client, wallet, "creating");
    created = await frame.request<WalletCreatedAnswer>(
      "privy:wallet:create",
      { accessToken, chainType: "ethereum", recoveryMethod: "privy" },
      { timeoutMs: WALLET_CREATION_TIMEOUT_MS },
    );
  } catch (error) {
    setWalletStatus(client, wallet, "error", error);
    throw error;
  }
  return adoptCreated(client, created, { ...wallet, entropyId: created.address });
}

/** Stores the user the frame answered with the new wallet (of `entropy`), and returns that wallet. */
function adoptCreated(
  client: Client,
  created: WalletCreatedAnswer,
  entropy: WalletOfStatus,
): WalletLinkedAccount {
  // The frame created the key, so it holds the new wallet unlocked.
  internals(client).unlockedWallets.add(created.address.toLowerCase());
  tokenStore.writeUser(client, created.user);
  client.store.setState({ user: created.user });
  internals(client).channel?.post({ type: "sync" });
  setWalletStatus(client, entropy, "ready");
  const wallet = findEmbeddedWallet(created.user, created.address);
  if (wallet === undefined) {
    throw new ClientError(
      "embedded_wallet_creation_error",
      "The wallet was created but is missing from the user's accounts.",
    );
  }
  return wallet;
}
