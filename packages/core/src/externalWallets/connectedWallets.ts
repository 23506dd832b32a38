import type { EIP1193Provider } from "viem";
import type { Client } from "../client/createClient.ts";
import {
  runtimeOf,
  type StandardAccount,
  type StandardWallet,
  updateExternalWallets,
  type WalletHandle,
} from "./runtime.ts";
import { sameAddress, storedConnections } from "./storedConnections.ts";
import type { ConnectedExternalWallet, StoredWalletConnection } from "./types.ts";
import { toWalletError, WalletConnectionError } from "./WalletConnectionError.ts";

/** Spec §9-style Solana cluster id used when a wallet names no chain. */
export const SOLANA_MAINNET = "solana:mainnet";

/**
 * Records `stored` as connected in this page through `handle`: in the store (most recent first), in
 * storage (spec §3 stored wallet connection), and listening to the provider's account and chain events.
 */
export function addConnected(
  client: Client,
  stored: StoredWalletConnection,
  handle: WalletHandle,
  chainId: string,
): ConnectedExternalWallet {
  const runtime = runtimeOf(client);
  const key = stored.address.toLowerCase();
  runtime.unsubscribes.get(key)?.();
  runtime.connectedHandles.set(key, handle);
  storedConnections.save(client, stored);
  const wallet = toConnectedWallet(client, stored, handle, chainId);
  const others = client.store
    .getState()
    .externalWallets.connected.filter((w) => !sameAddress(w.address, stored.address));
  updateExternalWallets(client, { connected: [wallet, ...others] });
  if (handle.kind === "ethereum") runtime.unsubscribes.set(key, followProvider(client, stored, handle));
  return wallet;
}

/** Forgets the connection of `address` (store, storage, listeners). */
export function removeConnected(client: Client, address: string): void {
  const runtime = runtimeOf(client);
  const key = address.toLowerCase();
  runtime.unsubscribes.get(key)?.();
  runtime.unsubscribes.delete(key);
  runtime.connectedHandles.delete(key);
  storedConnections.remove(client, address);
  const { connected } = client.store.getState().externalWallets;
  updateExternalWallets(client, { connected: connected.filter((w) => !sameAddress(w.address, address)) });
}

/** The connected wallet of `address` (default: the most recent one of `chainType`), else 'Wallet is not connected'. */
export function requireConnected(
  client: Client,
  chainType: "ethereum" | "solana",
  address?: string,
): ConnectedExternalWallet {
  const { connected } = client.store.getState().externalWallets;
  const wallet = connected.find(
    (w) => w.chainType === chainType && (address === undefined || sameAddress(w.address, address)),
  );
  if (!wallet) throw new WalletConnectionError("wallet_not_connected", "Wallet is not connected");
  return wallet;
}

function toConnectedWallet(
  client: Client,
  stored: StoredWalletConnection,
  handle: WalletHandle,
  chainId: string,
): ConnectedExternalWallet {
  return {
    ...stored,
    chainType: handle.kind,
    chainId,
    async getEthereumProvider(): Promise<EIP1193Provider> {
      if (handle.kind !== "ethereum")
        throw new WalletConnectionError("unsupported_method", "Not an Ethereum wallet");
      return handle.provider;
    },
    async signMessage(message: Uint8Array): Promise<Uint8Array> {
      if (handle.kind !== "solana")
        throw new WalletConnectionError("unsupported_method", "Not a Solana wallet");
      return signWithStandardWallet(handle.wallet, stored.address, message);
    },
    async disconnect(): Promise<void> {
      removeConnected(client, stored.address);
      try {
        if (handle.kind === "ethereum") await handle.provider.disconnect?.();
        else
          await (
            handle.wallet.features["standard:disconnect"] as StandardDisconnect | undefined
          )?.disconnect();
      } catch (e) {
        console.warn("Symbolon: the wallet failed to disconnect", e);
      }
    },
  };
}

type StandardDisconnect = { disconnect(): Promise<void> };
type SolanaSignMessage = {
  signMessage(
    ...inputs: Array<{ account: StandardAccount; message: Uint8Array }>
  ): Promise<Array<{ signedMessage: Uint8Array; signature: Uint8Array }>>;
};

/** `solana:signMessage` with the account of `address`. */
async function signWithStandardWallet(
  wallet: StandardWallet,
  address: string,
  message: Uint8Array,
): Promise<Uint8Array> {
  const account = wallet.accounts.find((a) => a.address === address);
  if (!account) throw new WalletConnectionError("wallet_not_connected", "Wallet is not connected");
  const feature = wallet.features["solana:signMessage"] as SolanaSignMessage;
  try {
    const [output] = await feature.signMessage({ account, message });
    if (!output) throw new Error("no signature");
    return output.signature;
  } catch (e) {
    throw toWalletError(e, "Unable to sign message");
  }
}

/** Follows `accountsChanged`, `chainChanged` and `disconnect` of a connected Ethereum wallet. */
function followProvider(
  client: Client,
  stored: StoredWalletConnection,
  handle: WalletHandle & { kind: "ethereum" },
): () => void {
  const provider = handle.provider;
  const onAccounts = (accounts: readonly string[]) => {
    const next = accounts[0];
    if (!next) return removeConnected(client, stored.address);
    if (sameAddress(next, stored.address)) return;
    // The user picked another account in the wallet: that one is now the connected one.
    const chainId = currentChain(client, stored.address);
    removeConnected(client, stored.address);
    addConnected(client, { ...stored, address: next, connectedAt: Date.now() }, handle, chainId);
  };
  const onChain = (chainId: string) => {
    const { connected } = client.store.getState().externalWallets;
    const caip2 = `eip155:${Number(chainId)}`;
    updateExternalWallets(client, {
      connected: connected.map((w) =>
        sameAddress(w.address, stored.address) ? { ...w, chainId: caip2 } : w,
      ),
    });
  };
  const onDisconnect = () => removeConnected(client, stored.address);
  if (typeof provider.on !== "function") return () => {};
  provider.on("accountsChanged", onAccounts);
  provider.on("chainChanged", onChain);
  provider.on("disconnect", onDisconnect);
  return () => {
    provider.removeListener?.("accountsChanged", onAccounts);
    provider.removeListener?.("chainChanged", onChain);
    provider.removeListener?.("disconnect", onDisconnect);
  };
}

function currentChain(client: Client, address: string): string {
  const wallet = client.store
    .getState()
    .externalWallets.connected.find((w) => sameAddress(w.address, address));
  return wallet?.chainId ?? `eip155:${client.store.getState().activeChainId}`;
}
