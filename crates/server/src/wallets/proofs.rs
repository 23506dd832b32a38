//! The signed messages of the wallet frame's calls (`docs/wallet.md` "Proofs") and their checks.
//!
//! Two signers: the frame's device key (ECDSA P-256 over SHA-256, from Web Crypto: a raw
//! 64-byte r‖s) unlocks the auth share; the wallet's own key (EIP-191 `personal_sign`) proves a
//! new wallet or a replacement of the root shares. Every message names its purpose, the app,
//! the user and a single-use server nonce, so a signature serves one call only. The frame
//! builds the same text (`packages/wallet-frame/src/proofs.ts`); both sides pin it with the
//! same vector.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use p256::ecdsa::signature::Verifier;
use p256::ecdsa::{Signature as P256Signature, VerifyingKey};
use sha2::{Digest, Sha256};
use symbolon_wallet_core::chains::ethereum::{Address, recover_personal_signer};
use symbolon_wallet_core::{Share, decode_hex};

use crate::digest::{hex, sha256_hex};

/// First line of every proof message.
const HEADER: &str = "Symbolon wallet proof";

/// The message the device key signs to unlock the auth share of `address`.
pub fn unlock_message(app_id: &str, user_id: &str, address: &Address, nonce: &str) -> String {
    format!(
        "{HEADER}\npurpose: key_material\napp: {app_id}\nuser: {user_id}\naddress: {}\nnonce: {nonce}",
        lower(address)
    )
}

/// What a wallet-key proof covers besides app, user and nonce.
#[derive(Debug, Clone, Copy)]
pub struct WalletProof<'a> {
    /// `create` or `replace_shares`.
    pub purpose: &'a str,
    /// The wallet whose key signs.
    pub address: &'a Address,
    /// Its index.
    pub wallet_index: u32,
    /// The auth and recovery shares being registered, if any.
    pub shares: Option<(&'a Share, &'a Share)>,
    /// The device public key being registered (base64 as sent), if any.
    pub device_public_key: Option<&'a str>,
}

/// SHA-256 (hex) of the auth share's 17 bytes followed by the recovery share's 17 bytes.
pub fn shares_digest(auth: &Share, recovery: &Share) -> String {
    let mut hash = Sha256::new();
    hash.update(auth.as_bytes());
    hash.update(recovery.as_bytes());
    hex(&hash.finalize())
}

/// The message the wallet key signs with `personal_sign`.
pub fn wallet_proof_message(
    app_id: &str,
    user_id: &str,
    proof: &WalletProof<'_>,
    nonce: &str,
) -> String {
    let shares = proof
        .shares
        .map_or_else(|| "none".to_string(), |(a, r)| shares_digest(a, r));
    format!(
        "{HEADER}\npurpose: {}\napp: {app_id}\nuser: {user_id}\naddress: {}\nwallet index: {}\nshares: {shares}\ndevice key: {}\nnonce: {nonce}",
        proof.purpose,
        lower(proof.address),
        proof.wallet_index,
        proof.device_public_key.unwrap_or("none"),
    )
}

/// Whether `signature` (`0x` hex of r‖s‖v) over `message` recovers to `expected`.
pub fn wallet_signed(message: &str, signature: &str, expected: &Address) -> bool {
    decode_hex(signature.trim())
        .ok()
        .and_then(|bytes| recover_personal_signer(message.as_bytes(), &bytes).ok())
        .is_some_and(|signer| signer == *expected)
}

/// A device public key: base64 of an uncompressed (65-byte, `04…`) P-256 point on the curve.
pub fn parse_device_public_key(text: &str) -> Option<VerifyingKey> {
    let bytes = STANDARD.decode(text.trim()).ok()?;
    if bytes.len() != 65 || bytes.first() != Some(&4) {
        return None;
    }
    VerifyingKey::from_sec1_bytes(&bytes).ok()
}

