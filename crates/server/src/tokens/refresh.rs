//! Opaque refresh tokens. Only their SHA-256 is stored: the token is 256 random bits, so a fast
//! unsalted hash is enough to make a database leak useless.

use sha2::{Digest, Sha256};

use crate::random::{RandomError, random_token};

/// A new refresh token and the hash to store.
pub fn new_refresh_token() -> Result<(String, String), RandomError> {
    let token = random_token()?;
    let hash = hash_refresh_token(&token);
    Ok((token, hash))
}

/// Hex SHA-256 of a refresh token.
pub fn hash_refresh_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_is_sha256_hex() {
        // FIPS 180-2 test vector for "abc".
        assert_eq!(
            hash_refresh_token("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn new_tokens_differ_and_match_their_hash() {
        let (a, hash_a) = new_refresh_token().expect("rng");
        let (b, _) = new_refresh_token().expect("rng");
        assert_ne!(a, b);
        assert_eq!(hash_refresh_token(&a), hash_a);
    }
}
