//! Moving embedded wallets between two Symbolon servers (`symbolon users export --wallets-to`,
//! `symbolon users import`): the source opens a wallet's auth and recovery shares and seals the
//! pair with HPKE (RFC 9180: X25519, HKDF-SHA256, ChaCha20-Poly1305) to the destination's
//! transfer key, bound to the user, the chain and the root address; only the destination opens
//! them, and re-seals them under its own share keys.
//!
//! The transfer key pair is derived from the destination's sealing key (HPKE `DeriveKeyPair` of an
//! HKDF output), so it is never stored anywhere, and the public half can be printed any time
//! (`symbolon users transfer-key`).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hpke::aead::ChaCha20Poly1305;
use hpke::kdf::HkdfSha256;
use hpke::kem::X25519HkdfSha256;
use hpke::{Deserializable, Kem, OpModeR, OpModeS, Serializable};
use symbolon_protocol::server_api::SealedWalletShares;
use symbolon_protocol::user::ChainType;
use symbolon_wallet_core::{Share, ShareKind};

use super::sealing::{Purpose, SealingKey};

/// The prefix of a printed transfer public key, so a wrong string is told apart from a wrong key.
pub const PUBLIC_KEY_PREFIX: &str = "symbolon-transfer-v1:";

const INFO: &[u8] = b"symbolon/wallet-transfer/v1";

/// A destination's transfer public key (`--wallets-to`).
pub type TransferPublicKey = <X25519HkdfSha256 as Kem>::PublicKey;

/// A transfer could not be sealed or opened. Never carries share bytes.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum TransferError {
    /// `--wallets-to` is not a transfer public key.
    #[error("not a transfer key: expected {PUBLIC_KEY_PREFIX} and 43 base64url characters")]
    BadPublicKey,
    /// The sealed shares are not for this server's key, were changed, or belong to another user,
    /// chain or address.
    #[error(
        "the wallet's shares do not open with this server's transfer key (exported for another server, or changed)"
    )]
    DoesNotOpen,
    /// Sealing failed (the RNG).
    #[error("sealing the wallet's shares failed")]
    Seal,
}

/// This server's transfer key pair. `Debug` shows only the public half.
pub struct TransferKey {
    private: <X25519HkdfSha256 as Kem>::PrivateKey,
    public: TransferPublicKey,
}

impl std::fmt::Debug for TransferKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TransferKey({})", self.public_text())
    }
}

impl TransferKey {
    /// The pair derived from `sealing`.
    pub fn derive(sealing: &SealingKey) -> Self {
        let ikm = sealing.derive(Purpose::WalletTransfer);
        let (private, public) = X25519HkdfSha256::derive_keypair(&ikm);
        Self { private, public }
    }

    /// The public half as `--wallets-to` takes it.
    pub fn public_text(&self) -> String {
        format!(
            "{PUBLIC_KEY_PREFIX}{}",
            URL_SAFE_NO_PAD.encode(self.public.to_bytes())
        )
    }

    /// The auth and recovery shares sealed in `sealed`, once they open for this key, this user,
    /// chain and root address.
    pub fn open(&self, sealed: &SealedWalletShares) -> Result<(Share, Share), TransferError> {
        let decode = |text: &str| {
            URL_SAFE_NO_PAD
                .decode(text)
                .map_err(|_| TransferError::DoesNotOpen)
        };
        let encapped =
            <X25519HkdfSha256 as Kem>::EncappedKey::from_bytes(&decode(&sealed.encapsulated_key)?)
                .map_err(|_| TransferError::DoesNotOpen)?;
        let plaintext = zeroize::Zeroizing::new(
            hpke::single_shot_open::<ChaCha20Poly1305, HkdfSha256, X25519HkdfSha256>(
                &OpModeR::Base,
                &self.private,
                &encapped,
                INFO,
                &decode(&sealed.ciphertext)?,
                &aad(&sealed.user_id, sealed.chain_type, &sealed.root_address),
            )
            .map_err(|_| TransferError::DoesNotOpen)?,
        );
        let half = plaintext.len() / 2;
        let share = |bytes: &[u8], kind: ShareKind| {
            Share::from_bytes(bytes)
                .ok()
                .filter(|s| s.kind() == kind)
                .ok_or(TransferError::DoesNotOpen)
        };
        Ok((
            share(&plaintext[..half], ShareKind::Auth)?,
            share(&plaintext[half..], ShareKind::Recovery)?,
        ))
    }
}

