// The frame's device signing key: a non-extractable Web Crypto ECDSA P-256 key per user, kept
// in the frame origin's IndexedDB (CryptoKeys are structured-cloneable, so the private key is
// stored without ever being exported). Its public key is registered with the server beside the
// auth share; unlocking the auth share takes this key's signature of a server nonce.
import { toBase64 } from "./base64.ts";
import { FrameError } from "./frameError.ts";

/** A device key: the private CryptoKey (never extractable) and the public key, base64 raw. */
export interface DeviceKey {
  privateKey: CryptoKey;
  /** Base64 of the 65-byte uncompressed SEC1 point, as registered with the server. */
  publicKey: string;
}

export interface DeviceKeyStore {
  get(userId: string): Promise<DeviceKey | null>;
  put(userId: string, key: DeviceKey): Promise<void>;
  delete(userId: string): Promise<void>;
}

/** A fresh device key; the private half cannot be exported, even by this page. */
export async function generateDeviceKey(): Promise<DeviceKey> {
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  return { privateKey: pair.privateKey, publicKey: toBase64(raw) };
}

/** ECDSA P-256/SHA-256 of the UTF-8 `message`: base64 of the raw 64-byte r‖s. */
export async function signWithDeviceKey(key: DeviceKey, message: string): Promise<string> {
  const signature = await crypto.subtle.sign(
    { name: "ECDSA", hash: "SHA-256" },
    key.privateKey,
    new TextEncoder().encode(message),
  );
  return toBase64(new Uint8Array(signature));
}

/** In memory only (tests; a page without IndexedDB recovers in every session). */
export function memoryDeviceKeys(): DeviceKeyStore & { keys: Map<string, DeviceKey> } {
  const keys = new Map<string, DeviceKey>();
  return {
    keys,
    get: async (userId) => keys.get(userId) ?? null,
    put: async (userId, key) => {
      keys.set(userId, key);
    },
    delete: async (userId) => {
      keys.delete(userId);
    },
  };
}

const DATABASE = "symbolon-wallet";
const STORE = "device-keys";

function storageError(): FrameError {
  return new FrameError("storage_error", "Unable to access storage");
}

function settle<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(storageError());
  });
}

/** The store in the frame origin's IndexedDB (`indexedDB()` is resolved per call). */
export function indexedDbDeviceKeys(indexedDB: () => IDBFactory): DeviceKeyStore {
  let opened: Promise<IDBDatabase> | null = null;
  function database(): Promise<IDBDatabase> {
    if (!opened) {
      opened = new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB().open(DATABASE, 1);
        request.onupgradeneeded = () => request.result.createObjectStore(STORE);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(storageError());
      }).catch((error: unknown) => {
        opened = null;
        throw error;
      });
    }
    return opened;
  }
  async function store(mode: IDBTransactionMode): Promise<IDBObjectStore> {
    try {
      return (await database()).transaction(STORE, mode).objectStore(STORE);
    } catch {
      throw storageError();
    }
  }
  return {
    async get(userId) {
      const found: unknown = await settle((await store("readonly")).get(userId));
      const key = found as Partial<DeviceKey> | undefined;
      return key?.privateKey instanceof CryptoKey && typeof key.publicKey === "string"
        ? { privateKey: key.privateKey, publicKey: key.publicKey }
        : null;
    },
    async put(userId, key) {
      await settle(
        (await store("readwrite")).put({ privateKey: key.privateKey, publicKey: key.publicKey }, userId),
      );
    },
    async delete(userId) {
      await settle((await store("readwrite")).delete(userId));
    },
  };
}

/**
 * `store` with every user's key under `scope() + userId` (`scope()` is called first: it throws
 * while the frame's embedder is unverified, so nothing is read then). A user's key from before
 * the scope (under the bare user id) moves into the first scope that asks for it.
 */
export function scopedDeviceKeys(store: DeviceKeyStore, scope: () => string): DeviceKeyStore {
  return {
    get: async (userId) => {
      const name = scope() + userId;
      const found = await store.get(name);
      if (found || name === userId) return found;
      const old = await store.get(userId);
      if (!old) return null;
      await store.put(name, old);
      await store.delete(userId).catch(() => undefined);
      return old;
    },
    put: async (userId, key) => store.put(scope() + userId, key),
    delete: async (userId) => store.delete(scope() + userId),
  };
}
