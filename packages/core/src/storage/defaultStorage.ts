import { createMemoryStorage } from "./createMemoryStorage.ts";
import type { KeyValueStorage } from "./KeyValueStorage.ts";

/** `window.localStorage` when the page may use it, else an in-memory storage (SSR, sandboxed frames). */
export function defaultStorage(): KeyValueStorage {
  if (typeof window === "undefined") return createMemoryStorage();
  try {
    const storage = window.localStorage;
    // Safari private mode and sandboxed frames throw on access or on write.
    // Not under "privy:", so other tabs' storage listeners ignore it.
    const probe = "symbolon:probe";
    storage.setItem(probe, "1");
    storage.removeItem(probe);
    return storage;
  } catch {
    return createMemoryStorage();
  }
}
