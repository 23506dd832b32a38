//! BIP-32 private-key derivation (CKDpriv) over secp256k1, the chain-neutral half of wallet
//! derivation: any chain whose keys are secp256k1 picks its own path (Ethereum's is
//! [`chains::ethereum::derivation_path`](crate::chains::ethereum::derivation_path)).
//!
//! Built on RustCrypto parts: HMAC-SHA512 (`hmac`, `sha2`) and secp256k1 scalar arithmetic
//! (`k256`). The `bip32` crate does the same but also computes parent fingerprints (RIPEMD-160,
//! useless here) and costs ~3 KB gzip more wasm; the tests check this file against it and against
//! the BIP-32 test vectors.

use hmac::{Hmac, Mac};
use k256::ecdsa::SigningKey;
use k256::elliptic_curve::PrimeField;
use k256::elliptic_curve::sec1::ToEncodedPoint;
use k256::{NonZeroScalar, Scalar};
use sha2::Sha512;
use zeroize::Zeroizing;

use crate::{Result, WalletError};

/// Flag marking a hardened BIP-32 child index (`i'` = `i | HARDENED`).
pub const HARDENED: u32 = 1 << 31;

/// A derived BIP-32 node: its secp256k1 secret key and chain code (both secret, zeroized on drop).
pub struct DerivedKey {
    /// The node's secp256k1 secret key: 32 big-endian bytes, in `1..n`.
    pub secret_key: Zeroizing<[u8; 32]>,
    /// The node's chain code.
    pub chain_code: Zeroizing<[u8; 32]>,
}

/// A node while the path is walked: the key as `k256` holds it (zeroized on drop).
struct Node {
    key: SigningKey,
    chain_code: Zeroizing<[u8; 32]>,
}

/// HMAC-SHA512 of `parts` under `key`, split into (I_L as a key, I_R as the chain code).
/// An I_L of zero or not below the curve order is an invalid node (BIP-32 says to skip it; like
/// other wallets this fails, with probability ~2^-127).
fn hmac_node(key: &[u8], parts: &[&[u8]], parent: Option<&SigningKey>) -> Result<Node> {
    let mut mac = Hmac::<Sha512>::new_from_slice(key).map_err(|_| WalletError::Derivation)?;
    for part in parts {
        mac.update(part);
    }
    let mut output = Zeroizing::new([0u8; 64]);
    output.copy_from_slice(&mac.finalize().into_bytes());
    let mut left = Zeroizing::new([0u8; 32]);
    left.copy_from_slice(&output[..32]);
    let tweak: Scalar =
        Option::from(Scalar::from_repr((*left).into())).ok_or(WalletError::Derivation)?;
    // Child key = I_L + k_parent (mod n); the master key is I_L itself.
    let scalar = match parent {
        Some(parent) => tweak + parent.as_nonzero_scalar().as_ref(),
        None => tweak,
    };
    let scalar: NonZeroScalar =
        Option::from(NonZeroScalar::new(scalar)).ok_or(WalletError::Derivation)?;
    let mut chain_code = Zeroizing::new([0u8; 32]);
    chain_code.copy_from_slice(&output[32..]);
    Ok(Node {
        key: SigningKey::from(scalar),
        chain_code,
    })
}

/// The 32 bytes of a node's key (zeroized on drop).
fn key_bytes(key: &SigningKey) -> Zeroizing<[u8; 32]> {
    Zeroizing::new(key.to_bytes().into())
}

/// CKDpriv: the child `index` of `node` (hardened children hash the private key, normal ones
/// the compressed public key).
fn child(node: &Node, index: u32) -> Result<Node> {
    let parent = &node.key;
    let index_bytes = index.to_be_bytes();
    if index & HARDENED != 0 {
        let key = key_bytes(parent);
        hmac_node(
            node.chain_code.as_ref(),
            &[&[0], key.as_ref(), &index_bytes],
            Some(parent),
        )
    } else {
        let public = parent.verifying_key().as_affine().to_encoded_point(true);
        hmac_node(
            node.chain_code.as_ref(),
            &[public.as_bytes(), &index_bytes],
            Some(parent),
        )
    }
}

