//! Encryption at rest of stored signing keys (AES-256-GCM, the key id as associated data).
//!
//! With no key-encryption key configured, private keys are stored as plain base64 PKCS#8 DER.

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Nonce};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use super::TokenError;
use crate::random::random_bytes;

const SEALED_PREFIX: &str = "aesgcm:";

/// Seals and opens stored private keys. `Debug` hides the key.
#[derive(Clone, Default)]
pub struct KeySealer {
    key: Option<[u8; 32]>,
}

impl std::fmt::Debug for KeySealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeySealer")
            .field("encrypting", &self.key.is_some())
            .finish()
    }
}

impl KeySealer {
    /// A sealer with no key: keys are stored unencrypted.
    pub fn plain() -> Self {
        Self::default()
    }

    /// A sealer from a base64 32-byte key (`SYMBOLON_KEY_ENCRYPTION_KEY`).
    pub fn from_base64(encoded: &str) -> Result<Self, TokenError> {
        let bytes = STANDARD
            .decode(encoded.trim())
            .map_err(|_| TokenError::KeyEncryptionKey)?;
        let key: [u8; 32] = bytes.try_into().map_err(|_| TokenError::KeyEncryptionKey)?;
        Ok(Self { key: Some(key) })
    }

    fn cipher(&self) -> Option<Aes256Gcm> {
        self.key
            .as_ref()
            .and_then(|key| Aes256Gcm::new_from_slice(key).ok())
    }

    /// The stored form of `der` for key `kid`.
    pub fn seal(&self, kid: &str, der: &[u8]) -> Result<String, TokenError> {
        let Some(cipher) = self.cipher() else {
            return Ok(STANDARD.encode(der));
        };
        let nonce_bytes = random_bytes::<12>()?;
        let nonce =
            Nonce::try_from(&nonce_bytes[..]).map_err(|_| TokenError::Sign("nonce size".into()))?;
        let sealed = cipher
            .encrypt(
                &nonce,
                Payload {
                    msg: der,
                    aad: kid.as_bytes(),
                },
            )
            .map_err(|_| TokenError::Sign("key encryption failed".into()))?;
        Ok(format!(
            "{SEALED_PREFIX}{}",
            STANDARD.encode([&nonce_bytes[..], &sealed[..]].concat())
        ))
    }

    /// The DER of a stored key; sealed keys need the same key-encryption key and `kid`.
    pub fn open(&self, kid: &str, stored: &str) -> Result<Vec<u8>, TokenError> {
        let bad = || TokenError::BadKey { kid: kid.into() };
        let Some(sealed) = stored.strip_prefix(SEALED_PREFIX) else {
            return STANDARD.decode(stored).map_err(|_| bad());
        };
        let cipher = self.cipher().ok_or(TokenError::KeyEncryptionKey)?;
        let bytes = STANDARD.decode(sealed).map_err(|_| bad())?;
        let (nonce_bytes, ciphertext) = bytes.split_at_checked(12).ok_or_else(bad)?;
        let nonce = Nonce::try_from(nonce_bytes).map_err(|_| bad())?;
        cipher
            .decrypt(
                &nonce,
                Payload {
                    msg: ciphertext,
                    aad: kid.as_bytes(),
                },
            )
            .map_err(|_| bad())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEK: &str = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

    #[test]
    fn sealed_keys_open_only_with_the_same_key_and_kid() {
        let sealer = KeySealer::from_base64(KEK).expect("kek");
        let stored = sealer.seal("kid1", b"secret der").expect("seal");
        assert!(stored.starts_with(SEALED_PREFIX));
        assert!(!stored.contains(&STANDARD.encode(b"secret der")));
        assert_eq!(sealer.open("kid1", &stored).expect("open"), b"secret der");
        assert!(matches!(
            sealer.open("kid2", &stored),
            Err(TokenError::BadKey { .. })
        ));
        let other = KeySealer::from_base64(&STANDARD.encode([9u8; 32])).expect("kek");
        assert!(matches!(
            other.open("kid1", &stored),
            Err(TokenError::BadKey { .. })
        ));
        assert!(matches!(
            KeySealer::plain().open("kid1", &stored),
            Err(TokenError::KeyEncryptionKey)
        ));
    }

    #[test]
    fn plain_keys_are_base64_and_readable_by_any_sealer() {
        let stored = KeySealer::plain().seal("kid1", b"der").expect("seal");
        assert_eq!(stored, STANDARD.encode(b"der"));
        let sealer = KeySealer::from_base64(KEK).expect("kek");
        assert_eq!(sealer.open("kid1", &stored).expect("open"), b"der");
    }

    #[test]
    fn bad_key_encryption_keys_are_refused() {
        assert!(KeySealer::from_base64("short").is_err());
        assert!(KeySealer::from_base64(&STANDARD.encode([1u8; 16])).is_err());
    }
}
