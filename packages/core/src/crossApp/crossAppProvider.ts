import type { Client } from "../client/createClient.ts";

/** Where a cross-app request goes: the provider app and its wallet. */
export interface CrossAppWalletOptions {
  /** The provider app id; default: the only cross-app account's. */
  appId?: string;
  /** One of the cross-app account's wallets. */
  address: string;
}

/** The provider of a cross-app request: `appId`, or the app of the account holding `address`. */
export function crossAppProvider(client: Client, { appId, address }: CrossAppWalletOptions): string {
  if (appId !== undefined) return appId;
  for (const account of client.store.getState().user?.linked_accounts ?? []) {
    if (account.type !== "cross_app") continue;
    const wallets = [...account.embedded_wallets, ...account.smart_wallets];
    if (wallets.some((w) => w.address.toLowerCase() === address.toLowerCase()))
      return account.provider_app_id;
  }
  return "";
}
