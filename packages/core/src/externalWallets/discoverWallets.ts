import type { EIP1193Provider } from "viem";
import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import { addOption, STATIC_OPTIONS } from "./options.ts";
import { runtimeOf, type StandardWallet } from "./runtime.ts";
import { INJECTED_INIT_WAIT_MS, type WalletOption } from "./types.ts";
import { injectedClientType, walletClientTypeOf } from "./walletClientType.ts";

/** EIP-6963 `eip6963:announceProvider` detail. */
interface Eip6963Detail {
  info: { uuid: string; name: string; icon: string; rdns: string };
  provider: EIP1193Provider;
}

/** The id of the legacy `window.ethereum` option. */
export const INJECTED_ID = "injected";

/**
 * Finds the wallets of this page and fills `externalWallets.options`: EIP-6963 announcements (now and
 * later), Wallet Standard Solana wallets (now and later), and `window.ethereum` as a fallback once the
 * injected-wallet wait (spec §9, 1000 ms since the client started) passed without it being announced. Idempotent: later calls
 * wait for the same discovery. Outside a browser only WalletConnect and Coinbase Wallet are offered.
 */
export async function discoverWallets(client: Client): Promise<WalletOption[]> {
  const runtime = runtimeOf(client);
  runtime.discovering ??= discover(client);
  await runtime.discovering;
  return client.store.getState().externalWallets.options;
}

async function discover(client: Client): Promise<void> {
  for (const option of STATIC_OPTIONS) addOption(client, option);
  if (typeof window === "undefined") return;
  listenEip6963(client);
  await Promise.all([
    watchWalletStandard(client).catch((e: unknown) =>
      console.warn("Symbolon: Wallet Standard discovery failed", e),
    ),
    injectedWait(client),
  ]);
  addLegacyInjected(client);
}

/** Spec §9: injected wallets get 1000 ms from the client's start-up to show up (not from each discovery). */
async function injectedWait(client: Client): Promise<void> {
  const own = internals(client);
  const left = INJECTED_INIT_WAIT_MS - (Date.now() - own.createdAt);
  if (left > 0) await own.sleep(left);
}

function listenEip6963(client: Client): void {
  const onAnnounce = (event: Event) => {
    const detail = (event as CustomEvent<Eip6963Detail>).detail;
    if (!detail?.info?.rdns || typeof detail.provider?.request !== "function") return;
    const { info, provider } = detail;
    addOption(
      client,
      {
        id: info.rdns,
        name: info.name,
        icon: info.icon || null,
        chainType: "ethereum",
        connectorType: "injected",
        walletClientType: walletClientTypeOf({ rdns: info.rdns, name: info.name }),
        installed: true,
      },
      { kind: "ethereum", provider },
    );
  };
  window.addEventListener("eip6963:announceProvider", onAnnounce);
  internals(client).cleanups.push(() => window.removeEventListener("eip6963:announceProvider", onAnnounce));
  window.dispatchEvent(new Event("eip6963:requestProvider"));
}

/** `window.ethereum`, unless an EIP-6963 announcement already offered that very provider. */
function addLegacyInjected(client: Client): void {
  const ethereum = (window as { ethereum?: EIP1193Provider }).ethereum;
  if (!ethereum || typeof ethereum.request !== "function") return;
  const handles = runtimeOf(client).handles;
  for (const handle of handles.values())
    if (handle.kind === "ethereum" && handle.provider === ethereum) return;
  const { type, name } = injectedClientType(ethereum as unknown as Record<string, unknown>);
  addOption(
    client,
    {
      id: INJECTED_ID,
      name,
      icon: null,
      chainType: "ethereum",
      connectorType: "injected",
      walletClientType: type,
      installed: true,
    },
    { kind: "ethereum", provider: ethereum },
  );
}

/** Solana wallets registered through the Wallet Standard (Phantom, Solflare, Backpack, the test wallet). */
async function watchWalletStandard(client: Client): Promise<void> {
  const { getWallets } = await import("@wallet-standard/app");
  const wallets = getWallets();
  const add = (...found: readonly StandardWallet[]) => {
    for (const wallet of found)
      if (isSolanaWallet(wallet)) addOption(client, solanaOption(wallet), { kind: "solana", wallet });
  };
  add(...(wallets.get() as readonly StandardWallet[]));
  const off = wallets.on("register", (...registered) => add(...(registered as readonly StandardWallet[])));
  internals(client).cleanups.push(off);
}

function isSolanaWallet(wallet: StandardWallet): boolean {
  return (
    wallet.chains.some((chain) => chain.startsWith("solana:")) &&
    "standard:connect" in wallet.features &&
    "solana:signMessage" in wallet.features
  );
}

function solanaOption(wallet: StandardWallet): WalletOption {
  const walletClientType = walletClientTypeOf({ name: wallet.name });
  return {
    id: `solana:${walletClientType}`,
    name: wallet.name,
    icon: wallet.icon || null,
    chainType: "solana",
    connectorType: "solana_adapter",
    walletClientType,
    installed: true,
  };
}
