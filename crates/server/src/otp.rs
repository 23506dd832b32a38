//! One-time email codes: 6 CSPRNG digits, stored as HMAC-SHA256 under a server secret.
//!
//! HMAC rather than a slow password hash: a code lives 10 minutes and dies after 5 wrong tries,
//! so online guessing is bounded by those limits, and without the secret (kept apart from the
//! code rows) a stolen table cannot be brute-forced offline. HMAC keeps verification cheap.

use hmac::{Hmac, Mac};
use sha2::Sha256;
use symbolon_protocol::constants::PASSCODE_LENGTH;

use crate::random::{RandomError, random_below};
use crate::tokens::refresh::hex;

/// The key codes are hashed with. `Debug` hides it.
#[derive(Clone)]
pub struct OtpSecret(Vec<u8>);

impl std::fmt::Debug for OtpSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OtpSecret(<redacted>)")
    }
}

impl OtpSecret {
    /// Wraps secret key bytes.
    pub fn new(bytes: Vec<u8>) -> Self {
        Self(bytes)
    }

    fn mac(&self, app_id: &str, email: &str, code: &str) -> Hmac<Sha256> {
        let mut mac = hmac_sha256(&self.0);
        // Bind the code to its app and address; NUL cannot occur in either.
        for part in [app_id, "\0", email, "\0", code] {
            mac.update(part.as_bytes());
        }
        mac
    }

    /// Hex HMAC of `code` for this app and address.
    pub fn hash(&self, app_id: &str, email: &str, code: &str) -> String {
        hex(&self.mac(app_id, email, code).finalize().into_bytes())
    }

    /// Constant-time comparison of `code` with a stored hash.
    pub fn matches(&self, app_id: &str, email: &str, code: &str, stored_hex: &str) -> bool {
        let Some(stored) = unhex(stored_hex) else {
            return false;
        };
        self.mac(app_id, email, code).verify_slice(&stored).is_ok()
    }
}

fn hmac_sha256(key: &[u8]) -> Hmac<Sha256> {
    // HMAC accepts keys of any length, so this cannot fail.
    <Hmac<Sha256> as Mac>::new_from_slice(key)
        .unwrap_or_else(|_| unreachable!("HMAC takes any key length"))
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// A fresh code of [`PASSCODE_LENGTH`] digits (leading zeros kept).
pub fn generate_code() -> Result<String, RandomError> {
    let bound = 10u32.pow(PASSCODE_LENGTH as u32);
    Ok(format!(
        "{:0width$}",
        random_below(bound)?,
        width = PASSCODE_LENGTH
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_matches_rfc_4231_case_2() {
        let mut mac = hmac_sha256(b"Jefe");
        mac.update(b"what do ya want for nothing?");
        assert_eq!(
            hex(&mac.finalize().into_bytes()),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn codes_are_six_digits() {
        for _ in 0..200 {
            let code = generate_code().expect("rng");
            assert_eq!(code.len(), 6);
            assert!(code.chars().all(|c| c.is_ascii_digit()));
        }
    }

    #[test]
    fn hash_is_bound_to_app_email_and_secret() {
        let secret = OtpSecret::new(vec![7; 32]);
        let stored = secret.hash("app", "a@example.com", "123456");
        assert!(secret.matches("app", "a@example.com", "123456", &stored));
        assert!(!secret.matches("app", "a@example.com", "123457", &stored));
        assert!(!secret.matches("app", "b@example.com", "123456", &stored));
        assert!(!secret.matches("other", "a@example.com", "123456", &stored));
        assert!(!OtpSecret::new(vec![8; 32]).matches("app", "a@example.com", "123456", &stored));
        assert!(!secret.matches("app", "a@example.com", "123456", "zz"));
    }
}
