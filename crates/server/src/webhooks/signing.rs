//! The Svix signature scheme the vendor's SDK verifies (`webhooks().verify`): HMAC-SHA256, keyed
//! by the base64 after `whsec_`, over `{svix-id}.{svix-timestamp}.{body}`, sent as
//! `svix-signature: v1,<base64>`.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use zeroize::Zeroizing;

use crate::random::{RandomError, random_bytes};

/// What every signing secret starts with.
pub const SECRET_PREFIX: &str = "whsec_";

/// Random bytes in a new secret (as Svix makes them).
const SECRET_BYTES: usize = 24;

/// A new signing secret, `whsec_<base64 of 24 random bytes>`.
pub fn new_secret() -> Result<Zeroizing<String>, RandomError> {
    let bytes = Zeroizing::new(random_bytes::<SECRET_BYTES>()?);
    Ok(Zeroizing::new(format!(
        "{SECRET_PREFIX}{}",
        STANDARD.encode(bytes.as_ref())
    )))
}

/// The `svix-signature` header value for `body` sent as message `id` at `timestamp`; `None` when
/// the secret is not a `whsec_` base64 secret.
pub fn sign(secret: &str, id: &str, timestamp: i64, body: &str) -> Option<String> {
    let key = Zeroizing::new(STANDARD.decode(secret.strip_prefix(SECRET_PREFIX)?).ok()?);
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).ok()?;
    mac.update(format!("{id}.{timestamp}.").as_bytes());
    mac.update(body.as_bytes());
    Some(format!(
        "v1,{}",
        STANDARD.encode(mac.finalize().into_bytes())
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// Svix's published test vector (its libraries' tests): this secret, id, timestamp and body
    /// sign to this value.
    #[test]
    fn signs_svix_test_vector() {
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let body = r#"{"test": 2432232314}"#;
        assert_eq!(
            sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body).as_deref(),
            Some("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        );
    }

    #[test]
    fn new_secrets_are_random_and_usable() {
        let a = new_secret().unwrap();
        let b = new_secret().unwrap();
        assert_ne!(*a, *b);
        assert!(a.starts_with(SECRET_PREFIX));
        assert!(sign(&a, "msg_1", 1, "{}").is_some());
        assert_eq!(sign("not-a-secret", "msg_1", 1, "{}"), None);
    }
}
