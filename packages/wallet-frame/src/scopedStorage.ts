// A view of a `Storage` holding only the entries under one prefix (the app and embedder scope of
// `embedder.ts`): the device store and the MFA token store keep their own key names inside it.
import type { TokenStorage } from "./mfa/mfaTokens.ts";

/**
 * `storage()` seen through `scope()` (both resolved per call: `scope()` throws while the embedder
 * is unverified, before `storage()` is touched). `key`/`length` count this scope's entries only.
 */
export function scopedStorage(storage: () => TokenStorage, scope: () => string): TokenStorage {
  function ownKeys(): string[] {
    const prefix = scope();
    const store = storage();
    const keys: string[] = [];
    for (let i = 0; i < store.length; i += 1) {
      const key = store.key(i);
      if (key?.startsWith(prefix)) keys.push(key.slice(prefix.length));
    }
    return keys;
  }
  return {
    getItem: (key) => {
      const prefix = scope();
      return storage().getItem(prefix + key);
    },
    setItem: (key, value) => {
      const prefix = scope();
      storage().setItem(prefix + key, value);
    },
    removeItem: (key) => {
      const prefix = scope();
      storage().removeItem(prefix + key);
    },
    key: (index) => ownKeys()[index] ?? null,
    get length() {
      return ownKeys().length;
    },
  };
}