/// Derives the node at `path` (child numbers, [`HARDENED`] flag for `'`) from a BIP-32 seed
/// (16 to 64 bytes).
pub fn derive_path(seed: &[u8], path: &[u32]) -> Result<DerivedKey> {
    if !(16..=64).contains(&seed.len()) {
        return Err(WalletError::Derivation);
    }
    let mut node = hmac_node(b"Bitcoin seed", &[seed], None)?;
    for &index in path {
        node = child(&node, index)?;
    }
    Ok(DerivedKey {
        secret_key: key_bytes(&node.key),
        chain_code: node.chain_code,
    })
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
            assert_eq!(node.secret_key.as_ref(), &key, "key of {path:?}");
        }
    }

    /// BIP-32 test vectors 2 (normal children and large hardened indices) and 3 (a master key
    /// with leading zero bytes, which must be kept).
    #[test]
    fn bip32_test_vectors_2_and_3() {
        let h = HARDENED;
        let two = crate::decode_hex(concat!(
            "0xfffcf9f6f3f0edeae7e4e1dedbd8d5d2cfccc9c6c3c0bdbab7b4b1aeaba8a5a2",
            "9f9c999693908d8a8784817e7b7875726f6c696663605d5a5754514e4b484542"
        ))
        .unwrap();
        let three = crate::decode_hex(concat!(
            "0x4b381541583be4423346c643850da4b320e46a87ae3d2a4e6da11eba819cd4ac",
            "ba45d239319ac14f863b8d5ab5a0d0c64d2e8a1e7d1457df2e5a3c51c73235be"
        ))
        .unwrap();
        let cases: [(&[u8], &[u32], &str); 4] = [
            (
                &two,
                &[0, 2_147_483_647 | h, 1],
                "xprv9zFnWC6h2cLgpmSA46vutJzBcfJ8yaJGg8cX1e5StJh45BBciYTRXSd25UEPVuesF9yog62tGAQtHjXajPPdbRCHuWS6T8XA2ECKADdw4Ef",
            ),
            (
                &two,
                &[0, 2_147_483_647 | h, 1, 2_147_483_646 | h, 2],
                "xprvA2nrNbFZABcdryreWet9Ea4LvTJcGsqrMzxHx98MMrotbir7yrKCEXw7nadnHM8Dq38EGfSh6dqA9QWTyefMLEcBYJUuekgW4BYPJcr9E7j",
            ),
            (
                &three,
                &[],
                "xprv9s21ZrQH143K25QhxbucbDDuQ4naNntJRi4KUfWT7xo4EKsHt2QJDu7KXp1A3u7Bi1j8ph3EGsZ9Xvz9dGuVrtHHs7pXeTzjuxBrCmmhgC6",
            ),
            (
                &three,
                &[h],
                "xprv9uPDJpEQgRQfDcW7BkF7eTya6RPxXeJCqCJGHuCJ4GiRVLzkTXBAJMu2qaMWPrS7AANYqdq6vcBcBUdJCVVFceUvJFjaPdGZ2y9WACViL4L",
            ),
        ];
        for (seed, path, xprv) in cases {
            let (chain_code, key) = decode_xprv(xprv);
            let node = derive_path(seed, path).unwrap();
            assert_eq!(*node.chain_code, chain_code, "chain code of {path:?}");
            assert_eq!(node.secret_key.as_ref(), &key, "key of {path:?}");
        }
        assert!(derive_path(&[0; 15], &[]).is_err());
        assert!(derive_path(&[0; 65], &[]).is_err());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        /// Any seed and path derive what the `bip32` crate derives.
        #[test]
        fn agrees_with_bip32_crate(
            length in proptest::sample::select(vec![16usize, 32, 64]),
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 64),
            path in proptest::collection::vec(proptest::prelude::any::<u32>(), 0..6),
        ) {
            // The crate takes 16-, 32- and 64-byte seeds only (BIP-32 allows any 16 to 64).
            let seed = &bytes[..length];
            let mut expected = bip32::XPrv::new(seed).unwrap();
            for &index in &path {
                expected = expected.derive_child(bip32::ChildNumber(index)).unwrap();
            }
            let node = derive_path(seed, &path).unwrap();
            let expected_key: [u8; 32] = expected.private_key().to_bytes().into();
            proptest::prop_assert_eq!(*node.secret_key, expected_key);
            proptest::prop_assert_eq!(*node.chain_code, expected.attrs().chain_code);
        }
    }
}
