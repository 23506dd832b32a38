//! Keccak-256 (the pre-standard SHA-3 variant Ethereum uses), from `sha3`.

use sha3::{Digest, Keccak256};

use super::B256;

/// Keccak-256 of `data`.
pub fn keccak256(data: &[u8]) -> B256 {
    Keccak256::digest(data).into()
}

/// Keccak-256 over several slices without concatenating them first.
pub(crate) fn keccak256_parts(parts: &[&[u8]]) -> B256 {
    let mut hasher = Keccak256::new();
    for part in parts {
        hasher.update(part);
    }
    hasher.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_input() {
        assert_eq!(
            crate::encode_hex(&keccak256(b"")),
            "0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
        );
        assert_eq!(keccak256_parts(&[b"ab", b"c"]), keccak256(b"abc"));
    }
}
