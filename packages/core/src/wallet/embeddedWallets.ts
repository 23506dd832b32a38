import type { Client } from "../client/createClient.ts";
import type { LinkedAccount, User, WalletAccount } from "../generated/protocol.ts";

/** A wallet linked account as the server sends it. */
export type WalletLinkedAccount = { type: "wallet" } & WalletAccount;

/** Whether the app creates Ethereum wallets on login (`off` unless configured). */
export function createsWalletsOnLogin(client: Client): boolean {
  return (client.options.embeddedWallets?.ethereum?.createOnLogin ?? "off") !== "off";
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

function isEmbeddedEthereumWallet(account: LinkedAccount): account is WalletLinkedAccount {
  return (
    account.type === "wallet" &&
    account.connector_type === "embedded" &&
    account.wallet_client_type === "privy" &&
    account.chain_type === "ethereum"
  );
}
