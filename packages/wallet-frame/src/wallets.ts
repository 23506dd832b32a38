// Unlocking, creating and recovering wallets over the wasm core. Unlocked wallets live only in
// this page's memory, per user, wallet and session; nothing secret leaves it except what the host
// may see (addresses, signatures, signed transactions). Whatever differs between chains (addresses,
// proofs, signing) goes through the wallet's `ChainSigner` (chains/).
//
// The server releases the auth share only against this device key's signature of a fresh
// nonce, and the recovery share only to a session that signed in minutes ago; registering
// shares takes the wallet key's own signature (docs/wallet.md "Device key and recovery").
//
// Once the user has MFA, key material also takes the MFA token the frame holds (docs/wallet.md
// "MFA"); a key released `single_use` serves one operation and is forgotten right after it.
import type { KeyMaterialIntent } from "../../core/src/generated/protocol.ts";
import {
  type Api,
  ApiCallError,
  type CreatedWallet,
  type KeyMaterial,
  type KeyMaterialProof,
  type ReplaceSharesBody,
} from "./api.ts";
import { fromBase64, toBase64 } from "./base64.ts";
import type { ChainSigner } from "./chains/ChainSigner.ts";
import { type DeviceKey, type DeviceKeyStore, generateDeviceKey, signWithDeviceKey } from "./deviceKeys.ts";
import type { DeviceStore } from "./deviceStore.ts";
import { FrameError, isWalletError, MFA_RETRY_CODES, toFrameError } from "./frameError.ts";
import type { TokenSession } from "./jwt.ts";
import type { MfaTokens } from "./mfa/mfaTokens.ts";
import { sharesDigest, unlockMessage, walletProofMessage } from "./proofs.ts";
import { decryptShare, Wallet } from "./walletCore.ts";

export type ConnectResult =
  | { address: string; unlocked: true }
  | { address: string; unlocked: false; needsRecovery: true };

export interface WalletServiceOptions {
  api: Api;
  store: DeviceStore;
  keys: DeviceKeyStore;
  /** The MFA token kept by `privy:mfa:verify`, sent with key material (none: never sent). */
  mfaTokens?: MfaTokens;
  /** Unix seconds (tests move it). */
  now?: () => number;
}

/**
 * One of a user's wallets as the frame protocol names it: its chain and its `entropyId` (the
 * address of its index 0, from which every index derives).
 */
export interface WalletRef {
  chain: ChainSigner;
  entropyId: string;
}

/** One user's unlocked wallet: the entropy holder and what it is known to serve. */
interface Unlocked {
  userId: string;
  chain: ChainSigner;
  wallet: Wallet;
  /** Wallet index → address, of the indices derived so far (deriving costs more than signing). */
  addresses: Map<number, string>;
  /** The session (`sid`) it was unlocked in; another session unlocks again. */
  sessionId: string | null;
  /** Released for one operation (transaction protection): forgotten once that operation ran. */
  singleUse: boolean;
}

/** What signs for one address: the user's wallet, that address's index and the address. */
export interface Signer {
  wallet: Wallet;
  index: number;
  address: string;
}

/** The key of a user's unlocked wallet: user, chain and the address of index 0. */
const keyOf = (userId: string, chain: ChainSigner, entropyId: string) =>
  `${userId}\n${chain.chainType}\n${chain.addressKey(entropyId)}`;

/** A re-split proven by the root key (see `WalletService.provenSplit`). */
interface ProvenSplit {
  /** Address of wallet index 0. */
  address: string;
  /** The device share, encrypted under the frame's share key. */
  envelope: Uint8Array;
  /** The new device key, to keep once the server accepted the shares. */
  deviceKey: DeviceKey;
  /** The shares (base64, plaintext copies wiped), device key, nonce and proof for the server. */
  body: ReplaceSharesBody;
}

export class WalletService {
  /** By {@link keyOf}: a user may hold a wallet of each chain unlocked. */
  private readonly unlocked = new Map<string, Unlocked>();
  // Operations that touch the server or replace state run one at a time, so two requests
  // arriving while locked do not both fetch key material and rebuild the wallet.
  private tail: Promise<unknown> = Promise.resolve();

