//! The crate's single error type.

/// Everything that can go wrong in wallet-core. Each variant has a stable [`WalletError::code`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum WalletError {
    /// A hex string is malformed (odd length, non-hex character, missing `0x` where required).
    InvalidHex(String),
    /// An Ethereum address is not `0x` followed by 40 hex characters.
    InvalidAddress(String),
    /// A mixed-case address whose EIP-55 checksum does not match.
    AddressChecksum(String),
    /// Entropy has the wrong length (wallet entropy is 16 bytes; BIP-39 allows 16–32).
    InvalidEntropy(usize),
    /// The platform random number generator failed.
    Randomness,
    /// BIP-32 derivation failed (invalid seed length, or a derived key out of range).
    Derivation,
    /// Bytes are not a valid secp256k1 private key.
    InvalidPrivateKey,
    /// A signature is malformed or does not recover to a public key.
    InvalidSignature(String),
    /// The signer could not produce an Ethereum-compatible signature.
    Signing,
    /// A share is malformed (length, identifier, or kind).
    InvalidShare(String),
    /// Fewer than the two shares needed to rebuild the entropy were given.
    NotEnoughShares,
    /// The same share kind was given twice.
    DuplicateShare(String),
    /// A share encryption key is too short.
    InvalidKey(String),
    /// AEAD decryption failed: wrong key, wrong associated data, or tampered ciphertext.
    Decryption,
    /// Input is not valid JSON.
    InvalidJson(String),
    /// A number is NaN or ±Infinity (rejected for typed data and transactions).
    NonFiniteNumber(String),
    /// A number is malformed (not an integer, not a safe integer, bad digits).
    InvalidNumber(String),
    /// A number does not fit the declared type (e.g. `uint8` = 256).
    NumberOutOfRange(String),
    /// EIP-712 typed data is malformed (types, primaryType, domain, message).
    InvalidTypedData(String),
    /// A transaction request is malformed or inconsistent.
    InvalidTransaction(String),
    /// A `personal_sign` message is malformed for its declared encoding.
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
    /// The human-readable message (also the `Display` form), built without `format!` so the
    /// wasm build links no formatting code for it.
    pub fn message(&self) -> String {
        match self {
            Self::InvalidHex(detail) => ["invalid hex: ", detail.as_str()].concat(),
            Self::InvalidAddress(detail) => ["invalid address: ", detail.as_str()].concat(),
            Self::AddressChecksum(detail) => {
                ["address checksum mismatch (EIP-55): ", detail.as_str()].concat()
            }
            Self::InvalidEntropy(length) => {
                ["invalid entropy length: ", &length.to_string(), " bytes"].concat()
            }
            Self::Randomness => "random number generator unavailable".to_owned(),
            Self::Derivation => "key derivation failed".to_owned(),
            Self::InvalidPrivateKey => "invalid private key".to_owned(),
            Self::InvalidSignature(detail) => ["invalid signature: ", detail.as_str()].concat(),
            Self::Signing => "signing failed".to_owned(),
            Self::InvalidShare(detail) => ["invalid share: ", detail.as_str()].concat(),
            Self::NotEnoughShares => "at least 2 distinct shares are required".to_owned(),
            Self::DuplicateShare(detail) => ["duplicate share kind: ", detail.as_str()].concat(),
            Self::InvalidKey(detail) => ["invalid share key: ", detail.as_str()].concat(),
            Self::Decryption => "share decryption failed".to_owned(),
            Self::InvalidJson(detail) => ["invalid JSON: ", detail.as_str()].concat(),
            Self::NonFiniteNumber(detail) => {
                ["non-finite number not allowed: ", detail.as_str()].concat()
            }
            Self::InvalidNumber(detail) => ["invalid number: ", detail.as_str()].concat(),
            Self::NumberOutOfRange(detail) => ["number out of range: ", detail.as_str()].concat(),
            Self::InvalidTypedData(detail) => ["invalid typed data: ", detail.as_str()].concat(),
            Self::InvalidTransaction(detail) => ["invalid transaction: ", detail.as_str()].concat(),
            Self::InvalidMessage(detail) => ["invalid message: ", detail.as_str()].concat(),
        }
    }
}

impl core::fmt::Display for WalletError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.message())
    }
}

impl core::error::Error for WalletError {}