/// Whether `signature` (base64 of raw r‖s, as Web Crypto returns it) over `message` verifies
/// under the stored device key `public_key`.
pub fn device_signed(public_key: &str, message: &str, signature: &str) -> bool {
    let Some(key) = parse_device_public_key(public_key) else {
        return false;
    };
    let Some(signature) = STANDARD
        .decode(signature.trim())
        .ok()
        .and_then(|bytes| P256Signature::from_slice(&bytes).ok())
    else {
        return false;
    };
    // Web Crypto does not normalise s; either form proves the key (the nonce is single-use).
    let signature = signature.normalize_s().unwrap_or(signature);
    key.verify(message.as_bytes(), &signature).is_ok()
}

/// Addresses appear lower-case in messages (the frame need not compute checksums).
fn lower(address: &Address) -> String {
    address.to_checksum().to_ascii_lowercase()
}

/// SHA-256 (hex) of a challenge nonce: the stored form.
pub fn nonce_hash(nonce: &str) -> String {
    sha256_hex(nonce.as_bytes())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use p256::ecdsa::SigningKey;
    use p256::ecdsa::signature::Signer;
    use symbolon_wallet_core::chains::ethereum::{PrivateKey, personal_sign};

    const ANVIL_KEY: &str = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

    /// The same vector as `packages/wallet-frame/src/proofs.test.ts`.
    #[test]
    fn messages_are_pinned() {
        let address = Address::parse("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266").unwrap();
        let auth = Share::from_bytes(&[1; 17]).unwrap();
        let recovery = Share::from_bytes(&[[3u8].as_slice(), &[2; 16]].concat()).unwrap();
        assert_eq!(
            wallet_proof_message(
                "app",
                "user",
                &WalletProof {
                    purpose: "create",
                    address: &address,
                    wallet_index: 0,
                    shares: Some((&auth, &recovery)),
                    device_public_key: Some("BKEY"),
                },
                "n1",
            ),
            format!(
                "Symbolon wallet proof\npurpose: create\napp: app\nuser: user\naddress: 0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266\nwallet index: 0\nshares: {}\ndevice key: BKEY\nnonce: n1",
                shares_digest(&auth, &recovery)
            )
        );
        assert_eq!(
            shares_digest(&auth, &recovery),
            "c72d89d92449f05e0acb8636afb5137c2eda940b4ef7d4cbb121d14b7ea61a50"
        );
        assert_eq!(
            unlock_message("app", "user", &address, "n2"),
            "Symbolon wallet proof\npurpose: key_material\napp: app\nuser: user\naddress: 0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266\nnonce: n2"
        );
    }

    #[test]
    fn wallet_signature_must_come_from_the_address() {
        let key = PrivateKey::from_bytes(&decode_hex(ANVIL_KEY).unwrap()).unwrap();
        let signature = personal_sign(&key, b"proof").unwrap().to_hex();
        assert!(wallet_signed("proof", &signature, &key.address()));
        assert!(!wallet_signed("proof!", &signature, &key.address()));
        let other = PrivateKey::from_bytes(&[7; 32]).unwrap().address();
        assert!(!wallet_signed("proof", &signature, &other));
        assert!(!wallet_signed("proof", "0x1234", &key.address()));
    }

    #[test]
    fn device_signature_verifies_raw_r_s() {
        let signing = SigningKey::from_slice(&[9; 32]).unwrap();
        let public = STANDARD.encode(signing.verifying_key().to_encoded_point(false).as_bytes());
        let signature: P256Signature = signing.sign(b"unlock");
        let raw = STANDARD.encode(signature.to_bytes());
        assert!(device_signed(&public, "unlock", &raw));
        assert!(!device_signed(&public, "unlock!", &raw));
        let other = SigningKey::from_slice(&[8; 32]).unwrap();
        let other_public =
            STANDARD.encode(other.verifying_key().to_encoded_point(false).as_bytes());
        assert!(!device_signed(&other_public, "unlock", &raw));
        assert!(!device_signed(&public, "unlock", "AAAA"));
        // Compressed points and junk are not device keys.
        let compressed = STANDARD.encode(signing.verifying_key().to_encoded_point(true).as_bytes());
        assert!(parse_device_public_key(&compressed).is_none());
        assert!(parse_device_public_key("not base64").is_none());
    }
}
