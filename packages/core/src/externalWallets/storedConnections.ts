import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import { storageKey } from "../session/storageKey.ts";
import type { StoredWalletConnection } from "./types.ts";

/** Spec §3 stored wallet connections, kept under the app's key (`privy:wallet_connections:<appId>`). */
export const storedConnections = {
  read(client: Client): StoredWalletConnection[] {
    const raw = internals(client).storage().getItem(key(client));
    if (raw === null) return [];
    try {
      const parsed: unknown = JSON.parse(raw);
      return Array.isArray(parsed) ? parsed.filter(isStoredConnection) : [];
    } catch {
      return [];
    }
  },
  /** Puts `connection` first (replacing an older one of the same address). */
  save(client: Client, connection: StoredWalletConnection): void {
    const others = storedConnections.read(client).filter((c) => !sameAddress(c.address, connection.address));
    write(client, [connection, ...others]);
  },
  remove(client: Client, address: string): void {
    write(
      client,
      storedConnections.read(client).filter((c) => !sameAddress(c.address, address)),
    );
  },
};

/** Ethereum addresses compare without case; Solana (base58) addresses are case-sensitive. */
export function sameAddress(a: string, b: string): boolean {
  return a.startsWith("0x") ? a.toLowerCase() === b.toLowerCase() : a === b;
}

function write(client: Client, list: StoredWalletConnection[]): void {
  const storage = internals(client).storage();
  if (list.length === 0) storage.removeItem(key(client));
  else storage.setItem(key(client), JSON.stringify(list));
}

function key(client: Client): string {
  return storageKey(client.options.appId, "wallet_connections");
}

function isStoredConnection(value: unknown): value is StoredWalletConnection {
  if (typeof value !== "object" || value === null) return false;
  const c = value as Record<string, unknown>;
  return (
    typeof c.address === "string" &&
    typeof c.connectorType === "string" &&
    typeof c.walletClientType === "string" &&
    typeof c.connectedAt === "number" &&
    typeof c.id === "string"
  );
}
