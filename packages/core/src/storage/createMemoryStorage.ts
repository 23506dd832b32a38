import type { KeyValueStorage } from "./KeyValueStorage.ts";

/** A storage that lives in memory only (server rendering, tests, blocked localStorage). */
export function createMemoryStorage(): KeyValueStorage {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => {
      items.set(key, String(value));
    },
    removeItem: (key) => {
      items.delete(key);
    },
  };
}
