import type { Client } from "../client/createClient.ts";
import type { ConnectedExternalWallet, ConnectWalletParameters } from "./types.ts";

/** Connects a wallet: disconnected → connecting → (switching_to_supported_chain) → connected. */
export async function connectWallet(
  _client: Client,
  _params: ConnectWalletParameters,
): Promise<ConnectedExternalWallet> {
  throw new Error("TODO: connectWallet");
}

/** Tries the last failed connection again. */
export async function retryConnectWallet(_client: Client): Promise<ConnectedExternalWallet> {
  throw new Error("TODO: retryConnectWallet");
}

/** Forgets the connection of `address`. */
export async function disconnectWallet(_client: Client, _address: string): Promise<void> {
  throw new Error("TODO: disconnectWallet");
}

/** Restores the stored wallet connections without prompting (`eth_accounts`). */
export async function restoreWalletConnections(_client: Client): Promise<ConnectedExternalWallet[]> {
  throw new Error("TODO: restoreWalletConnections");
}
