import type { EIP1193Provider } from "viem";
import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import type { ConnectWalletParameters, ExternalWalletsState, WalletOption } from "./types.ts";

/** A Wallet Standard wallet, typed as far as the client uses it (no static import of the library). */
export interface StandardWallet {
  readonly name: string;
  readonly icon: string;
  readonly chains: readonly string[];
  readonly accounts: readonly StandardAccount[];
  readonly features: Readonly<Record<string, unknown>>;
}

/** A Wallet Standard account. */
export interface StandardAccount {
  readonly address: string;
  readonly publicKey: ArrayLike<number>;
  readonly chains: readonly string[];
}

/** The `standard:connect` feature (`silent` asks without prompting). */
export type StandardConnect = {
  connect(input?: { silent?: boolean }): Promise<{ accounts: readonly StandardAccount[] }>;
};

/** What a connector hands back for an option: an EIP-1193 provider or a Solana wallet. */
export type WalletHandle =
  | { kind: "ethereum"; provider: EIP1193Provider & { disconnect?(): Promise<void> } }
  | { kind: "solana"; wallet: StandardWallet };

/** Per-client machinery of the external wallets that does not belong in the (serialisable) store. */
export interface ExternalWalletsRuntime {
  /** Installed wallets by `WalletOption.id`. */
  handles: Map<string, WalletHandle>;
  /** Connected wallets' handles by lower-cased address. */
  connectedHandles: Map<string, WalletHandle>;
  /** Provider event unsubscribes by lower-cased address. */
  unsubscribes: Map<string, () => void>;
  /** The discovery in flight or done. */
  discovering: Promise<void> | null;
  /** What the last `connectWallet` was asked, for `retryConnectWallet`. */
  lastConnect: ConnectWalletParameters | null;
  /** The last wallet directory by option id (so `connectWallet` can open its entries). */
  directory: Map<string, WalletOption>;
}

const runtimes = new WeakMap<Client, ExternalWalletsRuntime>();

/** The external-wallet runtime of `client`, created on first use (torn down by `client.destroy()`). */
export function runtimeOf(client: Client): ExternalWalletsRuntime {
  let runtime = runtimes.get(client);
  if (runtime) return runtime;
  const created: ExternalWalletsRuntime = {
    handles: new Map(),
    connectedHandles: new Map(),
    unsubscribes: new Map(),
    discovering: null,
    lastConnect: null,
    directory: new Map(),
  };
  runtimes.set(client, created);
  internals(client).cleanups.push(() => {
    for (const unsubscribe of created.unsubscribes.values()) unsubscribe();
    created.unsubscribes.clear();
  });
  runtime = created;
  return runtime;
}

/** Shallow-merges `partial` into `externalWallets`. */
export function updateExternalWallets(client: Client, partial: Partial<ExternalWalletsState>): void {
  const current = client.store.getState().externalWallets;
  client.store.setState({ externalWallets: { ...current, ...partial } });
}
