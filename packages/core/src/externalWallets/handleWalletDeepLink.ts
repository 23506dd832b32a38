import type { Client } from "../client/createClient.ts";
import { connectWallet } from "./connectWallet.ts";
import { discoverWallets } from "./discoverWallets.ts";
import { DEEP_LINK_PARAMS } from "./pendingWalletWork.ts";
import { loginWithSiwe, loginWithSiws } from "./siwe.ts";
import type { ConnectedExternalWallet } from "./types.ts";

/**
 * Handles `privy_connector` (e.g. `injected`), `privy_wallet_client` (e.g. `metamask`) and
 * `privy_connect_only`: connects that wallet, then signs in with it unless connect-only or already
 * signed in. The parameters leave the address bar (`history.replaceState`) whatever the outcome.
 * Resolves with the connected wallet, or null when the page had no such parameters.
 */
export async function handleWalletDeepLink(client: Client): Promise<ConnectedExternalWallet | null> {
  if (typeof window === "undefined") return null;
  const url = new URL(window.location.href);
  const connector = url.searchParams.get("privy_connector");
  const walletClient = url.searchParams.get("privy_wallet_client");
  const connectOnly = url.searchParams.get("privy_connect_only");
  if (connector === null && walletClient === null && connectOnly === null) return null;
  try {
    const options = await discoverWallets(client);
    const option =
      options.find((o) => o.connectorType === connector && o.walletClientType === walletClient) ??
      options.find((o) => o.installed && (connector === null || o.connectorType === connector));
    if (!option) return null;
    const wallet = await connectWallet(client, { walletId: option.id });
    const signIn = connectOnly !== "true" && connectOnly !== "1" && !client.store.getState().authenticated;
    if (signIn)
      await (wallet.chainType === "solana" ? loginWithSiws : loginWithSiwe)(client, {
        address: wallet.address,
      });
    return wallet;
  } catch (e) {
    // The failure is in the connection / SIWE state for the UI to show.
    console.warn("Symbolon: the wallet deep link failed", e);
    return null;
  } finally {
    removeParams();
  }
}

/** A link that opens `href` with the deep-link parameters (e.g. in a mobile wallet's browser). */
export function buildWalletDeepLink(
  href: string,
  params: { connector: string; walletClient: string; connectOnly?: boolean },
): string {
  const url = new URL(href);
  url.searchParams.set("privy_connector", params.connector);
  url.searchParams.set("privy_wallet_client", params.walletClient);
  if (params.connectOnly) url.searchParams.set("privy_connect_only", "true");
  return url.toString();
}

function removeParams(): void {
  const url = new URL(window.location.href);
  for (const name of DEEP_LINK_PARAMS) url.searchParams.delete(name);
  window.history.replaceState(window.history.state, "", url.toString());
}
