/** An Ed25519 signer key: its public key (`0x…` hex) and a way to sign with it. */
export interface FarcasterSignerKey {
  publicKey: string;
  sign(message: Uint8Array): Promise<Uint8Array>;
}

const DB_NAME = "symbolon-farcaster-signer";
const STORE = "keys";

/**
 * The device's Farcaster signer key for `appId`: an Ed25519 Web Crypto key made once, kept
 * non-extractable in IndexedDB (the private key never exists as bytes in the page), reused after.
 */
export async function deviceSignerKey(appId: string): Promise<FarcasterSignerKey> {
  const db = await openDb();
  let pair = await read<CryptoKeyPair>(db, appId);
  if (!pair) {
    pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"])) as CryptoKeyPair;
    await write(db, appId, pair);
  }
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  const privateKey = pair.privateKey;
  return {
    publicKey: `0x${[...raw].map((b) => b.toString(16).padStart(2, "0")).join("")}`,
    sign: async (message) =>
      new Uint8Array(await crypto.subtle.sign({ name: "Ed25519" }, privateKey, message as BufferSource)),
  };
}

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function read<T>(db: IDBDatabase, key: string): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const request = db.transaction(STORE, "readonly").objectStore(STORE).get(key);
    request.onsuccess = () => resolve(request.result as T | undefined);
    request.onerror = () => reject(request.error);
  });
}

function write(db: IDBDatabase, key: string, value: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(STORE, "readwrite");
    transaction.objectStore(STORE).put(value, key);
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
  });
}
