//! Recoverable ECDSA signatures in Ethereum's `r || s || v` form.

use k256::ecdsa::{RecoveryId, Signature as EcdsaSignature, VerifyingKey};

use super::{Address, B256};
use crate::{Result, WalletError};

/// An Ethereum ECDSA signature: `r`, `s` (low-s) and the y-parity of `R`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature {
    /// The `r` scalar, big-endian.
    pub r: B256,
    /// The `s` scalar, big-endian (always in the lower half of the order).
    pub s: B256,
    /// Whether `R`'s y coordinate is odd (`v` = 27 + parity for messages).
    pub y_parity: bool,
}

impl Signature {
    /// The 65-byte `r || s || v` form with `v` ∈ {27, 28} used by `personal_sign` and EIP-712.
    pub fn to_bytes(&self) -> [u8; 65] {
        let mut out = [0u8; 65];
        out[..32].copy_from_slice(&self.r);
        out[32..64].copy_from_slice(&self.s);
        out[64] = 27 + u8::from(self.y_parity);
        out
    }

    /// `0x`-prefixed hex of [`Signature::to_bytes`].
    pub fn to_hex(&self) -> String {
        crate::encode_hex(&self.to_bytes())
    }

    /// Parses 65 bytes `r || s || v` with `v` ∈ {0, 1, 27, 28}.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        if bytes.len() != 65 {
            return Err(WalletError::InvalidSignature(
                [&bytes.len().to_string(), " bytes, expected 65"].concat(),
            ));
        }
        let y_parity = match bytes[64] {
            0 | 27 => false,
            1 | 28 => true,
            v => {
                return Err(WalletError::InvalidSignature(
                    ["v = ", &v.to_string()].concat(),
                ));
            }
        };
        let mut r = [0u8; 32];
        let mut s = [0u8; 32];
        r.copy_from_slice(&bytes[..32]);
        s.copy_from_slice(&bytes[32..64]);
        Ok(Self { r, s, y_parity })
    }
}

/// Recovers the signer's address from a 32-byte prehash and a signature.
pub fn recover_address(hash: &B256, signature: &Signature) -> Result<Address> {
    let ecdsa = EcdsaSignature::from_scalars(
        k256::FieldBytes::from(signature.r),
        k256::FieldBytes::from(signature.s),
    )
    .map_err(|_| WalletError::InvalidSignature("r or s out of range".into()))?;
    let recovery_id = RecoveryId::new(signature.y_parity, false);
    let key = VerifyingKey::recover_from_prehash(hash, &ecdsa, recovery_id)
        .map_err(|_| WalletError::InvalidSignature("no public key recovers".into()))?;
    Address::from_uncompressed_point(key.to_encoded_point(false).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chains::ethereum::PrivateKey;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]
        /// sign → recover gives the signer's address, and the bytes form round-trips.
        #[test]
        fn sign_then_recover(key in prop::array::uniform32(1u8..), hash in prop::array::uniform32(any::<u8>())) {
            let key = PrivateKey::from_bytes(&key).unwrap();
            let signature = key.sign_hash(&hash).unwrap();
            prop_assert_eq!(recover_address(&hash, &signature).unwrap(), key.address());
            prop_assert_eq!(Signature::from_bytes(&signature.to_bytes()).unwrap(), signature);
        }
    }

    #[test]
    fn rejects_bad_bytes() {
        assert!(Signature::from_bytes(&[0; 64]).is_err());
        let mut bytes = [1u8; 65];
        bytes[64] = 29;
        assert!(Signature::from_bytes(&bytes).is_err());
        let zero = Signature {
            r: [0; 32],
            s: [0; 32],
            y_parity: false,
        };
        assert!(recover_address(&[0; 32], &zero).is_err());
    }
}
