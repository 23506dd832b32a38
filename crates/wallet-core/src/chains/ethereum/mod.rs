//! Ethereum: keys at BIP-44 `m/44'/60'/0'/0/{walletIndex}`, EIP-55 addresses, Keccak-256,
//! EIP-191 `personal_sign`, EIP-712 typed data and legacy / EIP-2930 / EIP-1559 transactions.

mod address;
mod keccak;
mod path;
mod personal_sign;
mod private_key;
mod signature;
mod transaction;
mod typed_data;
mod uint;

pub use address::Address;
pub use keccak::keccak256;
pub use path::{derivation_path, derive_wallet_key};
pub use personal_sign::{
    MessageEncoding, parse_message, personal_sign, personal_sign_hash, recover_personal_signer,
};
pub use private_key::PrivateKey;
pub use signature::{Signature, recover_address};
pub use transaction::{AccessListItem, SignedTransaction, Transaction, TxKind, sign_transaction};
pub use typed_data::{TypedData, sign_typed_data};

/// A 32-byte hash (Keccak-256 output, signing hashes, struct hashes).
pub type B256 = [u8; 32];
