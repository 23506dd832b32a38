//! The crate's single error type.

/// Everything that can go wrong in wallet-core. Each variant has a stable [`WalletError::code`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WalletError {
    /// A hex string is malformed (odd length, non-hex character, missing `0x` where required).
    #[error("invalid hex: {0}")]
    InvalidHex(String),
    /// An Ethereum address is not `0x` followed by 40 hex characters.
    #[error("invalid address: {0}")]
    InvalidAddress(String),
    /// A mixed-case address whose EIP-55 checksum does not match.
    #[error("address checksum mismatch (EIP-55): {0}")]
    AddressChecksum(String),
    /// Entropy has the wrong length (wallet entropy is 16 bytes; BIP-39 allows 16–32).
    #[error("invalid entropy length: {0} bytes")]
    InvalidEntropy(usize),
    /// The platform random number generator failed.
    #[error("random number generator unavailable")]
    Randomness,
    /// BIP-32 derivation failed (invalid seed length, or a derived key out of range).
    #[error("key derivation failed")]
    Derivation,
    /// Bytes are not a valid secp256k1 private key.
    #[error("invalid private key")]
    InvalidPrivateKey,
    /// A signature is malformed or does not recover to a public key.
    #[error("invalid signature: {0}")]
    InvalidSignature(String),
    /// The signer could not produce an Ethereum-compatible signature.
    #[error("signing failed")]
    Signing,
    /// A share is malformed (length, identifier, or kind).
    #[error("invalid share: {0}")]
    InvalidShare(String),
    /// Fewer than the two shares needed to rebuild the entropy were given.
    #[error("at least 2 distinct shares are required")]
    NotEnoughShares,
    /// The same share kind was given twice.
    #[error("duplicate share kind: {0}")]
    DuplicateShare(String),
    /// A share encryption key is too short.
    #[error("invalid share key: {0}")]
    InvalidKey(String),
    /// AEAD decryption failed: wrong key, wrong associated data, or tampered ciphertext.
    #[error("share decryption failed")]
    Decryption,
    /// Input is not valid JSON.
    #[error("invalid JSON: {0}")]
    InvalidJson(String),
    /// A number is NaN or ±Infinity (rejected for typed data and transactions).
    #[error("non-finite number not allowed: {0}")]
    NonFiniteNumber(String),
    /// A number is malformed (not an integer, not a safe integer, bad digits).
    #[error("invalid number: {0}")]
    InvalidNumber(String),
    /// A number does not fit the declared type (e.g. `uint8` = 256).
    #[error("number out of range: {0}")]
    NumberOutOfRange(String),
    /// EIP-712 typed data is malformed (types, primaryType, domain, message).
    #[error("invalid typed data: {0}")]
    InvalidTypedData(String),
    /// A transaction request is malformed or inconsistent.
    #[error("invalid transaction: {0}")]
    InvalidTransaction(String),
    /// A `personal_sign` message is malformed for its declared encoding.
    #[error("invalid message: {0}")]
    InvalidMessage(String),
}

impl WalletError {
    /// Stable machine-readable code, the same through wasm and HTTP.
    pub fn code(&self) -> &'static str {
        match self {
            Self::InvalidHex(_) => "invalid_hex",
            Self::InvalidAddress(_) => "invalid_address",
            Self::AddressChecksum(_) => "invalid_address_checksum",
            Self::InvalidEntropy(_) => "invalid_entropy",
            Self::Randomness => "randomness_unavailable",
            Self::Derivation => "derivation_failed",
            Self::InvalidPrivateKey => "invalid_private_key",
            Self::InvalidSignature(_) => "invalid_signature",
            Self::Signing => "signing_failed",
            Self::InvalidShare(_) => "invalid_share",
            Self::NotEnoughShares => "not_enough_shares",
            Self::DuplicateShare(_) => "duplicate_share",
            Self::InvalidKey(_) => "invalid_share_key",
            Self::Decryption => "share_decryption_failed",
            Self::InvalidJson(_) => "invalid_json",
            Self::NonFiniteNumber(_) => "non_finite_number",
            Self::InvalidNumber(_) => "invalid_number",
            Self::NumberOutOfRange(_) => "number_out_of_range",
            Self::InvalidTypedData(_) => "invalid_typed_data",
            Self::InvalidTransaction(_) => "invalid_transaction",
            Self::InvalidMessage(_) => "invalid_message",
        }
    }
}
