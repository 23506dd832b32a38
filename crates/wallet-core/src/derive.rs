//! BIP-32 derivation of wallet keys (`m/44'/60'/0'/0/{walletIndex}`).

use bip32::{ChildNumber, XPrv};
use zeroize::Zeroizing;

use crate::seed::mnemonic_to_seed;
use crate::{Entropy, PrivateKey, Result, WalletError};

/// Flag marking a hardened BIP-32 child index (`i'` = `i | HARDENED`).
pub const HARDENED: u32 = 1 << 31;

/// A derived BIP-32 node: its private key and chain code (both secret).
pub struct DerivedKey {
    /// The node's private key.
    pub private_key: PrivateKey,
    /// The node's chain code, zeroized on drop.
    pub chain_code: Zeroizing<[u8; 32]>,
}

/// The Ethereum BIP-44 path `m/44'/60'/0'/0/{wallet_index}` as child numbers.
pub fn ethereum_path(wallet_index: u32) -> Result<[u32; 5]> {
    if wallet_index & HARDENED != 0 {
        return Err(WalletError::Derivation);
    }
    Ok([44 | HARDENED, 60 | HARDENED, HARDENED, 0, wallet_index])
}

/// Derives the node at `path` (child numbers, [`HARDENED`] flag for `'`) from a BIP-32 seed.
pub fn derive_path(seed: &[u8], path: &[u32]) -> Result<DerivedKey> {
    let mut node = XPrv::new(seed).map_err(|_| WalletError::Derivation)?;
    for &child in path {
        node = node
            .derive_child(ChildNumber(child))
            .map_err(|_| WalletError::Derivation)?;
    }
    Ok(DerivedKey {
        private_key: PrivateKey::from_signing_key(node.private_key().clone()),
        chain_code: Zeroizing::new(node.attrs().chain_code),
    })
}

/// The private key of wallet `wallet_index` of the user whose entropy this is
/// (BIP-39 seed without passphrase, then `m/44'/60'/0'/0/{wallet_index}`).
pub fn derive_wallet_key(entropy: &Entropy, wallet_index: u32) -> Result<PrivateKey> {
    let seed = mnemonic_to_seed(entropy.as_bytes(), None)?;
    Ok(derive_path(seed.as_bytes(), &ethereum_path(wallet_index)?)?.private_key)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decodes an `xprv` string into (chain code, private key) per BIP-32 serialization.
    fn decode_xprv(xprv: &str) -> ([u8; 32], [u8; 32]) {
        let raw = bs58::decode(xprv).with_check(None).into_vec().unwrap();
        assert_eq!(raw.len(), 78);
        assert_eq!(raw[45], 0);
        (
            raw[13..45].try_into().unwrap(),
            raw[46..78].try_into().unwrap(),
        )
    }

    /// BIP-32 test vector 1, every chain it lists.
    #[test]
    fn bip32_test_vector_1() {
        let seed = crate::decode_hex("0x000102030405060708090a0b0c0d0e0f").unwrap();
        let h = HARDENED;
        let cases: [(&[u32], &str); 6] = [
            (
                &[],
                "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi",
            ),
            (
                &[h],
                "xprv9uHRZZhk6KAJC1avXpDAp4MDc3sQKNxDiPvvkX8Br5ngLNv1TxvUxt4cV1rGL5hj6KCesnDYUhd7oWgT11eZG7XnxHrnYeSvkzY7d2bhkJ7",
            ),
            (
                &[h, 1],
                "xprv9wTYmMFdV23N2TdNG573QoEsfRrWKQgWeibmLntzniatZvR9BmLnvSxqu53Kw1UmYPxLgboyZQaXwTCg8MSY3H2EU4pWcQDnRnrVA1xe8fs",
            ),
            (
                &[h, 1, 2 | h],
                "xprv9z4pot5VBttmtdRTWfWQmoH1taj2axGVzFqSb8C9xaxKymcFzXBDptWmT7FwuEzG3ryjH4ktypQSAewRiNMjANTtpgP4mLTj34bhnZX7UiM",
            ),
            (
                &[h, 1, 2 | h, 2],
                "xprvA2JDeKCSNNZky6uBCviVfJSKyQ1mDYahRjijr5idH2WwLsEd4Hsb2Tyh8RfQMuPh7f7RtyzTtdrbdqqsunu5Mm3wDvUAKRHSC34sJ7in334",
            ),
            (
                &[h, 1, 2 | h, 2, 1_000_000_000],
                "xprvA41z7zogVVwxVSgdKUHDy1SKmdb533PjDz7J6N6mV6uS3ze1ai8FHa8kmHScGpWmj4WggLyQjgPie1rFSruoUihUZREPSL39UNdE3BBDu76",
            ),
        ];
        for (path, xprv) in cases {
            let (chain_code, key) = decode_xprv(xprv);
            let node = derive_path(&seed, path).unwrap();
            assert_eq!(*node.chain_code, chain_code, "chain code of {path:?}");
            assert_eq!(
                node.private_key.to_bytes().as_ref(),
                &key,
                "key of {path:?}"
            );
        }
    }

    /// The well-known "abandon … about" mnemonic (no passphrase) gives this first
    /// `m/44'/60'/0'/0/0` account in every BIP-44 Ethereum wallet.
    #[test]
    fn abandon_about_first_account() {
        let entropy = Entropy::from_bytes(&[0u8; 16]).unwrap();
        let key = derive_wallet_key(&entropy, 0).unwrap();
        assert_eq!(
            key.address().to_checksum(),
            "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"
        );
        assert_ne!(
            derive_wallet_key(&entropy, 1).unwrap().address(),
            key.address()
        );
        assert!(ethereum_path(HARDENED).is_err());
    }

    /// Hardhat/Anvil's "test test … junk" mnemonic: accounts 0 and 1 are the well-known
    /// development addresses, so entropy → mnemonic → seed → path matches other wallets.
    #[test]
    fn anvil_mnemonic_accounts() {
        let entropy =
            Entropy::from_bytes(&crate::decode_hex("0xdf9bf37e6fcdf9bf37e6fcdf9bf37e3c").unwrap())
                .unwrap();
        assert_eq!(
            crate::mnemonic_phrase(entropy.as_bytes()).unwrap().as_str(),
            "test test test test test test test test test test test junk"
        );
        let first = derive_wallet_key(&entropy, 0).unwrap();
        assert_eq!(
            first.address().to_checksum(),
            "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
        );
        assert_eq!(
            first.to_hex().as_str(),
            "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
        );
        assert_eq!(
            derive_wallet_key(&entropy, 1)
                .unwrap()
                .address()
                .to_checksum(),
            "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
        );
    }
}
