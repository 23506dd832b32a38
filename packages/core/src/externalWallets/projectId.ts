import type { Client } from "../client/createClient.ts";

/** Spec §3: the WalletConnect Cloud project id: the client option, else the app config's; null without one. */
export function walletConnectProjectId(client: Client): string | null {
  if (client.options.walletConnectCloudProjectId) return client.options.walletConnectCloudProjectId;
  // TODO(protocol): typed once the server adds it to AppConfigResponse.
  const config = client.store.getState().appConfig as { wallet_connect_cloud_project_id?: unknown } | null;
  const fromConfig = config?.wallet_connect_cloud_project_id;
  return typeof fromConfig === "string" && fromConfig !== "" ? fromConfig : null;
}
