// Unlocking, creating and recovering wallets over the wasm core. Unlocked wallets live only in
// this page's memory, per user; nothing secret leaves it except what the host may see
// (addresses, signatures, signed transactions).
import type { Api, CreatedWallet, KeyMaterial } from "./api.ts";
import { fromBase64, toBase64 } from "./base64.ts";
import type { DeviceStore } from "./deviceStore.ts";
import { FrameError, isWalletError, toFrameError } from "./frameError.ts";
import { decryptShare, Wallet } from "./walletCore.ts";

export type ConnectResult =
  | { address: string; unlocked: true }
  | { address: string; unlocked: false; needsRecovery: true };

export interface WalletServiceOptions {
  api: Api;
  store: DeviceStore;
}

/** One user's unlocked wallet: the entropy holder and what it is known to serve. */
interface Unlocked {
  wallet: Wallet;
  /** Lower-case address → wallet index. */
  indices: Map<string, number>;
}

/** What signs for one address: the user's wallet and that address's index. */
export interface Signer {
  wallet: Wallet;
  index: number;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export class WalletService {
  private readonly unlocked = new Map<string, Unlocked>();
  // Operations that touch the server or replace state run one at a time, so two requests
  // arriving while locked do not both fetch key material and rebuild the wallet.
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: WalletServiceOptions) {}

  /** A new wallet (index 0): split, shares to the server, then the device share stored. */
  create(token: string, userId: string): Promise<{ address: string; walletIndex: 0; user: unknown }> {
    return this.exclusive(async () => {
      const { api, store } = this.options;
      // Storage first: a wallet the device cannot keep its share of is not worth creating.
      const deviceKey = store.deviceKey();
      const wallet = Wallet.create();
      let address: string;
      let created: CreatedWallet;
      let envelope: Uint8Array;
      try {
        // A plain object: its plaintext share arrays are zeroed once encoded.
        const shares = wallet.split(deviceKey, userId);
        address = shares.address;
        envelope = shares.deviceShare;
        created = await api.createWallet(token, {
          address,
          wallet_index: 0,
          auth_share: wipeToBase64(shares.authShare),
          recovery_share: wipeToBase64(shares.recoveryShare),
        });
      } catch (error) {
        wallet.free();
        throw toFrameError(error, "embedded_wallet_creation_error");
      }
      this.remember(userId, wallet, address, 0);
      this.storeShareAfterAccepted(userId, address, envelope);
      return { address, walletIndex: 0, user: created.user };
    });
  }

  /** Another wallet of the same entropy at `walletIndex` (no new shares). */
  add(
    token: string,
    userId: string,
    walletIndex: number,
  ): Promise<{ address: string; walletIndex: number; user: unknown }> {
    return this.exclusive(async () => {
      try {
        let current = this.unlocked.get(userId);
        const record = current ? null : this.options.store.read(userId);
        if (!current && record) {
          await this.unlockNow(token, userId, record.address);
          current = this.unlocked.get(userId);
        }
        if (!current) throw new FrameError("embedded_wallet_creation_error", "Wallet is not connected");
        const address = current.wallet.address(walletIndex);
        const created = await this.options.api.createWallet(token, { address, wallet_index: walletIndex });
        this.serve(userId, address, walletIndex);
        return { address, walletIndex, user: created.user };
      } catch (error) {
        throw toFrameError(error, "embedded_wallet_creation_error");
      }
    });
  }

  /** Unlocks `address` from the device share + the server's auth share, if this device can. */
  connect(token: string, userId: string, address: string): Promise<ConnectResult> {
    return this.exclusive(async () => {
      try {
        return await this.connectNow(token, userId, address);
      } catch (error) {
        throw toFrameError(error, "embedded_wallet_request_error");
      }
    });
  }

  /** Rebuilds from auth + recovery share, re-splits, uploads the new shares, stores the device share. */
  recover(token: string, userId: string, address: string): Promise<{ address: string }> {
    return this.exclusive(async () => {
      try {
        return await this.recoverNow(token, userId, address);
      } catch (error) {
        throw toFrameError(error, "embedded_wallet_recovery_error");
      }
    });
  }

  /**
   * The signer of an already unlocked `address`, without any network or storage access
   * (the fast path of every rpc), or null when it must be unlocked first.
   */
  signer(userId: string, address: string): Signer | null {
    const current = this.unlocked.get(userId);
    const index = current?.indices.get(address.toLowerCase());
    return current && index !== undefined ? { wallet: current.wallet, index } : null;
  }

  /** The signer of `address`, unlocking it first (connect, then recovery when needed). */
  async unlock(token: string, userId: string, address: string): Promise<Signer> {
    const ready = this.signer(userId, address);
    if (ready) return ready;
    await this.exclusive(() => this.unlockNow(token, userId, address));
    const signer = this.signer(userId, address);
    if (!signer) throw new FrameError("embedded_wallet_request_error", "Unable to connect to wallet.");
    return signer;
  }

  /** The private key of an unlocked `address` (export page only; never posted to the host). */
  exportPrivateKey(userId: string, address: string): string {
    const signer = this.signer(userId, address);
    if (!signer) throw new FrameError("embedded_wallet_request_error", "Wallet is not connected");
    return signer.wallet.exportPrivateKey(signer.index);
  }