  /** The session of each user's latest request. */
  private readonly sessions = new Map<string, string | null>();

  constructor(private readonly options: WalletServiceOptions) {}

  /**
   * Called with every request's token before anything else: an expired token forgets every
   * unlocked wallet and is refused; a new session (`sid`) forgets that user's unlocked wallets,
   * so keys never outlive the session that unlocked them.
   */
  enter(session: TokenSession): void {
    const now = this.options.now?.() ?? Math.floor(Date.now() / 1000);
    if (session.expiresAt !== null && session.expiresAt <= now) {
      this.clear();
      throw new FrameError("attempted_rpc_call_before_logged_in", "Access token expired");
    }
    for (const [key, held] of this.unlocked) {
      if (held.userId === session.userId && held.sessionId !== session.sessionId) this.forget(key);
    }
    this.sessions.set(session.userId, session.sessionId);
  }

  /** A new wallet (index 0) of `chain`: split, shares and device key to the server with the wallet's proof. */
  create(
    token: string,
    userId: string,
    chain: ChainSigner,
  ): Promise<{ address: string; walletIndex: 0; user: unknown }> {
    return this.exclusive(async () => {
      const { api, store } = this.options;
      // Storage first: a wallet the device cannot keep its share of is not worth creating.
      const shareKey = store.deviceKey();
      const wallet = Wallet.create();
      let split: ProvenSplit;
      let created: CreatedWallet;
      try {
        split = await this.provenSplit(token, userId, chain, wallet, shareKey, "create");
        created = await api.createWallet(token, chain.chainType, {
          address: split.address,
          wallet_index: 0,
          ...split.body,
        });
      } catch (error) {
        wallet.free();
        throw toFrameError(error, "embedded_wallet_creation_error");
      }
      const { address } = split;
      this.remember(userId, chain, wallet);
      await this.storeAfterAccepted(userId, address, split.envelope, split.deviceKey);
      return { address, walletIndex: 0, user: created.user };
    });
  }

  /**
   * Another wallet of the entropy `ref` at `walletIndex` (no new shares), proven by its key and
   * the root key; the root is unlocked first when needed.
   */
  add(
    token: string,
    userId: string,
    ref: WalletRef,
    walletIndex: number,
  ): Promise<{ address: string; walletIndex: number; user: unknown }> {
    return this.exclusive(async () => {
      const key = keyOf(userId, ref.chain, ref.entropyId);
      let usedOnce = false;
      try {
        if (!this.unlocked.has(key)) await this.unlockNow(token, userId, ref, "sign");
        const current = this.unlocked.get(key);
        if (!current) {
          throw new FrameError("embedded_wallet_creation_error", "Wallet is not connected");
        }
        // Proving the new wallet is the operation a single-use key was released for.
        usedOnce = current.singleUse;
        const { api } = this.options;
        const { chain, wallet } = current;
        const address = this.addressOf(current, walletIndex);
        const nonce = await api.challenge(token, chain.chainType, "create");
        const message = walletProofMessage({
          purpose: "create",
          appId: api.appId(token),
          userId,
          address,
          walletIndex,
          shares: null,
          devicePublicKey: null,
          nonce,
        });
        const created = await api.createWallet(token, chain.chainType, {
          address,
          wallet_index: walletIndex,
          nonce,
          signature: chain.signProof(wallet, walletIndex, message),
          root_signature: chain.signProof(wallet, 0, message),
        });
        return { address, walletIndex, user: created.user };
      } catch (error) {
        throw toFrameError(error, "embedded_wallet_creation_error");
      } finally {
        if (usedOnce) this.forget(key);
      }
    });
  }

  /**
   * Unlocks the wallet `ref` from the device share + the server's auth share, if this device can.
   */
  connect(token: string, userId: string, ref: WalletRef): Promise<ConnectResult> {
    return this.exclusive(async () => {
      try {
        return await this.connectNow(token, userId, ref);
      } catch (error) {
        throw toFrameError(error, "embedded_wallet_request_error");
      }
    });
  }

