//! Opaque refresh tokens. Only their SHA-256 is stored: the token is 256 random bits, so a fast
//! unsalted hash is enough to make a database leak useless.
//!
//! A token has exactly one child: an HMAC of the token under the rotation key, so every exchange
//! of one token (two tabs at once, a retry, a replay) yields the same child and a session never
//! forks into parallel chains.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::digest::sha256_hex;
use crate::random::{RandomError, random_token};

/// A new refresh token and the hash to store.
pub fn new_refresh_token() -> Result<(String, String), RandomError> {
    let token = random_token()?;
    let hash = hash_refresh_token(&token);
    Ok((token, hash))
}

/// The one child of `parent` and its hash: base64url HMAC-SHA256 of the parent under
/// `rotation_key` (from [`crate::keys::sealing::Purpose::RefreshRotation`]), shaped like a new token.
pub fn child_refresh_token(rotation_key: &[u8], parent: &str) -> (String, String) {
    // HMAC accepts keys of any length, so this cannot fail.
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(rotation_key)
        .unwrap_or_else(|_| unreachable!("HMAC takes any key length"));
    mac.update(parent.as_bytes());
    let child = URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes());
    let hash = hash_refresh_token(&child);
    (child, hash)
}

/// Hex SHA-256 of a refresh token.
pub fn hash_refresh_token(token: &str) -> String {
    sha256_hex(token.as_bytes())
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
    fn a_token_has_one_child_that_only_the_key_can_make() {
        let (parent, _) = new_refresh_token().expect("rng");
        let (child, child_hash) = child_refresh_token(&[1; 32], &parent);
        assert_eq!(child_refresh_token(&[1; 32], &parent).0, child);
        assert_eq!(hash_refresh_token(&child), child_hash);
        assert_eq!(child.len(), parent.len());
        assert_ne!(child_refresh_token(&[2; 32], &parent).0, child);
        assert_ne!(child_refresh_token(&[1; 32], &child).0, child);
    }

    #[test]
    fn new_tokens_differ_and_match_their_hash() {
        let (a, hash_a) = new_refresh_token().expect("rng");
        let (b, _) = new_refresh_token().expect("rng");
        assert_ne!(a, b);
        assert_eq!(hash_refresh_token(&a), hash_a);
    }
}
