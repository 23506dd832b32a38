//! The sealing key: the one server secret that protects the others kept in the database.
//!
//! It seals the token signing keys (so a copy of the database cannot mint tokens) and derives
//! the HMAC keys of one-time codes and refresh-token rotation, and the key that seals the
//! secrets of app settings. It comes from
//! `SYMBOLON_KEY_ENCRYPTION_KEY`, or (dev and tests) a key file generated once in the key
//! directory, and is never written to the database.

use hkdf::Hkdf;
use sha2::Sha256;
use zeroize::Zeroizing;

use crate::config::Config;
use crate::keys::key_sealer::KeySealer;
use crate::keys::share_keys::{KeySlot, SHARE_KEY_LEN, ShareKeyError, load_share_key};

/// Where the sealing key comes from.
pub const SEALING_KEY: KeySlot = KeySlot {
    env: "SYMBOLON_KEY_ENCRYPTION_KEY",
    file: "token-seal.key",
};

/// What a derived key is for: each purpose gets an independent key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// HMAC of one-time codes at rest.
    OtpHmac,
    /// HMAC that derives a refresh token's one child from the token itself.
    RefreshRotation,
    /// AES-256-GCM key of the secrets in app settings ([`crate::app_secrets`]).
    AppSecrets,
    /// The seed of the wallet transfer key pair ([`super::wallet_transfer`]).
    WalletTransfer,
}

impl Purpose {
    fn info(self) -> &'static [u8] {
        match self {
            Self::OtpHmac => b"symbolon/otp-hmac/v1",
            Self::RefreshRotation => b"symbolon/refresh-rotation/v1",
            Self::AppSecrets => b"symbolon/app-secrets/v1",
            Self::WalletTransfer => b"symbolon/wallet-transfer/v1",
        }
    }
}

/// The sealing key. `Debug` shows nothing of it.
pub struct SealingKey(Zeroizing<[u8; SHARE_KEY_LEN]>);

impl std::fmt::Debug for SealingKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SealingKey(<redacted>)")
    }
}

impl SealingKey {
    /// The configured key, or the key file in the key directory (created at first start).
    pub fn load(config: &Config) -> Result<Self, ShareKeyError> {
        let key = load_share_key(
            SEALING_KEY,
            config.key_encryption_key.as_ref(),
            &config.key_dir,
        )?;
        Ok(Self(key.bytes))
    }

    /// A key from its bytes (tests and tools).
    pub fn from_bytes(bytes: [u8; SHARE_KEY_LEN]) -> Self {
        Self(Zeroizing::new(bytes))
    }

    /// Seals and opens the stored token signing keys.
    pub fn sealer(&self) -> KeySealer {
        KeySealer::new(*self.0)
    }

    /// The key for `purpose`: HKDF-SHA256 (RFC 5869) of the sealing key, no salt.
    pub fn derive(&self, purpose: Purpose) -> Zeroizing<Vec<u8>> {
        let mut out = Zeroizing::new(vec![0u8; 32]);
        // 32 bytes is far below HKDF-SHA256's 255 × 32 limit, so expand cannot fail.
        let _ = Hkdf::<Sha256>::new(None, self.0.as_slice()).expand(purpose.info(), &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn purposes_get_independent_keys_bound_to_the_sealing_key() {
        let key = SealingKey::from_bytes([7; 32]);
        let otp = key.derive(Purpose::OtpHmac);
        assert_ne!(*otp, *key.derive(Purpose::RefreshRotation));
        assert_eq!(*otp, *key.derive(Purpose::OtpHmac));
        assert_ne!(
            *otp,
            *SealingKey::from_bytes([8; 32]).derive(Purpose::OtpHmac)
        );
        assert_ne!(otp.as_slice(), &[7u8; 32]);
        assert_eq!(format!("{key:?}"), "SealingKey(<redacted>)");
    }

    #[test]
    fn hkdf_matches_rfc_5869_case_3() {
        // Test case 3: no salt, no info, 42 bytes.
        let ikm = [0x0bu8; 22];
        let mut okm = [0u8; 42];
        Hkdf::<Sha256>::new(None, &ikm)
            .expand(&[], &mut okm)
            .expect("expand");
        assert_eq!(
            crate::digest::hex(&okm),
            "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"
        );
    }
}
