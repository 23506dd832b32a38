//! Encryption at rest of stored signing keys: AES-256-GCM under the sealing key
//! ([`crate::keys::sealing`]), the key id as associated data.
//!
//! Every stored private key is sealed. A row that is not sealed, or does not open, is one that
//! nobody holding the sealing key wrote: it is never trusted (see [`crate::tokens::KeyRing`]).

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Nonce};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use zeroize::Zeroizing;

use crate::random::{RandomError, random_bytes};

/// A key could not be sealed or opened.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SealError {
    /// The CSPRNG failed.
    #[error(transparent)]
    Random(#[from] RandomError),
    /// The sealing key is unusable.
    #[error("SYMBOLON_KEY_ENCRYPTION_KEY is not 32 bytes of base64")]
    KeyEncryptionKey,
    /// Encryption failed.
    #[error("sealing failed: {0}")]
    Seal(String),
    /// The stored key does not open (another key, another kid, or tampered with).
    #[error("stored key {kid} is unreadable")]
    BadKey {
        /// The key id.
        kid: String,
    },
    /// The stored key is not sealed: nobody holding the sealing key wrote it.
    #[error("stored key {kid} is not sealed")]
    Unsealed {
        /// The key id.
        kid: String,
    },
}

const SEALED_PREFIX: &str = "aesgcm:";

/// Seals and opens stored private keys. `Debug` hides the key.
#[derive(Clone)]
pub struct KeySealer {
    key: Zeroizing<[u8; 32]>,
}

impl std::fmt::Debug for KeySealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeySealer(<redacted>)")
    }
}

impl KeySealer {
    /// A sealer under `key` (the sealing key).
    pub fn new(key: [u8; 32]) -> Self {
        Self {
            key: Zeroizing::new(key),
        }
    }

    fn cipher(&self) -> Result<Aes256Gcm, SealError> {
        Aes256Gcm::new_from_slice(self.key.as_slice()).map_err(|_| SealError::KeyEncryptionKey)
    }

    /// The stored form of `der` for key `kid`.
    pub fn seal(&self, kid: &str, der: &[u8]) -> Result<String, SealError> {
        let nonce_bytes = random_bytes::<12>()?;
        let nonce =
            Nonce::try_from(&nonce_bytes[..]).map_err(|_| SealError::Seal("nonce size".into()))?;
        let sealed = self
            .cipher()?
            .encrypt(
                &nonce,
                Payload {
                    msg: der,
                    aad: kid.as_bytes(),
                },
            )
            .map_err(|_| SealError::Seal("key encryption failed".into()))?;
        Ok(format!(
            "{SEALED_PREFIX}{}",
            STANDARD.encode([&nonce_bytes[..], &sealed[..]].concat())
        ))
    }

    /// The DER of a stored key sealed under this key for this `kid`. An unsealed row is
    /// [`SealError::Unsealed`]; a row sealed under another key or for another kid, or
    /// tampered with, is [`SealError::BadKey`].
    pub fn open(&self, kid: &str, stored: &str) -> Result<Zeroizing<Vec<u8>>, SealError> {
        let bad = || SealError::BadKey { kid: kid.into() };
        let sealed = stored
            .strip_prefix(SEALED_PREFIX)
            .ok_or_else(|| SealError::Unsealed { kid: kid.into() })?;
        let bytes = STANDARD.decode(sealed).map_err(|_| bad())?;
        let (nonce_bytes, ciphertext) = bytes.split_at_checked(12).ok_or_else(bad)?;
        let nonce = Nonce::try_from(nonce_bytes).map_err(|_| bad())?;
        self.cipher()?
            .decrypt(
                &nonce,
                Payload {
                    msg: ciphertext,
                    aad: kid.as_bytes(),
                },
            )
            .map(Zeroizing::new)
            .map_err(|_| bad())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_keys_open_only_with_the_same_key_and_kid() {
        let sealer = KeySealer::new([3; 32]);
        let stored = sealer.seal("kid1", b"secret der").expect("seal");
        assert!(stored.starts_with(SEALED_PREFIX));
        assert!(!stored.contains(&STANDARD.encode(b"secret der")));
        assert_eq!(
            sealer.open("kid1", &stored).expect("open").as_slice(),
            b"secret der"
        );
        assert!(matches!(
            sealer.open("kid2", &stored),
            Err(SealError::BadKey { .. })
        ));
        assert!(matches!(
            KeySealer::new([9; 32]).open("kid1", &stored),
            Err(SealError::BadKey { .. })
        ));
    }

    #[test]
    fn unsealed_rows_are_refused() {
        // What releases before this one stored without a key-encryption key.
        let plain = STANDARD.encode(b"der");
        assert!(matches!(
            KeySealer::new([3; 32]).open("kid1", &plain),
            Err(SealError::Unsealed { .. })
        ));
    }
}
