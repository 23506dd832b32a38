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

/** The storage entries of a frame from before the embedder scope: read once, then moved. */
export type LegacyStorage = Pick<Storage, "getItem" | "removeItem">;

/**
 * A store over `storage()` (resolved per call: touching `localStorage` itself can throw). With
 * `legacy()` (the unscoped storage; asked only after `storage()` answered, i.e. once the embedder
 * is verified), a scope without a device key adopts the old unscoped one, and a user's old
 * unscoped device share moves into the scope when it is sealed under the scope's key.
 */
export function createDeviceStore(storage: () => KeyValueStorage, legacy?: () => LegacyStorage): DeviceStore {
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

  /** An unscoped entry, or null (unreadable legacy storage holds nothing we can use). */
  function legacyGet(key: string): string | null {
    try {
      return legacy?.().getItem(key) ?? null;
    } catch {
      return null;
    }
  }
  function keyOf(stored: string | null): Uint8Array | null {
    if (stored === null) return null;
    try {
      const key = fromBase64(stored);
      return key.length === 32 ? key : null;
    } catch {
      return null;
    }
  }

  function deviceKey(): Uint8Array {
    const stored = get(DEVICE_KEY);
    // Unreadable: replace it (shares under it are lost either way; recovery rebuilds).
    const key =
      keyOf(stored) ??
      (stored === null ? keyOf(legacyGet(DEVICE_KEY)) : null) ??
      crypto.getRandomValues(new Uint8Array(32));
    if (stored === null || keyOf(stored) === null) set(DEVICE_KEY, toBase64(key));
    return key;
  }

  /** The user's unscoped device share, moved into the scope when the scope's key sealed it. */
  function adoptLegacyShare(userId: string): string | null {
    const old = legacyGet(SHARE_PREFIX + userId);
    const oldKey = keyOf(legacyGet(DEVICE_KEY));
    if (old === null || oldKey === null) return null;
    if (toBase64(deviceKey()) !== toBase64(oldKey)) return null;
    set(SHARE_PREFIX + userId, old);
    try {
      legacy?.().removeItem(SHARE_PREFIX + userId);
    } catch {
      // Left behind: the scoped copy is the one read from now on.
    }
    return old;
  }

  return {
    deviceKey,
    read(userId) {
      const stored = get(SHARE_PREFIX + userId) ?? adoptLegacyShare(userId);
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