  /**
   * Rebuilds the wallet `ref` from auth + recovery share, re-splits, uploads the new shares,
   * stores the device share.
   */
  recover(token: string, userId: string, ref: WalletRef): Promise<{ address: string }> {
    return this.exclusive(async () => {
      try {
        return await this.recoverNow(token, userId, ref);
      } catch (error) {
        throw toFrameError(error, "embedded_wallet_recovery_error");
      }
    });
  }

  /**
   * Runs `operation` (synchronous, so nothing else can use a single-use key in between) with the
   * signer of index `index` of the wallet `ref`, unlocking it first when needed (connect,
   * then recovery). Unlocked: no network. A single-use key is forgotten right after, so the next
   * operation asks again.
   */
  async use<T>(
    token: string,
    userId: string,
    ref: WalletRef,
    index: number,
    operation: (signer: Signer) => T,
  ): Promise<T> {
    const ready = this.useHeld(userId, ref, index, operation);
    if (ready) return ready.value;
    return this.exclusive(async () => {
      await this.unlockNow(token, userId, ref, "sign");
      const done = this.useHeld(userId, ref, index, operation);
      if (!done) throw new FrameError("embedded_wallet_request_error", "Unable to connect to wallet.");
      return done.value;
    });
  }

  /** Unlocks the wallet `ref` with key material asked for `intent` (the export page asks for `export`). */
  async unlock(token: string, userId: string, ref: WalletRef, intent: KeyMaterialIntent): Promise<void> {
    if (this.held(userId, ref)) return;
    await this.exclusive(() => this.unlockNow(token, userId, ref, intent));
    if (!this.held(userId, ref)) {
      throw new FrameError("embedded_wallet_request_error", "Unable to connect to wallet.");
    }
  }

  /** The address of index `index` of the unlocked wallet `ref`, or null when it is locked. */
  heldAddress(userId: string, ref: WalletRef, index: number): string | null {
    const current = this.held(userId, ref);
    return current ? this.addressOf(current, index) : null;
  }

  /**
   * The private key of index `index` of the unlocked wallet `ref`: for the export page, and sealed to
   * the app's signer in a delegation consent (delegation/); never posted to the host.
   */
  exportPrivateKey(userId: string, ref: WalletRef, index: number): string {
    const read = this.useHeld(userId, ref, index, ({ wallet, index: at }) =>
      ref.chain.exportPrivateKey(wallet, at),
    );
    if (!read) throw new FrameError("embedded_wallet_request_error", "Wallet is not connected");
    return read.value;
  }

  /** Forgets the user's unlocked wallets (MFA was enrolled: the server guards the next release). */
  lock(userId: string): void {
    for (const [key, held] of this.unlocked) if (held.userId === userId) this.forget(key);
  }

  /** Forgets (and zeroizes) every unlocked wallet. */
  clear(): void {
    for (const key of [...this.unlocked.keys()]) this.forget(key);
  }

  /** The user's unlocked wallet `ref`, if held. */
  private held(userId: string, ref: WalletRef): Unlocked | undefined {
    return this.unlocked.get(keyOf(userId, ref.chain, ref.entropyId));
  }

  /**
   * `operation` on the held signer of index `index` of `ref` (null when locked); a single-use key
   * is then forgotten.
   */
  private useHeld<T>(
    userId: string,
    ref: WalletRef,
    index: number,
    operation: (signer: Signer) => T,
  ): { value: T } | null {
    const key = keyOf(userId, ref.chain, ref.entropyId);
    const current = this.unlocked.get(key);
    if (!current) return null;
    try {
      const address = this.addressOf(current, index);
      return { value: operation({ wallet: current.wallet, index, address }) };
    } finally {
      if (current.singleUse) this.forget(key);
    }
  }

  private async unlockNow(
    token: string,
    userId: string,
    ref: WalletRef,
    intent: KeyMaterialIntent,
  ): Promise<void> {
    const connected = await this.connectNow(token, userId, ref, intent);
    if (connected.unlocked) return;
    try {
      await this.recoverNow(token, userId, ref, intent);
    } catch (error) {
      throw toFrameError(error, "embedded_wallet_recovery_error");
    }
  }

