import type { Client } from "../client/createClient.ts";
import type { EntropyIdVerifier, LinkedAccount, User, WalletAccount } from "../generated/protocol.ts";

/** A wallet linked account as the server sends it. */
export type WalletLinkedAccount = { type: "wallet" } & WalletAccount;

/** Whether the app creates Ethereum wallets on login (`off` unless configured). */
export function createsWalletsOnLogin(client: Client): boolean {
  return (client.options.embeddedWallets?.ethereum?.createOnLogin ?? "off") !== "off";
}

/**
 * Whether `user` gets an embedded Ethereum wallet on login: never with `off` or when they have one; with
 * `users-without-wallets`, only when they have no Ethereum wallet at all (one they signed in or linked with
 * SIWE counts); with `all-users`, whenever they have no embedded one.
 */
export function needsWalletOnLogin(client: Client, user: User): boolean {
  const mode = client.options.embeddedWallets?.ethereum?.createOnLogin ?? "off";
  if (mode === "off" || getEmbeddedWallets(user).length > 0) return false;
  if (mode === "all-users") return true;
  return !user.linked_accounts.some(
    (account) => account.type === "wallet" && account.chain_type === "ethereum",
  );
}

/** The user's embedded Ethereum wallets, first (index 0) first. */
export function getEmbeddedWallets(user: User | null): WalletLinkedAccount[] {
  if (user === null) return [];
  return user.linked_accounts
    .filter(isEmbeddedEthereumWallet)
    .sort((a, b) => (a.wallet_index ?? 0) - (b.wallet_index ?? 0));
}

/** The embedded wallet with `address` (any case), if the user has it. */
export function findEmbeddedWallet(user: User | null, address: string): WalletLinkedAccount | undefined {
  const wanted = address.toLowerCase();
  return getEmbeddedWallets(user).find((wallet) => wallet.address.toLowerCase() === wanted);
}

/** How the wallet frame names one embedded wallet: its entropy (index 0's address) and index. */
export interface WalletEntropy {
  entropyId: string;
  entropyIdVerifier: EntropyIdVerifier;
  hdWalletIndex: number;
}

/** The frame's name of the user's embedded wallet `wallet` (all derive from the index 0 wallet). */
export function walletEntropy(user: User | null, wallet: WalletLinkedAccount): WalletEntropy {
  const root = getEmbeddedWallets(user).find((account) => (account.wallet_index ?? 0) === 0) ?? wallet;
  return {
    entropyId: root.address,
    entropyIdVerifier: "ethereum-address-verifier",
    hdWalletIndex: wallet.wallet_index ?? 0,
  };
}

function isEmbeddedEthereumWallet(account: LinkedAccount): account is WalletLinkedAccount {
  return (
    account.type === "wallet" &&
    account.connector_type === "embedded" &&
    account.wallet_client_type === "privy" &&
    account.chain_type === "ethereum"
  );
}
