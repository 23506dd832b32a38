import { ClientError } from "../errors/ClientError.ts";
import type { ChainType, FrameSessionSigner, LinkedAccount, User } from "../generated/protocol.ts";
import type { WalletLinkedAccount } from "../wallet/embeddedWallets.ts";

/**
 * A signer the user lets sign for a delegated wallet, the published client's form: a key quorum of
 * the app (`/v1/key_quorums`) and the policies (`/v1/policies`) every request must pass.
 */
export type SessionSigner = FrameSessionSigner;

/** Refusal of a delegation, a revoke or the terms when nobody is signed in. */
export const DELEGATION_NEEDS_USER_MESSAGE = "User must be authenticated before delegating a wallet.";

/** The published client's refusal of a wallet that is not one of the user's embedded wallets. */
export const NOT_USERS_WALLET_MESSAGE = "Address to delegate is not associated with current user.";

/** The published client's refusal of a chain other than Ethereum (Solana: not yet served). */
export const ETHEREUM_ONLY_MESSAGE =
  "Only Ethereum embedded wallets are supported for delegation and revocation.";

/** Refusal of a revoke when nothing is delegated (no server call is made). */
export const NOTHING_TO_REVOKE_MESSAGE = "User has no delegated wallets to revoke.";

/** The user's embedded wallets of every chain (Privy's, `embedded`), first (index 0) first. */
function embeddedWalletsOfAnyChain(user: User | null): WalletLinkedAccount[] {
  return (user?.linked_accounts ?? [])
    .filter(
      (account: LinkedAccount): account is WalletLinkedAccount =>
        account.type === "wallet" &&
        account.connector_type === "embedded" &&
        account.wallet_client_type === "privy",
    )
    .sort((a, b) => (a.wallet_index ?? 0) - (b.wallet_index ?? 0));
}

/** Whether two addresses of `chainType` are the same (Ethereum's in any case, others exactly). */
const sameAddress = (chainType: ChainType, a: string, b: string) =>
  chainType === "ethereum" ? a.toLowerCase() === b.toLowerCase() : a === b;

/**
 * The user's embedded wallet `address` of `chainType`, checked as the published client checks it
 * before delegating or revoking: one of the user's embedded wallets ('Address to delegate is not
 * associated with current user.'), and Ethereum ('Only Ethereum embedded wallets are supported …').
 */
export function requireDelegableWallet(
  user: User | null,
  address: string,
  chainType: ChainType,
): WalletLinkedAccount {
  const wallet = embeddedWalletsOfAnyChain(user).find(
    (candidate) => candidate.chain_type === chainType && sameAddress(chainType, candidate.address, address),
  );
  if (wallet === undefined) throw new ClientError("invalid_input", NOT_USERS_WALLET_MESSAGE);
  if (chainType !== "ethereum") throw new ClientError("unsupported_wallet_type", ETHEREUM_ONLY_MESSAGE);
  return wallet;
}

/** The user's embedded wallets they delegated to the app (`delegated: true`), first first. */
export function getDelegatedWallets(user: User | null): WalletLinkedAccount[] {
  return embeddedWalletsOfAnyChain(user).filter((wallet) => wallet.delegated);
}