  private async connectNow(
    token: string,
    userId: string,
    ref: WalletRef,
    intent: KeyMaterialIntent = "sign",
  ): Promise<ConnectResult> {
    const { chain, entropyId: address } = ref;
    const needsRecovery = { address, unlocked: false, needsRecovery: true } as const;
    const current = this.held(userId, ref);
    if (current) return { address: this.addressOf(current, 0), unlocked: true };
    // Holding another wallet, or a device share, this device asks the server (which also says
    // whether `address` is a wallet's index 0 at all).
    const holding = [...this.unlocked.values()].some((held) => held.userId === userId);
    const record = this.options.store.read(userId);
    const deviceKey = await this.options.keys.get(userId);
    if (!deviceKey || (!holding && !record)) return needsRecovery;
    const material = await this.signedKeyMaterial(token, userId, ref, deviceKey, intent);
    // This device's key is not the registered one (recovered elsewhere since): recover here.
    if (!material) return needsRecovery;
    requireRoot(material, address);
    if (!record) return needsRecovery;
    const wallet = this.rebuildFromDevice(userId, record.address, record.envelope, material);
    if (!wallet) return needsRecovery;
    const derived = chain.address(wallet, 0);
    if (chain.addressKey(derived) !== chain.addressKey(address)) {
      // Shares of different splits combine into some other wallet: the device share is stale.
      wallet.free();
      return needsRecovery;
    }
    this.remember(userId, chain, wallet, material.single_use === true);
    return { address: derived, unlocked: true };
  }

  /** The auth share, against this device key's signature of a fresh nonce; null when refused. */
  private async signedKeyMaterial(
    token: string,
    userId: string,
    ref: WalletRef,
    deviceKey: DeviceKey,
    intent: KeyMaterialIntent,
  ): Promise<KeyMaterial | null> {
    const { api } = this.options;
    const nonce = await api.challenge(token, ref.chain.chainType, "key_material");
    const signature = await signWithDeviceKey(
      deviceKey,
      unlockMessage(api.appId(token), userId, ref.entropyId, nonce),
    );
    try {
      return await this.keyMaterial(token, userId, ref, { nonce, device_signature: signature }, intent);
    } catch (error) {
      if (error instanceof ApiCallError && error.code === "invalid_credentials") return null;
      throw error;
    }
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

  /**
   * Key material, with the MFA token when the frame holds one. The server uses the token up for a
   * recovery or an export, so it is dropped then; a signature only counts against it (one
   * verification covers a short run of signatures, `MFA_SIGNING_WINDOW_S`), so it is kept; a
   * refused token is dropped (the host then asks for a new verification); any other failure keeps
   * it for the retry.
   */
  private async keyMaterial(
    token: string,
    userId: string,
    { chain, entropyId }: WalletRef,
    proof: KeyMaterialProof,
    intent: KeyMaterialIntent,
  ): Promise<KeyMaterial> {
    const { api, mfaTokens } = this.options;
    const appId = api.appId(token);
    const mfaToken =
      mfaTokens?.current(appId, { userId, sessionId: this.sessions.get(userId) ?? null }) ?? null;
    try {
      const material = await api.keyMaterial(token, chain.chainType, entropyId, proof, { intent, mfaToken });
      if (mfaToken && ("recovery" in proof || intent === "export")) {
        mfaTokens?.forget(appId, userId);
      }
      return material;
    } catch (error) {
      if (
        mfaToken &&
        error instanceof ApiCallError &&
        error.code !== null &&
        MFA_RETRY_CODES.has(error.code)
      ) {
        mfaTokens?.forget(appId, userId);
      }
      throw error;
    }
  }

  private async recoverNow(
    token: string,
    userId: string,
    ref: WalletRef,
    intent: KeyMaterialIntent = "sign",
  ): Promise<{ address: string }> {
    const { api, store, keys } = this.options;
    const { chain, entropyId: address } = ref;
    const material = await this.keyMaterial(token, userId, ref, { recovery: true }, intent);
    requireRoot(material, address);
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
      const derived = chain.address(wallet, 0);
      if (chain.addressKey(derived) !== chain.addressKey(address)) {
        throw new FrameError(
          "embedded_wallet_recovery_error",
          `The recovered wallet does not match ${address}`,
        );
      }
      // A new device key and a re-split, registered with the root key's proof.
      const split = await this.provenSplit(token, userId, chain, wallet, store.deviceKey(), "replace_shares");
      await api.replaceShares(token, chain.chainType, split.address, split.body);
      store.write(userId, { address: split.address, envelope: split.envelope });
      await keys.put(userId, split.deviceKey);
      this.remember(userId, chain, wallet, material.single_use === true);
      return { address: derived };
    } catch (error) {
      wallet.free();
      throw error;
    }
  }

