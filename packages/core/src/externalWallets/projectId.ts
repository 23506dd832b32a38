import type { Client } from "../client/createClient.ts";

/** Spec §3: the WalletConnect Cloud project id: the client option, else the app config's; null without one. */
export function walletConnectProjectId(client: Client): string | null {
  if (client.options.walletConnectCloudProjectId) return client.options.walletConnectCloudProjectId;
  return client.store.getState().appConfig?.wallet_connect_cloud_project_id || null;
}
