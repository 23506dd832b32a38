//! ES256 signing keys, access and identity tokens, opaque refresh tokens.

pub mod access;
pub mod es256_signer;
pub mod key_ring;
pub mod refresh;

use crate::error::AppError;
use crate::keys::key_sealer::SealError;
pub use access::{TokenIssuer, VerifyError};
pub use es256_signer::Es256Signer;
pub use key_ring::{Jwk, JwksResponse, KeyRing};

/// Failure to create or load signing keys, or to sign.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TokenError {
    /// The key store failed.
    #[error(transparent)]
    Db(#[from] crate::db::DbError),
    /// The CSPRNG failed.
    #[error(transparent)]
    Random(#[from] crate::random::RandomError),
    /// A stored key could not be decoded.
    #[error("stored signing key {kid} is unreadable")]
    BadKey {
        /// The key id.
        kid: String,
    },
    /// The sealing key is unusable.
    #[error("SYMBOLON_KEY_ENCRYPTION_KEY is not 32 bytes of base64")]
    KeyEncryptionKey,
    /// No stored key opens under the configured sealing key, but some are sealed.
    #[error(
        "the stored signing keys are sealed under another key: check SYMBOLON_KEY_ENCRYPTION_KEY (or the token-seal.key file)"
    )]
    WrongSealingKey,
    /// A stored key is not sealed: nobody holding the sealing key wrote it.
    #[error("stored signing key {kid} is not sealed")]
    Unsealed {
        /// The key id.
        kid: String,
    },
    /// Encoding or signing failed.
    #[error("signing failed: {0}")]
    Sign(String),
}

impl From<SealError> for TokenError {
    fn from(error: SealError) -> Self {
        match error {
            SealError::Random(e) => Self::Random(e),
            SealError::KeyEncryptionKey => Self::KeyEncryptionKey,
            SealError::Seal(message) => Self::Sign(message),
            SealError::BadKey { kid } => Self::BadKey { kid },
            SealError::Unsealed { kid } => Self::Unsealed { kid },
        }
    }
}

impl From<TokenError> for AppError {
    fn from(error: TokenError) -> Self {
        Self::internal(&error)
    }
}
