//! The per-user wallet entropy: 16 bytes from the platform CSPRNG.

use zeroize::Zeroizing;

use crate::{Result, WalletError};

/// Length of wallet entropy in bytes (a 12-word BIP-39 mnemonic).
pub const ENTROPY_LEN: usize = 16;

/// Wallet entropy. Zeroized on drop; never printed.
#[derive(Clone)]
pub struct Entropy(Zeroizing<[u8; ENTROPY_LEN]>);

impl Entropy {
    /// Fresh entropy from the platform CSPRNG (`getrandom`; `crypto.getRandomValues` on wasm).
    pub fn generate() -> Result<Self> {
        let mut bytes = Zeroizing::new([0u8; ENTROPY_LEN]);
        getrandom::fill(bytes.as_mut()).map_err(|_| WalletError::Randomness)?;
        Ok(Self(bytes))
    }

    /// Wraps existing entropy; it must be exactly [`ENTROPY_LEN`] bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let array: [u8; ENTROPY_LEN] = bytes
            .try_into()
            .map_err(|_| WalletError::InvalidEntropy(bytes.len()))?;
        Ok(Self(Zeroizing::new(array)))
    }

    /// The raw entropy bytes.
    pub fn as_bytes(&self) -> &[u8; ENTROPY_LEN] {
        &self.0
    }
}

impl core::fmt::Debug for Entropy {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Entropy(..)")
    }
}

impl PartialEq for Entropy {
    fn eq(&self, other: &Self) -> bool {
        use k256::elliptic_curve::subtle::ConstantTimeEq;
        self.0.ct_eq(other.0.as_ref()).into()
    }
}

impl Eq for Entropy {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generate_and_wrap() {
        let a = Entropy::generate().unwrap();
        let b = Entropy::generate().unwrap();
        assert_ne!(a, b);
        assert_eq!(Entropy::from_bytes(a.as_bytes()).unwrap(), a);
        assert_eq!(
            Entropy::from_bytes(&[0; 15]),
            Err(WalletError::InvalidEntropy(15))
        );
        assert_eq!(format!("{a:?}"), "Entropy(..)");
    }
}