  /**
   * Fresh shares of `wallet` under a new device key, with the root key's proof over them for
   * `purpose`: what creating a wallet and replacing its shares both send.
   */
  private async provenSplit(
    token: string,
    userId: string,
    chain: ChainSigner,
    wallet: Wallet,
    shareKey: Uint8Array,
    purpose: "create" | "replace_shares",
  ): Promise<ProvenSplit> {
    const { api } = this.options;
    const deviceKey = await generateDeviceKey();
    // A plain object: its plaintext share arrays are zeroed once encoded.
    const shares = chain.split(wallet, shareKey, userId);
    const digest = await sharesDigest(shares.authShare, shares.recoveryShare);
    const nonce = await api.challenge(token, chain.chainType, purpose);
    const message = walletProofMessage({
      purpose,
      appId: api.appId(token),
      userId,
      address: shares.address,
      walletIndex: 0,
      shares: digest,
      devicePublicKey: deviceKey.publicKey,
      nonce,
    });
    return {
      address: shares.address,
      envelope: shares.deviceShare,
      deviceKey,
      body: {
        auth_share: wipeToBase64(shares.authShare),
        recovery_share: wipeToBase64(shares.recoveryShare),
        device_public_key: deviceKey.publicKey,
        nonce,
        signature: chain.signProof(wallet, 0, message),
      },
    };
  }

  /** Keeps `wallet` as the user's unlocked wallet of its entropy (freeing one held before). */
  private remember(userId: string, chain: ChainSigner, wallet: Wallet, singleUse = false): void {
    const root = chain.address(wallet, 0);
    const key = keyOf(userId, chain, root);
    if (this.unlocked.get(key)?.wallet === wallet) return;
    this.forget(key);
    this.unlocked.set(key, {
      userId,
      chain,
      wallet,
      addresses: new Map([[0, root]]),
      sessionId: this.sessions.get(userId) ?? null,
      singleUse,
    });
  }

  /** The address of `index` of an unlocked wallet, derived once. */
  private addressOf(current: Unlocked, index: number): string {
    let address = current.addresses.get(index);
    if (address === undefined) {
      // The wallet keeps the derived key: signing later skips BIP-39's PBKDF2 (~13 ms in wasm)
      // and stays well under a millisecond.
      address = current.chain.address(current.wallet, index);
      current.addresses.set(index, address);
    }
    return address;
  }

  private forget(key: string): void {
    const current = this.unlocked.get(key);
    if (!current) return;
    current.wallet.free();
    this.unlocked.delete(key);
  }

  /**
   * After the server accepted a new wallet, a failure to keep the device share or key must not
   * turn into "creation failed" (a retry would meet resource_already_exists): the wallet is
   * unlocked now, and the next session recovers it from the server's shares.
   */
  private async storeAfterAccepted(
    userId: string,
    address: string,
    envelope: Uint8Array,
    deviceKey: DeviceKey,
  ): Promise<void> {
    try {
      this.options.store.write(userId, { address, envelope });
      await this.options.keys.put(userId, deviceKey);
    } catch (error) {
      console.warn("wallet frame: device share or key not stored; the next session will recover", error);
    }
  }

  private exclusive<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.tail.then(operation);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/**
 * The frame names a wallet by its index 0 (`entropyId`): key material of another index is
 * refused, so one unlocked entropy never hides behind two names.
 */
function requireRoot(material: KeyMaterial, entropyId: string): void {
  if (material.wallet_index !== 0) {
    throw new FrameError(
      "invalid_input",
      `${entropyId} is not the address of a wallet's index 0 (entropyId)`,
    );
  }
}

/** Base64 of a plaintext share, then the copy is zeroed. */
function wipeToBase64(share: Uint8Array): string {
  const text = toBase64(share);
  share.fill(0);
  return text;
}
