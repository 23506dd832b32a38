//! Auth and recovery shares at rest: wallet-core's AES-256-GCM envelopes, each kind under its
//! own server key, bound to the share kind, the root wallet's address and the user.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use symbolon_wallet_core::chains::ethereum::Address;
use symbolon_wallet_core::{Share, ShareAad, ShareKind, decrypt_share, encrypt_share};

use super::share_keys::{
    AUTH_SHARE_KEY, RECOVERY_SHARE_KEY, ShareKey, ShareKeyError, load_share_key,
};
use crate::config::Config;

/// A share could not be sealed or opened. Never carries share bytes.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VaultError {
    /// The server keeps no key for this kind (device shares never reach it).
    #[error("the server does not keep {0} shares")]
    NoKey(&'static str),
    /// Encryption failed, or a stored envelope is corrupt or under another key.
    #[error("{0} share envelope: {1}")]
    Envelope(&'static str, symbolon_wallet_core::WalletError),
    /// A stored envelope is not base64.
    #[error("{0} share envelope is not base64")]
    Encoding(&'static str),
}

/// The two share keys. `Debug` shows no key.
pub struct ShareVault {
    auth: ShareKey,
    recovery: ShareKey,
}

impl std::fmt::Debug for ShareVault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ShareVault(<redacted>)")
    }
}

impl ShareVault {
    /// Loads both keys from `config` (generating key files where unset).
    pub fn from_config(config: &Config) -> Result<Self, ShareKeyError> {
        let auth = load_share_key(
            AUTH_SHARE_KEY,
            config.auth_share_key.as_ref(),
            &config.key_dir,
        )?;
        let recovery = load_share_key(
            RECOVERY_SHARE_KEY,
            config.recovery_share_key.as_ref(),
            &config.key_dir,
        )?;
        if *auth.bytes == *recovery.bytes {
            return Err(ShareKeyError::Identical);
        }
        Ok(Self { auth, recovery })
    }

    fn key(&self, kind: ShareKind) -> Result<&[u8], VaultError> {
        match kind {
            ShareKind::Auth => Ok(self.auth.bytes.as_slice()),
            ShareKind::Recovery => Ok(self.recovery.bytes.as_slice()),
            ShareKind::Device => Err(VaultError::NoKey("device")),
        }
    }

    /// The envelope (base64) of `share` for `user_id`'s wallets rooted at `root_address`.
    pub fn seal(
        &self,
        share: &Share,
        root_address: Address,
        user_id: &str,
    ) -> Result<String, VaultError> {
        let kind = share.kind();
        let aad = ShareAad {
            kind,
            address: root_address,
            user_id,
        };
        let envelope = encrypt_share(self.key(kind)?, &aad, share)
            .map_err(|e| VaultError::Envelope(kind.name(), e))?;
        Ok(STANDARD.encode(envelope))
    }

    /// Opens an envelope made by [`Self::seal`] for the same kind, address and user.
    pub fn open(
        &self,
        kind: ShareKind,
        envelope: &str,
        root_address: Address,
        user_id: &str,
    ) -> Result<Share, VaultError> {
        let bytes = STANDARD
            .decode(envelope)
            .map_err(|_| VaultError::Encoding(kind.name()))?;
        let aad = ShareAad {
            kind,
            address: root_address,
            user_id,
        };
        decrypt_share(self.key(kind)?, &aad, &bytes)
            .map_err(|e| VaultError::Envelope(kind.name(), e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Redacted;
    use symbolon_wallet_core::{Entropy, split_entropy};

    fn vault(auth: [u8; 32], recovery: [u8; 32]) -> Result<ShareVault, ShareKeyError> {
        let config = Config {
            auth_share_key: Some(Redacted(STANDARD.encode(auth))),
            recovery_share_key: Some(Redacted(STANDARD.encode(recovery))),
            ..Config::default()
        };
        ShareVault::from_config(&config)
    }

    #[test]
    fn identical_keys_are_refused() {
        let err = vault([1; 32], [1; 32]).expect_err("same keys");
        assert_eq!(
            err.to_string(),
            "SYMBOLON_AUTH_SHARE_KEY and SYMBOLON_RECOVERY_SHARE_KEY must differ"
        );
    }

    #[test]
    fn shares_round_trip_bound_to_kind_address_and_user() {
        let vault = vault([1; 32], [2; 32]).expect("vault");
        let shares = split_entropy(&Entropy::generate().expect("entropy")).expect("split");
        let address = Address([9; 20]);
        let sealed = vault
            .seal(&shares.auth, address, "did:privy:a")
            .expect("seal");
        let opened = vault
            .open(ShareKind::Auth, &sealed, address, "did:privy:a")
            .expect("open");
        assert_eq!(opened, shares.auth);
        // Another user, another address or the other kind's key: refused.
        assert!(
            vault
                .open(ShareKind::Auth, &sealed, address, "did:privy:b")
                .is_err()
        );
        assert!(
            vault
                .open(ShareKind::Auth, &sealed, Address([8; 20]), "did:privy:a")
                .is_err()
        );
        assert!(
            vault
                .open(ShareKind::Recovery, &sealed, address, "did:privy:a")
                .is_err()
        );
        let err = vault
            .seal(&shares.device, address, "did:privy:a")
            .expect_err("device");
        assert_eq!(err.to_string(), "the server does not keep device shares");
        let err = vault
            .open(ShareKind::Auth, "%%", address, "did:privy:a")
            .expect_err("encoding");
        assert_eq!(err.to_string(), "auth share envelope is not base64");
        assert_eq!(format!("{vault:?}"), "ShareVault(<redacted>)");
    }
}
