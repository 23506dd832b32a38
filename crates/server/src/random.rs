//! Identifiers and secrets from the operating system's CSPRNG.

use crate::error::AppError;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// The CSPRNG failed; the server cannot issue secrets.
#[derive(Debug, thiserror::Error)]
#[error("the system random number generator failed: {0}")]
pub struct RandomError(String);

/// `N` random bytes.
pub fn random_bytes<const N: usize>() -> Result<[u8; N], RandomError> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|e| RandomError(e.to_string()))?;
    Ok(bytes)
}

/// A random number below `bound`, without modulo bias.
pub fn random_below(bound: u32) -> Result<u32, RandomError> {
    // Reject the top partial range so every residue is equally likely.
    let zone = u32::MAX - (u32::MAX % bound);
    loop {
        let value = u32::from_le_bytes(random_bytes::<4>()?);
        if value < zone {
            return Ok(value % bound);
        }
    }
}

/// A cuid-like id: `len` lowercase alphanumerics, starting with a letter.
pub fn random_id(len: usize) -> Result<String, RandomError> {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyz";
    const ALNUM: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut id = String::with_capacity(len);
    for i in 0..len {
        let set = if i == 0 { LETTERS } else { ALNUM };
        let index = random_below(set.len() as u32)? as usize;
        id.push(char::from(set[index]));
    }
    Ok(id)
}

/// 32 random bytes, base64url without padding (43 characters).
pub fn random_token() -> Result<String, RandomError> {
    Ok(URL_SAFE_NO_PAD.encode(random_bytes::<32>()?))
}

impl From<RandomError> for AppError {
    fn from(error: RandomError) -> Self {
        Self::internal(&error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_have_the_requested_shape() {
        let id = random_id(25).expect("rng");
        assert_eq!(id.len(), 25);
        assert!(id.starts_with(|c: char| c.is_ascii_lowercase()));
        assert!(
            id.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        );
        assert_ne!(id, random_id(25).expect("rng"));
    }

    #[test]
    fn tokens_are_43_base64url_characters() {
        let token = random_token().expect("rng");
        assert_eq!(token.len(), 43);
        assert!(
            token
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        );
    }

    #[test]
    fn random_below_stays_in_range() {
        assert!((0..1000).all(|_| random_below(7).expect("rng") < 7));
    }
}
