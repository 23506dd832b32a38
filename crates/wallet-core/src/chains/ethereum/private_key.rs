//! A secp256k1 private key that signs Ethereum hashes.

use k256::ecdsa::SigningKey;
use zeroize::Zeroizing;

use super::{Address, B256, Signature};
use crate::{Result, WalletError};

/// A secp256k1 private key. The inner key zeroizes itself on drop.
#[derive(Clone)]
pub struct PrivateKey(SigningKey);

impl PrivateKey {
    /// Parses 32 big-endian bytes (must be in `1..n`).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        if bytes.len() != 32 {
            return Err(WalletError::InvalidPrivateKey);
        }
        SigningKey::from_slice(bytes)
            .map(Self)
            .map_err(|_| WalletError::InvalidPrivateKey)
    }

    /// The 32 private key bytes (zeroized on drop).
    pub fn to_bytes(&self) -> Zeroizing<[u8; 32]> {
        Zeroizing::new(self.0.to_bytes().into())
    }

    /// The private key as `0x`-prefixed hex, for key export (zeroized on drop).
    pub fn to_hex(&self) -> Zeroizing<String> {
        Zeroizing::new(crate::encode_hex(self.to_bytes().as_ref()))
    }

    /// The Ethereum address of this key.
    pub fn address(&self) -> Address {
        let point = self.0.verifying_key().to_encoded_point(false);
        // An uncompressed SEC1 point of a valid key always has 65 bytes.
        Address::from_uncompressed_point(point.as_bytes()).unwrap_or(Address([0; 20]))
    }

    /// Signs a 32-byte prehash (RFC 6979 deterministic nonce, low-s), returning r, s and y-parity.
    pub fn sign_hash(&self, hash: &B256) -> Result<Signature> {
        let (signature, recovery_id) = self
            .0
            .sign_prehash_recoverable(hash)
            .map_err(|_| WalletError::Signing)?;
        // Ethereum's v only carries y-parity; an x-reduced R (probability ~2^-128) is unusable.
        if recovery_id.is_x_reduced() {
            return Err(WalletError::Signing);
        }
        let (r, s) = signature.split_bytes();
        Ok(Signature {
            r: r.into(),
            s: s.into(),
            y_parity: recovery_id.is_y_odd(),
        })
    }
}

impl core::fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "PrivateKey({})", self.address())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_export() {
        let key = PrivateKey::from_bytes(&[0x46; 32]).unwrap();
        assert_eq!(key.to_hex().as_str(), format!("0x{}", "46".repeat(32)));
        // EIP-155 example key.
        assert_eq!(
            key.address().to_checksum(),
            "0x9d8A62f656a8d1615C1294fd71e9CFb3E4855A4F"
        );
        assert!(PrivateKey::from_bytes(&[0; 32]).is_err());
        assert!(PrivateKey::from_bytes(&[1; 31]).is_err());
        assert!(format!("{key:?}").starts_with("PrivateKey(0x"));
    }
}
