import type { Client } from "../client/createClient.ts";
import { addConnected, SOLANA_MAINNET } from "./connectedWallets.ts";
import { discoverWallets } from "./discoverWallets.ts";
import { runtimeOf, type StandardConnect, type WalletHandle } from "./runtime.ts";
import { sameAddress, storedConnections } from "./storedConnections.ts";
import type { ConnectedExternalWallet, StoredWalletConnection } from "./types.ts";

/**
 * Reconnects the stored wallet connections (spec §3) without prompting: an Ethereum wallet still
 * sharing the address in `eth_accounts`, a Solana wallet answering a silent `standard:connect`.
 * A wallet that no longer shares the address is forgotten; one not (yet) found is kept for later.
 */
export async function restoreWalletConnections(client: Client): Promise<ConnectedExternalWallet[]> {
  const stored = storedConnections.read(client);
  if (stored.length === 0) return [];
  await discoverWallets(client);
  const restored: ConnectedExternalWallet[] = [];
  // Oldest first, so the most recent one ends first in `connected`.
  for (const connection of [...stored].reverse()) {
    const handle =
      runtimeOf(client).handles.get(connection.id) ?? (await walletConnectHandle(client, connection));
    if (!handle) continue;
    try {
      if (handle.kind === "ethereum") {
        const accounts = (await handle.provider.request({ method: "eth_accounts" })) as string[];
        if (!accounts.some((a) => sameAddress(a, connection.address))) {
          storedConnections.remove(client, connection.address);
          continue;
        }
        const chainId = Number(await handle.provider.request({ method: "eth_chainId" }));
        restored.push(addConnected(client, connection, handle, `eip155:${chainId}`));
      } else {
        const connect = handle.wallet.features["standard:connect"] as StandardConnect;
        const { accounts } = await connect.connect({ silent: true });
        const account = accounts.find((a) => a.address === connection.address);
        if (!account) {
          storedConnections.remove(client, connection.address);
          continue;
        }
        const chainId = account.chains.find((c) => c.startsWith("solana:")) ?? SOLANA_MAINNET;
        restored.push(addConnected(client, connection, handle, chainId));
      }
    } catch (e) {
      console.warn("Symbolon: could not restore a wallet connection", e);
    }
  }
  if (restored.length > 0) {
    const { connection } = client.store.getState().externalWallets;
    if (connection.status === "disconnected" && connection.error === null)
      client.store.setState({
        externalWallets: {
          ...client.store.getState().externalWallets,
          connection: {
            ...connection,
            status: "connected",
            walletId: restored[restored.length - 1]?.id ?? null,
          },
        },
      });
  }
  return restored.reverse();
}

/** A WalletConnect session the library kept from an earlier page load (no new QR code). */
async function walletConnectHandle(
  client: Client,
  connection: StoredWalletConnection,
): Promise<WalletHandle | null> {
  if (connection.connectorType !== "wallet_connect") return null;
  const { restoreWalletConnect } = await import("./walletConnect/index.ts");
  const provider = await restoreWalletConnect(client);
  return provider ? { kind: "ethereum", provider } : null;
}
