import {
  type Client,
  type ConnectedExternalWallet,
  type EIP1193Provider,
  EMBEDDED_LOGIN_MESSAGE,
  embeddedWalletState,
  getEmbeddedWallets,
  type User,
} from "@symbolon/core";
import { useMemo } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";
import { loadExternalWallets } from "./loadExternalWallets";
import { loadWalletActions } from "./loadWalletActions";
import { useClientState } from "./useClientState";

/** What every wallet of `useWallets` / `useSolanaWallets` offers. */
interface WalletCalls {
  address: string;
  /** `privy` for embedded wallets, else the external wallet's client (`metamask`, `phantom`, …). */
  walletClientType: string;
  /** `embedded`, `injected`, `wallet_connect`, `coinbase_wallet`, `solana_adapter`, … */
  connectorType: string;
  /** Whether the signed-in user has this wallet linked (embedded wallets always). */
  linked: boolean;
  /** Signs in with this wallet (SIWE/SIWS) when signed out, else links it to the user. */
  loginOrLink(): Promise<void>;
  /** Unlinks it from the user (embedded wallets cannot be unlinked). */
  unlink(): Promise<void>;
  /** Forgets the connection (external wallets; nothing for embedded ones). */
  disconnect(): Promise<void>;
}

/** An Ethereum wallet of the user: embedded, or an external one connected in this page. */
export interface ConnectedWallet extends WalletCalls {
  /** CAIP-2 id of the wallet's chain. */
  chainId: `eip155:${number}`;
  /** Embedded wallets: their index (first is 0); external: null. */
  walletIndex: number | null;
  imported: boolean;
  /** An EIP-1193 provider for this wallet (for viem's `custom()`, ethers' `BrowserProvider`). */
  getEthereumProvider(): Promise<EIP1193Provider>;
  /** Switches to a chain (embedded: configured chains only, others fail with 4902). */
  switchChain(chainId: number | `0x${string}`): Promise<void>;
}

/** A Solana wallet connected in this page (`useSolanaWallets`). */
export interface ConnectedSolanaWallet extends WalletCalls {
  /** A Solana cluster id (`solana:mainnet`, …). */
  chainId: string;
  /** Signs `message` with `solana:signMessage`; resolves with the 64-byte signature. */
  signMessage(message: Uint8Array): Promise<Uint8Array>;
}

const BUSY = new Set(["loading-frame", "creating", "connecting", "recovering"]);

/**
 * The user's Ethereum wallets: embedded ones (first first), then external wallets connected in this
 * page (most recent first); `ready` once the session and the embedded wallet settled.
 */
export function useWallets(): { ready: boolean; wallets: ConnectedWallet[] } {
  const { client } = usePrivyContext("useWallets");
  const ready = useClientState("useWallets", (state) => state.ready, false);
  const status = useClientState("useWallets", (state) => embeddedWalletState(state).status, "idle");
  const user = useClientState("useWallets", (state) => state.user, null);
  const activeChainId = useClientState("useWallets", (state) => state.activeChainId, 1);
  const connected = useClientState("useWallets", (state) => state.externalWallets.connected, NONE);
  const wallets = useMemo(() => {
    if (!client) return [];
    const embedded = getEmbeddedWallets(user).map((account) =>
      toEmbeddedWallet(client, account.address, account.wallet_index ?? 0, activeChainId),
    );
    const external = connected
      .filter((wallet) => wallet.chainType === "ethereum")
      .map((wallet) => toExternalWallet(client, user, wallet));
    return [...embedded, ...external];
  }, [client, user, activeChainId, connected]);
  return useMemo(() => ({ ready: ready && !BUSY.has(status), wallets }), [ready, status, wallets]);
}

/** Solana wallets connected in this page (Phantom, Solflare, Backpack, …), most recent first. */
export function useSolanaWallets(): { ready: boolean; wallets: ConnectedSolanaWallet[] } {
  const { client } = usePrivyContext("useSolanaWallets");
  const ready = useClientState("useSolanaWallets", (state) => state.ready, false);
  const user = useClientState("useSolanaWallets", (state) => state.user, null);
  const connected = useClientState("useSolanaWallets", (state) => state.externalWallets.connected, NONE);
  const wallets = useMemo(
    () =>
      client
        ? connected
            .filter((wallet) => wallet.chainType === "solana")
            .map((wallet) => ({
              ...externalCalls(client, user, wallet),
              chainId: wallet.chainId,
              signMessage: (message: Uint8Array) => wallet.signMessage(message),
            }))
        : [],
    [client, user, connected],
  );
  return useMemo(() => ({ ready, wallets }), [ready, wallets]);
}

const NONE: ConnectedExternalWallet[] = [];

function toEmbeddedWallet(
  client: Client,
  address: string,
  walletIndex: number,
  chainId: number,
): ConnectedWallet {
  const provider = async () => (await loadWalletActions()).getEthereumProvider(client, { address });
  return {
    address,
    chainId: `eip155:${chainId}`,
    walletClientType: "privy",
    connectorType: "embedded",
    walletIndex,
    imported: false,
    linked: true,
    getEthereumProvider: provider,
    switchChain: async (target) => switchChain(await provider(), target),
    loginOrLink: async () => {
      throw new Error(EMBEDDED_LOGIN_MESSAGE);
    },
    unlink: async () => {
      await (await loadExternalWallets()).unlinkWallet(client, address);
    },
    disconnect: async () => {},
  };
}

function toExternalWallet(
  client: Client,
  user: User | null,
  wallet: ConnectedExternalWallet,
): ConnectedWallet {
  return {
    ...externalCalls(client, user, wallet),
    chainId: wallet.chainId as `eip155:${number}`,
    walletIndex: null,
    imported: false,
    getEthereumProvider: () => wallet.getEthereumProvider(),
    switchChain: async (target) => switchChain(await wallet.getEthereumProvider(), target),
  };
}

function externalCalls(client: Client, user: User | null, wallet: ConnectedExternalWallet): WalletCalls {
  const { address } = wallet;
  const solana = wallet.chainType === "solana";
  return {
    address,
    walletClientType: wallet.walletClientType,
    connectorType: wallet.connectorType,
    linked: isLinked(user, address),
    async loginOrLink() {
      const actions = await loadExternalWallets();
      if (client.store.getState().authenticated)
        await (solana ? actions.linkWithSiws : actions.linkWithSiwe)(client, { address });
      else await (solana ? actions.loginWithSiws : actions.loginWithSiwe)(client, { address });
    },
    async unlink() {
      await (await loadExternalWallets()).unlinkWallet(client, address);
    },
    async disconnect() {
      await (await loadExternalWallets()).disconnectWallet(client, address);
    },
  };
}

function isLinked(user: User | null, address: string): boolean {
  const wanted = address.toLowerCase();
  return (
    user?.linked_accounts.some((a) => a.type === "wallet" && a.address.toLowerCase() === wanted) ?? false
  );
}

async function switchChain(provider: EIP1193Provider, target: number | `0x${string}`): Promise<void> {
  const hex = typeof target === "number" ? (`0x${target.toString(16)}` as const) : target;
  await provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId: hex }] });
}
