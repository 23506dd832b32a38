import { getAccessTokenForProvider } from "../actions/getAccessTokenForProvider.ts";
import type { Client } from "../client/createClient.ts";
import { CrossAppError } from "../errors/CrossAppError.ts";
import { getCrossAppConnections } from "./getCrossAppConnections.ts";
import { waitForCrossAppAnswer } from "./waitForCrossAppAnswer.ts";

/** One wallet request the provider's signing page performs. */
export interface CrossAppRequest {
  method: "personal_sign" | "eth_signTypedData_v4" | "eth_signTransaction";
  params: unknown[];
  /** eth_signTransaction: the (fully filled) transaction's chain. */
  chain?: {
    id: number;
    name: string;
    rpcUrl: string;
    nativeCurrency: { name: string; symbol: string; decimals: number };
  };
}

/** Parameters of {@link requestCrossAppAction}. */
export interface RequestCrossAppActionParameters {
  /** The provider app whose wallet signs. */
  appId: string;
  /** The wallet: one of the user's cross-app account's wallets for that app. */
  address: string;
  request: CrossAppRequest;
  /** Default: `window.open`. */
  open?: (url: string, name: string, features: string) => Window | null;
  /** Where the answer arrives; default `window`. */
  target?: Pick<Window, "addEventListener" | "removeEventListener">;
}

/** The cross-app account of the signed-in user for provider `appId`, if any. */
function crossAppAccount(client: Client, appId: string) {
  const accounts = client.store.getState().user?.linked_accounts ?? [];
  for (const account of accounts) {
    if (account.type === "cross_app" && account.provider_app_id === appId) return account;
  }
  return null;
}

/**
 * Asks provider app `appId` to perform `request` with its wallet `address` (spec §4 cross-app
 * signing): checks the connection (listed, not read-only), the provider token and the address,
 * then opens the provider's signing page (default `{apiUrl}/oauth/transact`) in a popup with the
 * token and the request, and waits for its answer.
 */
export async function requestCrossAppAction(
  client: Client,
  {
    appId,
    address,
    request,
    open = (url, name, features) => window.open(url, name, features),
    target,
  }: RequestCrossAppActionParameters,
): Promise<{ signature?: string; hash?: string }> {
  const connection = (await getCrossAppConnections(client)).find((c) => c.provider_app_id === appId);
  if (connection === undefined) throw new CrossAppError("invalid_connected_app");
  if (connection.read_only) throw new CrossAppError("read_only_provider");
  const token = getAccessTokenForProvider(client, `privy:${appId}`);
  if (token === null) throw new CrossAppError("missing_provider_token");
  const account = crossAppAccount(client, appId);
  const wallets = [...(account?.embedded_wallets ?? []), ...(account?.smart_wallets ?? [])];
  if (!wallets.some((w) => w.address.toLowerCase() === address.toLowerCase())) {
    throw new CrossAppError("invalid_wallet_address");
  }
  const base = (connection.provider_app_custom_api_url ?? client.options.apiUrl).replace(/\/+$/, "");
  const url = new URL(connection.provider_app_custom_auth_transact_url ?? `${base}/oauth/transact`);
  url.searchParams.set("token", token);
  url.searchParams.set("request", JSON.stringify(request));
  url.searchParams.set("origin", globalThis.location?.origin ?? "");
  const popup = open(url.toString(), "privy-cross-app", "width=440,height=680");
  if (popup === null) throw new CrossAppError("popup_blocked");
  return waitForCrossAppAnswer({ popup, providerOrigin: url.origin, ...(target && { target }) });
}
