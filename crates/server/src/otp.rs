//! One-time codes: 6 CSPRNG digits, stored as HMAC-SHA256 under a key derived from the sealing
//! key ([`crate::keys::sealing`]).
//!
//! HMAC rather than a slow password hash: a code lives 10 minutes and dies after 5 guesses,
//! so online guessing is bounded by those limits, and without the key (never in the database)
//! a stolen table cannot be brute-forced offline. HMAC keeps verification cheap.

use hmac::{Hmac, Mac};
use sha2::Sha256;
use symbolon_protocol::constants::PASSCODE_LENGTH;

use crate::db::otp::OtpKey;
use crate::digest::{hex, unhex};
use crate::random::{RandomError, random_below};

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

    fn mac(&self, key: OtpKey<'_>, code: &str) -> Hmac<Sha256> {
        let mut mac = hmac_sha256(&self.0);
        // Bind the code to its app, channel and subject; NUL cannot occur in any of them.
        for part in [key.app_id, "\0", key.channel, "\0", key.subject, "\0", code] {
            mac.update(part.as_bytes());
        }
        mac
    }

    /// Hex HMAC of `code` for these codes' owner.
    pub fn hash(&self, key: OtpKey<'_>, code: &str) -> String {
        hex(&self.mac(key, code).finalize().into_bytes())
    }

    /// Constant-time comparison of `code` with a stored hash.
    pub fn matches(&self, key: OtpKey<'_>, code: &str, stored_hex: &str) -> bool {
        let Some(stored) = unhex(stored_hex) else {
            return false;
        };
        self.mac(key, code).verify_slice(&stored).is_ok()
    }
}

fn hmac_sha256(key: &[u8]) -> Hmac<Sha256> {
    // HMAC accepts keys of any length, so this cannot fail.
    <Hmac<Sha256> as Mac>::new_from_slice(key)
        .unwrap_or_else(|_| unreachable!("HMAC takes any key length"))
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

    fn key<'a>(app_id: &'a str, channel: &'a str, subject: &'a str) -> OtpKey<'a> {
        OtpKey {
            app_id,
            channel,
            subject,
        }
    }

    #[test]
    fn hash_is_bound_to_app_channel_subject_and_secret() {
        let secret = OtpSecret::new(vec![7; 32]);
        let owner = key("app", "email", "a@example.com");
        let stored = secret.hash(owner, "123456");
        assert!(secret.matches(owner, "123456", &stored));
        assert!(!secret.matches(owner, "123457", &stored));
        assert!(!secret.matches(key("app", "email", "b@example.com"), "123456", &stored));
        assert!(!secret.matches(key("app", "sms", "a@example.com"), "123456", &stored));
        assert!(!secret.matches(key("other", "email", "a@example.com"), "123456", &stored));
        assert!(!OtpSecret::new(vec![8; 32]).matches(owner, "123456", &stored));
        assert!(!secret.matches(owner, "123456", "zz"));
    }
}
