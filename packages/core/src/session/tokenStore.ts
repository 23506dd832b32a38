import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import type { User } from "../generated/protocol.ts";
import { type StoredItem, storageKey } from "./storageKey.ts";

/** The session as kept in storage (shared by the tabs of one origin). */
export interface StoredSession {
  token: string | null;
  refreshToken: string | null;
  identityToken: string | null;
}

const SECRET_ITEMS: StoredItem[] = ["token", "refresh_token", "id_token", "privy_access_token", "user"];

/** Reads and writes the session in the client's storage. */
export const tokenStore = {
  read(client: Client): StoredSession {
    return {
      token: get(client, "token"),
      refreshToken: get(client, "refresh_token"),
      identityToken: get(client, "id_token"),
    };
  },
  /** Sets the given items; `null` removes one, `undefined` leaves it alone. */
  write(client: Client, items: Partial<Record<StoredItem, string | null>>): void {
    for (const [item, value] of Object.entries(items) as Array<[StoredItem, string | null | undefined]>) {
      if (value === undefined) continue;
      const key = storageKey(client.options.appId, item);
      if (value === null) internals(client).storage().removeItem(key);
      else internals(client).storage().setItem(key, value);
    }
  },
  /** The user cached for instant render, or null. */
  readUser(client: Client): User | null {
    const raw = get(client, "user");
    if (raw === null) return null;
    try {
      return JSON.parse(raw) as User;
    } catch {
      return null;
    }
  },
  writeUser(client: Client, user: User | null): void {
    tokenStore.write(client, { user: user === null ? null : JSON.stringify(user) });
  },
  /** Removes every secret and the cached user. */
  clear(client: Client): void {
    tokenStore.write(client, Object.fromEntries(SECRET_ITEMS.map((item) => [item, null])));
  },
};

function get(client: Client, item: StoredItem): string | null {
  return internals(client).storage().getItem(storageKey(client.options.appId, item));
}
