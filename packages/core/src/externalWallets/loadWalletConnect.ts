// The WalletConnect connector (externalWallets/walletConnect, written to the contract in types.ts) and its
// libraries load only when someone picks WalletConnect. This module is itself imported lazily, so a
// build or test that never opens WalletConnect does not resolve it.
import type { Client } from "../client/createClient.ts";
import type { ConnectWalletConnectOptions, WalletConnectProvider } from "./types.ts";

type ConnectWalletConnect = (
  client: Client,
  options: ConnectWalletConnectOptions,
) => Promise<WalletConnectProvider>;

/** `connectWalletConnect` of the connector module. */
export async function loadWalletConnect(): Promise<ConnectWalletConnect> {
  const module = (await import(
    // @ts-expect-error -- written by the walletconnect helper; remove this line once it is committed.
    "./walletConnect/index.ts"
  )) as { connectWalletConnect: ConnectWalletConnect };
  return module.connectWalletConnect;
}
