import type { Client } from "../client/createClient.ts";
import { runtimeOf, updateExternalWallets, type WalletHandle } from "./runtime.ts";
import { WALLET_CONNECT_ID, type WalletOption } from "./types.ts";

/** The Coinbase Wallet SDK option (offered when the extension did not announce itself). */
export const COINBASE_SDK_ID = "coinbase_wallet";
/** The extension's EIP-6963 rdns. */
export const COINBASE_RDNS = "com.coinbase.wallet";

/** Options every page offers, installed or not: WalletConnect and the Coinbase Wallet SDK. */
export const STATIC_OPTIONS: readonly WalletOption[] = [
  {
    id: COINBASE_SDK_ID,
    name: "Coinbase Wallet",
    icon: null,
    chainType: "ethereum",
    connectorType: "coinbase_wallet",
    walletClientType: "coinbase_wallet",
    installed: false,
  },
  {
    id: WALLET_CONNECT_ID,
    name: "WalletConnect",
    icon: null,
    chainType: "ethereum",
    connectorType: "wallet_connect",
    walletClientType: "wallet_connect",
    installed: false,
  },
];

/** Adds (or replaces) an option; installed ones come first, in the order they were found. */
export function addOption(client: Client, option: WalletOption, handle?: WalletHandle): void {
  if (handle) runtimeOf(client).handles.set(option.id, handle);
  const { options } = client.store.getState().externalWallets;
  const others = options.filter((o) => o.id !== option.id);
  const index = options.findIndex((o) => o.id === option.id);
  const next = index === -1 ? [...others, option] : options.map((o) => (o.id === option.id ? option : o));
  // The Coinbase SDK option is redundant once the extension announced itself.
  const deduped = next.filter((o) => !(o.id === COINBASE_SDK_ID && next.some((x) => x.id === COINBASE_RDNS)));
  const sorted = [...deduped.filter((o) => o.installed), ...deduped.filter((o) => !o.installed)];
  updateExternalWallets(client, { options: sorted });
}

/** The option `walletId` names: a discovered one, or one of the last wallet directory. */
export function findOption(client: Client, walletId: string): WalletOption | undefined {
  return (
    client.store.getState().externalWallets.options.find((o) => o.id === walletId) ??
    runtimeOf(client).directory.get(walletId)
  );
}
