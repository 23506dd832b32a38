//! Symbolon embedded-wallet core.
//!
//! One 16-byte entropy per user is the root of every embedded Ethereum wallet of that user:
//! entropy → BIP-39 mnemonic → seed (no passphrase) → BIP-32 `m/44'/60'/0'/0/{walletIndex}`.
//! The entropy is split with Shamir 2-of-3 (GF(256), `vsss-rs`) into a device, an auth and a
//! recovery share; each share travels encrypted in a ChaCha20-Poly1305 envelope whose key comes from
//! HKDF-SHA256 and whose associated data binds share kind, wallet address and user.
//!
//! Signing covers EIP-191 `personal_sign`, EIP-712 `eth_signTypedData_v4` and legacy / EIP-2930 /
//! EIP-1559 transactions with EIP-155 chain ids.
//!
//! The crate builds natively (the server only handles encrypted shares) and for
//! `wasm32-unknown-unknown`, where `wasm` exposes a small `wasm-bindgen` API for the wallet frame.

#![deny(missing_docs)]

mod address;
mod derive;
mod entropy;
mod error;
mod hex;
mod json;
mod keccak;
mod personal_sign;
mod private_key;
mod seed;
mod shares;
mod signature;
mod transaction;
mod typed_data;
mod uint;
#[cfg(target_arch = "wasm32")]
mod wasm;

pub use address::Address;
pub use derive::{DerivedKey, HARDENED, derive_path, derive_wallet_key, ethereum_path};
pub use entropy::{ENTROPY_LEN, Entropy};
pub use error::WalletError;
pub use hex::{decode_hex, encode_hex};
pub use keccak::keccak256;
pub use personal_sign::{
    MessageEncoding, parse_message, personal_sign, personal_sign_hash, recover_personal_signer,
};
pub use private_key::PrivateKey;
pub use seed::{Seed, mnemonic_phrase, mnemonic_to_seed};
pub use shares::{
    Share, ShareAad, ShareKind, ShareSet, combine_shares, decrypt_share, encrypt_share,
    split_entropy,
};
pub use signature::{Signature, recover_address};
pub use transaction::{AccessListItem, SignedTransaction, Transaction, TxKind, sign_transaction};
pub use typed_data::{TypedData, sign_typed_data};

/// Result alias used throughout the crate.
pub type Result<T> = core::result::Result<T, WalletError>;

/// A 32-byte hash (Keccak-256 output, signing hashes, struct hashes).
pub type B256 = [u8; 32];
