// The device's part of the wallet: a random per-device key and, per user, the device share
// encrypted under it (with the root address it is bound to). Both live in the frame origin's
// localStorage, which host pages cannot read.
import { fromBase64, toBase64 } from "./base64.ts";
import { FrameError } from "./frameError.ts";

/** A stored device share: the root (index 0) address and the encrypted share envelope. */
export interface DeviceShareRecord {
  address: string;
  envelope: Uint8Array;
}

export interface DeviceStore {
  /** The device key (32 random bytes), created on first use. */
  deviceKey(): Uint8Array;
  read(userId: string): DeviceShareRecord | null;
  write(userId: string, record: DeviceShareRecord): void;
}

/** The subset of `Storage` the store uses. */
export type KeyValueStorage = Pick<Storage, "getItem" | "setItem">;

const DEVICE_KEY = "symbolon:wallet:device-key";
const SHARE_PREFIX = "symbolon:wallet:device-share:";

function storageError(): FrameError {
  return new FrameError("storage_error", "Unable to access storage");
}

/** A store over `storage()` (resolved per call: touching `localStorage` itself can throw). */
export function createDeviceStore(storage: () => KeyValueStorage): DeviceStore {
  function get(key: string): string | null {
    try {
      return storage().getItem(key);
    } catch {
      throw storageError();
    }
  }
  function set(key: string, value: string): void {
    try {
      storage().setItem(key, value);
    } catch {
      throw storageError();
    }
  }

  return {
    deviceKey() {
      const stored = get(DEVICE_KEY);
      if (stored !== null) {
        try {
          const key = fromBase64(stored);
          if (key.length === 32) return key;
        } catch {
          // Unreadable: replace it (shares under it are lost either way; recovery rebuilds).
        }
      }
      const key = crypto.getRandomValues(new Uint8Array(32));
      set(DEVICE_KEY, toBase64(key));
      return key;
    },
    read(userId) {
      const stored = get(SHARE_PREFIX + userId);
      if (stored === null) return null;
      try {
        const { address, envelope } = JSON.parse(stored) as { address?: unknown; envelope?: unknown };
        if (typeof address !== "string" || typeof envelope !== "string") return null;
        return { address, envelope: fromBase64(envelope) };
      } catch {
        return null;
      }
    },
    write(userId, record) {
      set(
        SHARE_PREFIX + userId,
        JSON.stringify({ address: record.address, envelope: toBase64(record.envelope) }),
      );
    },
  };
}
