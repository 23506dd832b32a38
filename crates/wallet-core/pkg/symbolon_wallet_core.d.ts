/* tslint:disable */
/* eslint-disable */

/**
 * A single imported private key (not derived from wallet entropy).
 */
export class ImportedKey {
    private constructor();
    free(): void;
    [Symbol.dispose](): void;
    /**
     * EIP-55 address of the key.
     */
    address(): string;
    /**
     * The private key as `0x` hex.
     */
    exportPrivateKey(): string;
    /**
     * Parses a `0x`-prefixed 32-byte private key.
     */
    static fromHex(private_key: string): ImportedKey;
    /**
     * EIP-191 `personal_sign`; `encoding` is `"utf-8"` or `"hex"`.
     */
    personalSign(message: string, encoding: string): string;
    /**
     * Signs the JSON transaction request.
     */
    signTransaction(transaction_json: string): SignedTransaction;
    /**
     * EIP-712 `eth_signTypedData_v4` over the JSON text of the typed data.
     */
    signTypedData(typed_data_json: string): string;
}

/**
 * A signed transaction: raw bytes and hash, both `0x` hex.
 */
export class SignedTransaction {
    private constructor();
    free(): void;
    [Symbol.dispose](): void;
    /**
     * The transaction hash.
     */
    readonly hash: string;
    /**
     * The signed raw transaction for `eth_sendRawTransaction`.
     */
    readonly raw: string;
}

/**
 * The user's wallet entropy held inside wasm memory (zeroized when freed).
 */
export class Wallet {
    private constructor();
    free(): void;
    [Symbol.dispose](): void;
    /**
     * EIP-55 address of wallet `walletIndex`.
     */
    address(wallet_index: number): string;
    /**
     * A new wallet from fresh CSPRNG entropy.
     */
    static create(): Wallet;
    /**
     * The private key of wallet `walletIndex` as `0x` hex (key export).
     */
    exportPrivateKey(wallet_index: number): string;
    /**
     * A wallet from known 16-byte entropy (import, migration, vector tests).
     */
    static fromEntropy(entropy: Uint8Array | number[]): Wallet;
    /**
     * EIP-191 `personal_sign`; `encoding` is `"utf-8"` or `"hex"`. Returns `0x` r‖s‖v.
     */
    personalSign(wallet_index: number, message: string, encoding: string): string;
    /**
     * Rebuilds the wallet from any two of its shares (plaintext share bytes).
     */
    static recover(share_a: Uint8Array | number[], share_b: Uint8Array | number[]): Wallet;
    /**
     * Signs the JSON transaction request (legacy/EIP-2930/EIP-1559).
     */
    signTransaction(wallet_index: number, transaction_json: string): SignedTransaction;
    /**
     * EIP-712 `eth_signTypedData_v4` over the JSON text of the typed data.
     */
    signTypedData(wallet_index: number, typed_data_json: string): string;
    /**
     * Fresh shares (a re-split invalidates none of the keys, only pairs across splits):
     * the device share encrypted under `deviceKey` (≥ 32 bytes) bound to address and user.
     */
    split(device_key: Uint8Array | number[], user_id: string): WalletShares;
}

/**
 * The result of [`WasmWallet::split`]: the address and three fresh shares.
 */
export class WalletShares {
    private constructor();
    free(): void;
    [Symbol.dispose](): void;
    /**
     * EIP-55 address of wallet index 0.
     */
    readonly address: string;
    /**
     * The auth share (17 bytes, plaintext) for the server to store encrypted.
     */
    readonly authShare: Uint8Array;
    /**
     * The device share, already encrypted under the frame's device key.
     */
    readonly deviceShare: Uint8Array;
    /**
     * The recovery share (17 bytes, plaintext) for the user's recovery method to encrypt.
     */
    readonly recoveryShare: Uint8Array;
}

/**
 * Decrypts an envelope from [`encrypt_share`] with the same key, kind, address and user.
 */
export function decryptShare(key: Uint8Array | number[], kind: string, envelope: Uint8Array | number[], address: string, user_id: string): Uint8Array;

