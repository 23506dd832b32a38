//! AEAD envelopes for shares: AES-256-GCM, key from HKDF-SHA256, random salt and nonce,
//! associated data binding share kind, wallet address and user.

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Nonce};
use hkdf::Hkdf;
use sha2::Sha256;
use zeroize::Zeroizing;

use super::{Share, ShareKind};
use crate::chains::ethereum::Address;
use crate::{Result, WalletError};

/// Envelope format version (first byte).
const VERSION: u8 = 1;
const SALT_LEN: usize = 32;
const NONCE_LEN: usize = 12;
const TAG_LEN: usize = 16;
/// Shortest accepted key material.
const MIN_KEY_LEN: usize = 32;
/// HKDF `info` prefix; the share kind follows.
const INFO: &[u8] = b"symbolon/wallet-share/v1/";

/// What an envelope is bound to; decrypting with any other value fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShareAad<'a> {
    /// The share's kind.
    pub kind: ShareKind,
    /// The wallet's address (of wallet index 0).
    pub address: Address,
    /// The owning user's id.
    pub user_id: &'a str,
}

impl ShareAad<'_> {
    /// `version || "symbolon-share" || kind || address || len(user) (u32 BE) || user`.
    fn to_bytes(self) -> Vec<u8> {
        let user = self.user_id.as_bytes();
        let mut out = Vec::with_capacity(40 + user.len());
        out.push(VERSION);
        out.extend_from_slice(b"symbolon-share");
        out.push(self.kind.identifier());
        out.extend_from_slice(&self.address.0);
        out.extend_from_slice(&u32::try_from(user.len()).unwrap_or(u32::MAX).to_be_bytes());
        out.extend_from_slice(user);
        out
    }
}

fn cipher(key: &[u8], salt: &[u8], kind: ShareKind) -> Result<Aes256Gcm> {
    if key.len() < MIN_KEY_LEN {
        return Err(WalletError::InvalidKey(
            [&key.len().to_string(), " bytes, need at least 32"].concat(),
        ));
    }
    let mut okm = Zeroizing::new([0u8; 32]);
    Hkdf::<Sha256>::new(Some(salt), key)
        .expand_multi_info(&[INFO, kind.name().as_bytes()], okm.as_mut())
        .map_err(|_| WalletError::InvalidKey("HKDF expand failed".into()))?;
    Aes256Gcm::new_from_slice(okm.as_ref())
        .map_err(|_| WalletError::InvalidKey("bad AES key".into()))
}

/// Encrypts `share` for its holder: `version || salt(32) || nonce(12) || ciphertext || tag(16)`.
/// `key` is the holder's key material (≥ 32 bytes, e.g. a random 32-byte key).
pub fn encrypt_share(key: &[u8], aad: &ShareAad<'_>, share: &Share) -> Result<Vec<u8>> {
    if share.kind() != aad.kind {
        return Err(WalletError::InvalidShare(
            "share kind differs from the associated data".into(),
        ));
    }
    let mut random = [0u8; SALT_LEN + NONCE_LEN];
    getrandom::fill(&mut random).map_err(|_| WalletError::Randomness)?;
    let (salt, nonce) = random.split_at(SALT_LEN);
    let nonce =
        Nonce::from(<[u8; NONCE_LEN]>::try_from(nonce).map_err(|_| WalletError::Randomness)?);
    let associated = aad.to_bytes();
    let ciphertext = cipher(key, salt, aad.kind)?
        .encrypt(
            &nonce,
            Payload {
                msg: share.as_bytes(),
                aad: &associated,
            },
        )
        .map_err(|_| WalletError::Decryption)?;
    let mut out = Vec::with_capacity(1 + random.len() + ciphertext.len());
    out.push(VERSION);
    out.extend_from_slice(&random);
    out.extend_from_slice(&ciphertext);
    Ok(out)
}

/// Decrypts an envelope made by [`encrypt_share`] with the same key and associated data.
pub fn decrypt_share(key: &[u8], aad: &ShareAad<'_>, envelope: &[u8]) -> Result<Share> {
    if envelope.len() < 1 + SALT_LEN + NONCE_LEN + TAG_LEN || envelope[0] != VERSION {
        return Err(WalletError::Decryption);
    }
    let (salt, rest) = envelope[1..].split_at(SALT_LEN);
    let (nonce, ciphertext) = rest.split_at(NONCE_LEN);
    let nonce =
        Nonce::from(<[u8; NONCE_LEN]>::try_from(nonce).map_err(|_| WalletError::Decryption)?);
    let associated = aad.to_bytes();
    let plain = Zeroizing::new(
        cipher(key, salt, aad.kind)?
            .decrypt(
                &nonce,
                Payload {
                    msg: ciphertext,
                    aad: &associated,
                },
            )
            .map_err(|_| WalletError::Decryption)?,
    );
    let share = Share::from_bytes(&plain)?;
    if share.kind() != aad.kind {
        return Err(WalletError::InvalidShare(
            "decrypted share has another kind".into(),
        ));
    }
    Ok(share)
}
