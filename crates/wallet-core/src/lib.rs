//! Symbolon embedded-wallet core.
//!
//! The crate has two halves. The chain-neutral one holds the secrets every embedded wallet of a
//! user derives from: one 16-byte [`Entropy`] per user → BIP-39 mnemonic → [`Seed`] (no
//! passphrase) → BIP-32 ([`derive_path`], secp256k1). The entropy is split with Shamir 2-of-3
//! (GF(256), `vsss-rs`) into a device, an auth and a recovery [`Share`]; each share travels
//! encrypted in an AES-256-GCM envelope whose key comes from HKDF-SHA256 and whose associated
//! data binds share kind, wallet address and user. Hex and JSON codecs serve every text boundary.
//!
//! The other half is one module per chain under [`chains`]: its derivation path, key and
//! address types and signing. [`chains::ethereum`] is the only one so far (`m/44'/60'/0'/0/i`,
//! EIP-191 `personal_sign`, EIP-712 `eth_signTypedData_v4`, legacy / EIP-2930 / EIP-1559
//! transactions with EIP-155 chain ids). Callers name the chain: `chains::ethereum::Address`.
//!
//! The crate builds natively (the server only handles encrypted shares) and for
//! `wasm32-unknown-unknown`, where `wasm` exposes a small `wasm-bindgen` API for the wallet frame.

#![deny(missing_docs)]

mod bip32;
pub mod chains;
mod entropy;
mod error;
mod hex;
mod json;
mod seed;
mod shares;
#[cfg(target_arch = "wasm32")]
mod wasm;

pub use bip32::{DerivedKey, HARDENED, derive_path};
pub use entropy::{ENTROPY_LEN, Entropy};
pub use error::WalletError;
pub use hex::{decode_hex, encode_hex};
pub use seed::{Seed, mnemonic_phrase, mnemonic_to_seed};
pub use shares::{
    Share, ShareAad, ShareKind, ShareSet, combine_shares, decrypt_share, encrypt_share,
    split_entropy,
};

/// Result alias used throughout the crate.
pub type Result<T> = core::result::Result<T, WalletError>;