/**
 * BIP-32 node at `path` (child numbers, bit 31 = hardened): `privateKey(32) || chainCode(32)`.
 */
export function derivePath(seed: Uint8Array | number[], path: Uint32Array | number[]): Uint8Array;

/**
 * Encrypts share bytes for their holder (`kind`: `"device"`, `"auth"`, `"recovery"`).
 */
export function encryptShare(key: Uint8Array | number[], kind: string, share: Uint8Array | number[], address: string, user_id: string): Uint8Array;

/**
 * BIP-39 seed of the mnemonic for `entropy` with an optional passphrase (vector checks).
 */
export function mnemonicToSeed(entropy: Uint8Array | number[], passphrase?: string | null): Uint8Array;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly __wbg_importedkey_free: (a: number, b: number) => void;
    readonly __wbg_signedtransaction_free: (a: number, b: number) => void;
    readonly __wbg_wallet_free: (a: number, b: number) => void;
    readonly __wbg_walletshares_free: (a: number, b: number) => void;
    readonly decryptShare: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number, i: number, j: number) => [number, number, number, number];
    readonly derivePath: (a: number, b: number, c: number, d: number) => [number, number, number, number];
    readonly encryptShare: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number, i: number, j: number) => [number, number, number, number];
    readonly importedkey_address: (a: number) => [number, number];
    readonly importedkey_exportPrivateKey: (a: number) => [number, number];
    readonly importedkey_fromHex: (a: number, b: number) => [number, number, number];
    readonly importedkey_personalSign: (a: number, b: number, c: number, d: number, e: number) => [number, number, number, number];
    readonly importedkey_signTransaction: (a: number, b: number, c: number) => [number, number, number];
    readonly importedkey_signTypedData: (a: number, b: number, c: number) => [number, number, number, number];
    readonly mnemonicToSeed: (a: number, b: number, c: number, d: number) => [number, number, number, number];
    readonly signedtransaction_hash: (a: number) => [number, number];
    readonly signedtransaction_raw: (a: number) => [number, number];
    readonly wallet_address: (a: number, b: number) => [number, number, number, number];
    readonly wallet_create: () => [number, number, number];
    readonly wallet_exportPrivateKey: (a: number, b: number) => [number, number, number, number];
    readonly wallet_fromEntropy: (a: number, b: number) => [number, number, number];
    readonly wallet_personalSign: (a: number, b: number, c: number, d: number, e: number, f: number) => [number, number, number, number];
    readonly wallet_recover: (a: number, b: number, c: number, d: number) => [number, number, number];
    readonly wallet_signTransaction: (a: number, b: number, c: number, d: number) => [number, number, number];
    readonly wallet_signTypedData: (a: number, b: number, c: number, d: number) => [number, number, number, number];
    readonly wallet_split: (a: number, b: number, c: number, d: number, e: number) => [number, number, number];
    readonly walletshares_address: (a: number) => [number, number];
    readonly walletshares_authShare: (a: number) => [number, number];
    readonly walletshares_deviceShare: (a: number) => [number, number];
    readonly walletshares_recoveryShare: (a: number) => [number, number];
    readonly __wbindgen_exn_store: (a: number) => void;
    readonly __externref_table_alloc: () => number;
    readonly __wbindgen_externrefs: WebAssembly.Table;
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
    readonly __externref_table_dealloc: (a: number) => void;
    readonly __wbindgen_start: () => void;
}

export type SyncInitInput = BufferSource | WebAssembly.Module;

/**
 * Instantiates the given `module`, which can either be bytes or
 * a precompiled `WebAssembly.Module`.
 *
 * @param {{ module: SyncInitInput }} module - Passing `SyncInitInput` directly is deprecated.
 *
 * @returns {InitOutput}
 */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/**
 * If `module_or_path` is {RequestInfo} or {URL}, makes a request and
 * for everything else, calls `WebAssembly.instantiate` directly.
 *
 * @param {{ module_or_path: InitInput | Promise<InitInput> }} module_or_path - Passing `InitInput` directly is deprecated.
 *
 * @returns {Promise<InitOutput>}
 */
export default function __wbg_init (module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<InitOutput>;