  /** Forgets (and zeroizes) every unlocked wallet. */
  clear(): void {
    for (const userId of [...this.unlocked.keys()]) this.forget(userId);
  }

  private async unlockNow(token: string, userId: string, address: string): Promise<void> {
    const connected = await this.connectNow(token, userId, address);
    if (connected.unlocked) return;
    try {
      await this.recoverNow(token, userId, address);
    } catch (error) {
      throw toFrameError(error, "embedded_wallet_recovery_error");
    }
  }

  private async connectNow(token: string, userId: string, address: string): Promise<ConnectResult> {
    const needsRecovery = { address, unlocked: false, needsRecovery: true } as const;
    const current = this.unlocked.get(userId);
    const known = current?.indices.get(address.toLowerCase());
    if (current && known !== undefined) return { address: current.wallet.address(known), unlocked: true };
    const record = this.options.store.read(userId);
    if (!current && !record) return needsRecovery;
    const material = await this.options.api.keyMaterial(token, address);
    if (current) {
      // Another index of the wallet already in memory: no share needed.
      const derived = current.wallet.address(material.wallet_index);
      if (same(derived, address)) {
        this.serve(userId, derived, material.wallet_index);
        return { address: derived, unlocked: true };
      }
    }
    if (!record) return needsRecovery;
    const wallet = this.rebuildFromDevice(userId, record.address, record.envelope, material);
    if (!wallet) return needsRecovery;
    const derived = wallet.address(material.wallet_index);
    if (!same(derived, address)) {
      // Shares of different splits combine into some other wallet: the device share is stale.
      wallet.free();
      return needsRecovery;
    }
    this.remember(userId, wallet, derived, material.wallet_index);
    return { address: derived, unlocked: true };
  }

  /** Device share + auth share → wallet, or null when the device share does not fit (stale). */
  private rebuildFromDevice(
    userId: string,
    rootAddress: string,
    envelope: Uint8Array,
    material: KeyMaterial,
  ): Wallet | null {
    const deviceKey = this.options.store.deviceKey();
    let device: Uint8Array | null = null;
    const auth = fromBase64(material.auth_share);
    try {
      device = decryptShare(deviceKey, "device", envelope, rootAddress, userId);
      return Wallet.recover(device, auth);
    } catch (error) {
      if (isWalletError(error)) return null;
      throw error;
    } finally {
      device?.fill(0);
      auth.fill(0);
    }
  }

  private async recoverNow(token: string, userId: string, address: string): Promise<{ address: string }> {
    const { api, store } = this.options;
    const material = await api.keyMaterial(token, address);
    if (material.recovery_share === null) {
      throw new FrameError(
        "embedded_wallet_recovery_error",
        `Recovery method ${material.recovery_method} cannot be used automatically`,
      );
    }
    const auth = fromBase64(material.auth_share);
    const recovery = fromBase64(material.recovery_share);
    let wallet: Wallet;
    try {
      wallet = Wallet.recover(auth, recovery);
    } finally {
      auth.fill(0);
      recovery.fill(0);
    }
    try {
      const derived = wallet.address(material.wallet_index);
      if (!same(derived, address)) {
        throw new FrameError(
          "embedded_wallet_recovery_error",
          `The recovered wallet does not match ${address}`,
        );
      }
      const deviceKey = store.deviceKey();
      const shares = wallet.split(deviceKey, userId);
      await api.replaceShares(token, shares.address, {
        auth: wipeToBase64(shares.authShare),
        recovery: wipeToBase64(shares.recoveryShare),
      });
      store.write(userId, { address: shares.address, envelope: shares.deviceShare });
      this.remember(userId, wallet, derived, material.wallet_index);
      return { address: derived };
    } catch (error) {
      wallet.free();
      throw error;
    }
  }

  /** Makes `wallet` the user's unlocked wallet (freeing any other) serving `address`. */
  private remember(userId: string, wallet: Wallet, address: string, index: number): void {
    const current = this.unlocked.get(userId);
    if (current?.wallet !== wallet) {
      this.forget(userId);
      this.unlocked.set(userId, { wallet, indices: new Map() });
    }
    this.serve(userId, address, index);
  }

  /** Records that the user's unlocked wallet serves `address` at `index`. */
  private serve(userId: string, address: string, index: number): void {
    // Every path here has derived `address` from the wallet, which keeps that key: signing
    // later skips BIP-39's PBKDF2 (~13 ms in wasm) and stays well under a millisecond.
    this.unlocked.get(userId)?.indices.set(address.toLowerCase(), index);
  }

  private forget(userId: string): void {
    const current = this.unlocked.get(userId);
    if (!current) return;
    current.wallet.free();
    this.unlocked.delete(userId);
  }

  /**
   * After the server accepted a new wallet, a failure to keep the device share must not turn
   * into "creation failed" (a retry would meet resource_already_exists): the wallet is
   * unlocked now, and the next session recovers it from the server's shares.
   */
  private storeShareAfterAccepted(userId: string, address: string, envelope: Uint8Array): void {
    try {
      this.options.store.write(userId, { address, envelope });
    } catch (error) {
      console.warn("wallet frame: device share not stored; the next session will recover", error);
    }
  }

  private exclusive<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.tail.then(operation);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/** Base64 of a plaintext share, then the copy is zeroed. */
function wipeToBase64(share: Uint8Array): string {
  const text = toBase64(share);
  share.fill(0);
  return text;
}
