//! Ethereum's BIP-44 path `m/44'/60'/0'/0/{walletIndex}`: every embedded Ethereum wallet of a
//! user is one index of it, under the user's one entropy.

use crate::bip32::{HARDENED, derive_path};
use crate::seed::mnemonic_to_seed;
use crate::{Entropy, Result, WalletError};

use super::PrivateKey;

/// The Ethereum BIP-44 path `m/44'/60'/0'/0/{wallet_index}` as child numbers.
pub fn derivation_path(wallet_index: u32) -> Result<[u32; 5]> {
    if wallet_index & HARDENED != 0 {
        return Err(WalletError::Derivation);
    }
    Ok([44 | HARDENED, 60 | HARDENED, HARDENED, 0, wallet_index])
}

/// The private key of wallet `wallet_index` of the user whose entropy this is
/// (BIP-39 seed without passphrase, then `m/44'/60'/0'/0/{wallet_index}`).
pub fn derive_wallet_key(entropy: &Entropy, wallet_index: u32) -> Result<PrivateKey> {
    let seed = mnemonic_to_seed(entropy.as_bytes(), None)?;
    let node = derive_path(seed.as_bytes(), &derivation_path(wallet_index)?)?;
    PrivateKey::from_bytes(node.secret_key.as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{decode_hex, mnemonic_phrase};

    /// The well-known "abandon … about" mnemonic (no passphrase) gives this first
    /// `m/44'/60'/0'/0/0` account in every BIP-44 Ethereum wallet.
    #[test]
    fn abandon_about_first_account() -> Result<()> {
        let entropy = Entropy::from_bytes(&[0u8; 16])?;
        let key = derive_wallet_key(&entropy, 0)?;
        assert_eq!(
            key.address().to_checksum(),
            "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"
        );
        assert_ne!(derive_wallet_key(&entropy, 1)?.address(), key.address());
        assert!(derivation_path(HARDENED).is_err());
        Ok(())
    }

    /// Hardhat/Anvil's "test test … junk" mnemonic: accounts 0 and 1 are the well-known
    /// development addresses, so entropy → mnemonic → seed → path matches other wallets.
    #[test]
    fn anvil_mnemonic_accounts() -> Result<()> {
        let entropy = Entropy::from_bytes(&decode_hex("0xdf9bf37e6fcdf9bf37e6fcdf9bf37e3c")?)?;
        assert_eq!(
            mnemonic_phrase(entropy.as_bytes())?.as_str(),
            "test test test test test test test test test test test junk"
        );
        let first = derive_wallet_key(&entropy, 0)?;
        assert_eq!(
            first.address().to_checksum(),
            "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
        );
        assert_eq!(
            first.to_hex().as_str(),
            "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
        );
        assert_eq!(
            derive_wallet_key(&entropy, 1)?.address().to_checksum(),
            "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
        );
        Ok(())
    }
}
