import type { Client } from "../client/createClient.ts";
import {
  DELEGATION_NEEDS_USER_MESSAGE,
  requireDelegableWallet,
  type SessionSigner,
} from "../delegation/delegatedWallets.ts";
import {
  type ChainType,
  DELEGATION_WALLET_PROXY_WAIT_MS,
  type DelegatedActionsConsentAnswer,
  type DelegatedActionsConsentData,
} from "../generated/protocol.ts";
import { requireUser } from "../session/accountRequest.ts";
import { getEmbeddedWallets } from "../wallet/embeddedWallets.ts";
import { walletFrame } from "../wallet/frameBridge.ts";
import { unlockWallet } from "../wallet/unlockWallet.ts";
import { assertSecurePage, requireAccessToken } from "../wallet/walletPreconditions.ts";
import { fetchUser } from "./fetchUser.ts";

/** Parameters of {@link delegateWallet}. */
export interface DelegateWalletParameters {
  /** One of the user's embedded wallets. */
  address: string;
  /** Its chain: `ethereum` (Solana is refused for now). */
  chainType: ChainType;
  /** Who may sign for it, under which policies; absent: the app's default delegation. */
  signers?: SessionSigner[];
}

/**
 * Delegated actions: lets the app's back end sign with the user's embedded wallet `address` while
 * they are away, within the app's policies. Refuses a signed-out user, a wallet not the user's
 * ('Address to delegate is not associated with current user.') and a chain other than Ethereum;
 * a wallet already delegated resolves at once. Otherwise the wallet frame holds the user's first
 * wallet unlocked (connecting or recovering it, as signing does), then seals the wallet's key with
 * the terms to the app's signer (`privy:delegated-actions:consent`, waited for at most
 * DELEGATION_WALLET_PROXY_WAIT_MS), and the user is read again (`delegated: true`).
 */
export async function delegateWallet(
  client: Client,
  { address, chainType, signers }: DelegateWalletParameters,
): Promise<void> {
  const user = requireUser(client, DELEGATION_NEEDS_USER_MESSAGE);
  const wallet = requireDelegableWallet(user, address, chainType);
  if (wallet.delegated) return;
  assertSecurePage();
  const accessToken = await requireAccessToken(client);
  // Every embedded Ethereum wallet derives from the first one's entropy, which the frame unlocks.
  const root = getEmbeddedWallets(user).find((candidate) => (candidate.wallet_index ?? 0) === 0) ?? wallet;
  await unlockWallet(client, root.address);
  const data: DelegatedActionsConsentData = {
    accessToken,
    rootWallet: { address: root.address, chainType: "ethereum", imported: root.imported },
    delegatedWallets: [
      { address: wallet.address, chainType: "ethereum", walletIndex: wallet.wallet_index ?? 0 },
    ],
    ...(signers === undefined ? {} : { signers }),
  };
  await walletFrame(client).request<DelegatedActionsConsentAnswer>("privy:delegated-actions:consent", data, {
    timeoutMs: DELEGATION_WALLET_PROXY_WAIT_MS,
  });
  await fetchUser(client);
}