/// The public key in `text` (as [`TransferKey::public_text`] prints it).
pub fn parse_public_key(text: &str) -> Result<TransferPublicKey, TransferError> {
    let encoded = text
        .trim()
        .strip_prefix(PUBLIC_KEY_PREFIX)
        .ok_or(TransferError::BadPublicKey)?;
    let bytes = URL_SAFE_NO_PAD
        .decode(encoded)
        .map_err(|_| TransferError::BadPublicKey)?;
    TransferPublicKey::from_bytes(&bytes).map_err(|_| TransferError::BadPublicKey)
}

/// Seals `auth` and `recovery` of `user_id`'s root wallet `root_address` on `chain` to `to`.
pub fn seal_shares(
    to: &TransferPublicKey,
    user_id: &str,
    chain: ChainType,
    root_address: &str,
    auth: &Share,
    recovery: &Share,
) -> Result<SealedWalletShares, TransferError> {
    let mut plaintext = zeroize::Zeroizing::new(auth.as_bytes().to_vec());
    plaintext.extend_from_slice(recovery.as_bytes());
    let (encapped, ciphertext) =
        hpke::single_shot_seal::<ChaCha20Poly1305, HkdfSha256, X25519HkdfSha256, _>(
            &OpModeS::Base,
            to,
            INFO,
            &plaintext,
            &aad(user_id, chain, root_address),
            &mut rand_core_09::UnwrapErr(rand_core_09::OsRng),
        )
        .map_err(|_| TransferError::Seal)?;
    Ok(SealedWalletShares {
        user_id: user_id.to_string(),
        chain_type: chain,
        root_address: root_address.to_string(),
        encapsulated_key: URL_SAFE_NO_PAD.encode(encapped.to_bytes()),
        ciphertext: URL_SAFE_NO_PAD.encode(ciphertext),
    })
}

/// What the seal is bound to: a pair moved to another user, chain or address does not open.
fn aad(user_id: &str, chain: ChainType, root_address: &str) -> Vec<u8> {
    format!(
        "{}\n{}\n{}",
        user_id,
        chain.as_str(),
        root_address.to_ascii_lowercase()
    )
    .into_bytes()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use symbolon_wallet_core::{Entropy, split_entropy};

    fn key(byte: u8) -> TransferKey {
        TransferKey::derive(&SealingKey::from_bytes([byte; 32]))
    }

    #[test]
    fn shares_open_only_for_the_destination_user_chain_and_address() {
        let shares = split_entropy(&Entropy::generate().unwrap()).unwrap();
        let destination = key(1);
        let to = parse_public_key(&destination.public_text()).unwrap();
        let sealed = seal_shares(
            &to,
            "did:privy:a",
            ChainType::Ethereum,
            "0xAbC",
            &shares.auth,
            &shares.recovery,
        )
        .unwrap();
        let (auth, recovery) = destination.open(&sealed).unwrap();
        assert_eq!(
            (auth, recovery),
            (shares.auth.clone(), shares.recovery.clone())
        );
        // The same derivation gives the same key (nothing stored); another sealing key does not open.
        assert_eq!(key(1).public_text(), destination.public_text());
        assert_eq!(key(2).open(&sealed), Err(TransferError::DoesNotOpen));
        for changed in [
            SealedWalletShares {
                user_id: "did:privy:b".into(),
                ..sealed.clone()
            },
            SealedWalletShares {
                root_address: "0xabd".into(),
                ..sealed.clone()
            },
            SealedWalletShares {
                chain_type: ChainType::Solana,
                ..sealed.clone()
            },
            SealedWalletShares {
                ciphertext: format!("A{}", &sealed.ciphertext[1..]),
                ..sealed.clone()
            },
        ] {
            assert_eq!(destination.open(&changed), Err(TransferError::DoesNotOpen));
        }
    }

    #[test]
    fn only_printed_transfer_keys_are_taken() {
        let text = key(3).public_text();
        assert!(parse_public_key(&text).is_ok());
        for bad in [
            "",
            "symbolon-transfer-v1:",
            "symbolon-transfer-v1:abc",
            &text[PUBLIC_KEY_PREFIX.len()..],
        ] {
            assert_eq!(
                parse_public_key(bad).err(),
                Some(TransferError::BadPublicKey),
                "{bad}"
            );
        }
    }
}
