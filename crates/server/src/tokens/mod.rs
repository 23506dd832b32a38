//! ES256 signing keys, access and identity tokens, opaque refresh tokens.

pub mod access;
pub mod key_ring;
pub mod refresh;

pub use access::{TokenIssuer, VerifyError};
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
    /// Encoding or signing failed.
    #[error("signing failed: {0}")]
    Sign(String),
}
