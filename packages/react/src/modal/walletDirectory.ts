import { type Client, fetchWalletDirectory, type WalletOption, walletConnectProjectId } from "@symbolon/core";

// One directory read per client and page: the list reopens without asking the explorer again.
const reads = new WeakMap<Client, Promise<WalletOption[]>>();
const lists = new WeakMap<Client, WalletOption[]>();

/**
 * The wallet directory (spec §7, core `fetchWalletDirectory`) when the app has a WalletConnect
 * project id, else none; a failed read gives [] (core logs it).
 */
export function loadWalletDirectory(client: Client): Promise<WalletOption[]> {
  if (!walletConnectProjectId(client)) return Promise.resolve([]);
  let read = reads.get(client);
  if (!read) {
    read = fetchWalletDirectory(client)
      .catch(() => [])
      .then((list) => {
        lists.set(client, list);
        return list;
      });
    reads.set(client, read);
  }
  return read;
}

/** The option `walletId` names: one found in the page, or a listing of the directory read so far. */
export function walletOptionOf(client: Client, walletId: string | null | undefined): WalletOption | null {
  if (!walletId) return null;
  const found = client.store.getState().externalWallets.options.find((option) => option.id === walletId);
  return found ?? lists.get(client)?.find((option) => option.id === walletId) ?? null;
}
