import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import { addConnected, removeConnected, SOLANA_MAINNET } from "./connectedWallets.ts";
import { openHandle } from "./connectors.ts";
import { discoverWallets } from "./discoverWallets.ts";
import { findOption } from "./options.ts";
import { runtimeOf, type StandardConnect, updateExternalWallets, type WalletHandle } from "./runtime.ts";
import { isSupportedChain, switchToChain, walletChainId } from "./switchChain.ts";
import {
  CONNECTOR_INIT_WAIT_MS,
  type ConnectedExternalWallet,
  type ConnectWalletParameters,
  type WalletConnection,
  type WalletOption,
} from "./types.ts";
import { toWalletError, WalletConnectionError } from "./WalletConnectionError.ts";

/**
 * Connects the wallet `walletId` names (spec §4 wallet connection): disconnected → connecting →
 * switching_to_supported_chain (when the wallet is on a chain the client does not use) → connected.
 * Failure goes back to disconnected with the error ('Unable to connect to wallet.', the provider's
 * code as `code`/`rpcCode`: 4001 is `user_rejected_request`); `retryConnectWallet` tries again.
 */
export async function connectWallet(
  client: Client,
  params: ConnectWalletParameters,
): Promise<ConnectedExternalWallet> {
  const runtime = runtimeOf(client);
  runtime.lastConnect = { ...params };
  const { walletId } = params;
  setConnection(client, { status: "connecting", walletId, error: null, pairingUri: null });
  try {
    const option = await resolveOption(client, walletId);
    const handle = await openHandle(client, option, (uri) =>
      setConnection(client, { status: "connecting", walletId, error: null, pairingUri: uri }),
    );
    const wallet =
      handle.kind === "ethereum"
        ? await connectEthereum(client, option, handle)
        : await connectSolana(client, option, handle);
    setConnection(client, { status: "connected", walletId, error: null, pairingUri: null });
    return wallet;
  } catch (e) {
    const error = toWalletError(e);
    setConnection(client, { status: "disconnected", walletId, error, pairingUri: null });
    throw error;
  }
}

/** Spec §4: the retry function of a failed connection (connects the same wallet again). */
export async function retryConnectWallet(client: Client): Promise<ConnectedExternalWallet> {
  const last = runtimeOf(client).lastConnect;
  if (!last) throw new WalletConnectionError("wallet_not_connected", "Wallet is not connected");
  return connectWallet(client, last);
}

/** Forgets the connection of `address` and asks the wallet to close it (WalletConnect sessions end). */
export async function disconnectWallet(client: Client, address: string): Promise<void> {
  const wallet = client.store
    .getState()
    .externalWallets.connected.find((w) => w.address.toLowerCase() === address.toLowerCase());
  if (wallet) await wallet.disconnect();
  else removeConnected(client, address);
  if (client.store.getState().externalWallets.connected.length === 0)
    setConnection(client, { status: "disconnected", walletId: null, error: null, pairingUri: null });
}

/** The option, waiting for discovery and then for the connector to initialise (spec §9, 1500 ms). */
async function resolveOption(client: Client, walletId: string): Promise<WalletOption> {
  let option = findOption(client, walletId);
  if (!option) {
    await discoverWallets(client);
    option = findOption(client, walletId);
  }
  if (!option) {
    await internals(client).sleep(CONNECTOR_INIT_WAIT_MS);
    option = findOption(client, walletId);
  }
  if (!option) throw new WalletConnectionError("generic_connect_wallet_error", `Unknown wallet ${walletId}`);
  return option;
}

async function connectEthereum(
  client: Client,
  option: WalletOption,
  handle: WalletHandle & { kind: "ethereum" },
): Promise<ConnectedExternalWallet> {
  const { provider } = handle;
  const accounts = (await provider.request({ method: "eth_requestAccounts" })) as string[];
  const address = accounts[0];
  if (!address) throw new WalletConnectionError("unauthorized", "The wallet shared no account.", 4100);
  let chainId = await walletChainId(provider);
  if (!isSupportedChain(client, chainId)) {
    setConnection(client, {
      ...client.store.getState().externalWallets.connection,
      status: "switching_to_supported_chain",
    });
    const target = client.store.getState().activeChainId;
    await switchToChain(client, provider, target);
    chainId = target;
  }
  return addConnected(client, storedOf(option, address), handle, `eip155:${chainId}`);
}

async function connectSolana(
  client: Client,
  option: WalletOption,
  handle: WalletHandle & { kind: "solana" },
): Promise<ConnectedExternalWallet> {
  const connect = handle.wallet.features["standard:connect"] as StandardConnect;
  const { accounts } = await connect.connect();
  const account = accounts.find((a) => a.chains.some((c) => c.startsWith("solana:"))) ?? accounts[0];
  if (!account) throw new WalletConnectionError("unauthorized", "The wallet shared no account.", 4100);
  const chainId = account.chains.find((c) => c.startsWith("solana:")) ?? SOLANA_MAINNET;
  return addConnected(client, storedOf(option, account.address), handle, chainId);
}

function storedOf(option: WalletOption, address: string) {
  return {
    address,
    connectorType: option.connectorType,
    walletClientType: option.walletClientType,
    connectedAt: Date.now(),
    id: option.id,
  };
}

function setConnection(client: Client, connection: WalletConnection): void {
  updateExternalWallets(client, { connection });
}
