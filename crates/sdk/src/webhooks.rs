//! Verifying the webhooks a Symbolon server sends (the Svix scheme the vendor's SDK verifies):
//! `svix-signature` holds one or more `v1,<base64 HMAC-SHA256>` over `{svix-id}.{svix-timestamp}.{body}`,
//! keyed by the base64 after the endpoint secret's `whsec_`; a timestamp more than five minutes
//! away is refused (a replayed request).
//!
//! ```
//! use symbolon_sdk::webhooks::{WebhookHeaders, verify_at};
//!
//! let headers = WebhookHeaders {
//!     id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
//!     timestamp: "1614265330",
//!     signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
//! };
//! let event = verify_at(
//!     "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
//!     &headers,
//!     r#"{"test": 2432232314}"#,
//!     1614265330,
//! )?;
//! assert_eq!(event.payload["test"], 2432232314u64);
//! # Ok::<(), symbolon_sdk::Error>(())
//! ```
//!
//! In a handler, pass the raw body as received (not a re-serialised one) to [`verify`], and
//! dedupe by `svix-id`: a delivery may come more than once.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use subtle::ConstantTimeEq;
use symbolon_protocol::webhooks::WebhookEventType;

use crate::Error;

/// How far a webhook's timestamp may be from now, either way.
pub const TOLERANCE_S: i64 = 5 * 60;

/// The three Svix headers of a delivery.
#[derive(Debug, Clone, Copy)]
pub struct WebhookHeaders<'a> {
    /// `svix-id`: the message id (the same on every retry of one event).
    pub id: &'a str,
    /// `svix-timestamp`: unix seconds.
    pub timestamp: &'a str,
    /// `svix-signature`: space-separated `v1,<base64>`.
    pub signature: &'a str,
}

/// A verified webhook.
#[derive(Debug, Clone, PartialEq)]
pub struct WebhookEvent {
    /// Its kind, when this crate knows it (`None` for a kind a newer server sends).
    pub kind: Option<WebhookEventType>,
    /// The payload: `type` and the kind's fields (`user`, `account`, …).
    pub payload: serde_json::Value,
}

/// Verifies a delivery against the endpoint's `secret` (`whsec_…`) now.
pub fn verify(
    secret: &str,
    headers: &WebhookHeaders<'_>,
    body: &str,
) -> Result<WebhookEvent, Error> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
    verify_at(secret, headers, body, now)
}

/// [`verify`] at unix time `now`.
pub fn verify_at(
    secret: &str,
    headers: &WebhookHeaders<'_>,
    body: &str,
    now: i64,
) -> Result<WebhookEvent, Error> {
    let invalid = |why: &str| Error::InvalidWebhook(why.to_string());
    let key = secret
        .strip_prefix("whsec_")
        .and_then(|key| STANDARD.decode(key).ok())
        .ok_or_else(|| invalid("the secret is not a whsec_ secret"))?;
    let timestamp: i64 = headers
        .timestamp
        .trim()
        .parse()
        .map_err(|_| invalid("svix-timestamp is not a number"))?;
    if (now - timestamp).abs() > TOLERANCE_S {
        return Err(invalid("svix-timestamp is more than five minutes away"));
    }
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).map_err(|_| invalid("unusable secret"))?;
    mac.update(format!("{}.{}.", headers.id, headers.timestamp.trim()).as_bytes());
    mac.update(body.as_bytes());
    let expected = mac.finalize().into_bytes();
    let signed = headers
        .signature
        .split_whitespace()
        .filter_map(|entry| entry.strip_prefix("v1,"))
        .filter_map(|signature| STANDARD.decode(signature).ok())
        .any(|signature| bool::from(signature.ct_eq(&expected[..])));
    if !signed {
        return Err(invalid("no signature matches"));
    }
    let payload: serde_json::Value =
        serde_json::from_str(body).map_err(|_| invalid("the body is not JSON"))?;
    let kind = payload["type"].as_str().and_then(WebhookEventType::parse);
    Ok(WebhookEvent { kind, payload })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const BODY: &str = r#"{"test": 2432232314}"#;
    const AT: i64 = 1614265330;

    fn headers(signature: &str) -> WebhookHeaders<'_> {
        WebhookHeaders {
            id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
            timestamp: "1614265330",
            signature,
        }
    }

    const GOOD: &str = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    #[test]
    fn svix_vector_verifies_and_any_listed_signature_may_match() {
        assert!(verify_at(SECRET, &headers(GOOD), BODY, AT).is_ok());
        let rotated = format!("v1,bm90LXRoaXMtb25l {GOOD}");
        assert!(verify_at(SECRET, &headers(&rotated), BODY, AT + TOLERANCE_S).is_ok());
    }

    #[test]
    fn altered_stale_or_foreign_webhooks_are_refused() {
        let refused = |secret: &str, signature: &str, body: &str, now: i64| {
            matches!(
                verify_at(secret, &headers(signature), body, now),
                Err(Error::InvalidWebhook(_))
            )
        };
        assert!(refused(SECRET, GOOD, r#"{"test": 2432232315}"#, AT));
        assert!(refused(SECRET, GOOD, BODY, AT + TOLERANCE_S + 1));
        assert!(refused(SECRET, GOOD, BODY, AT - TOLERANCE_S - 1));
        assert!(refused(
            "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            GOOD,
            BODY,
            AT
        ));
        assert!(refused("not-a-secret", GOOD, BODY, AT));
        assert!(refused(SECRET, "v2,whatever", BODY, AT));
        assert!(refused(SECRET, "", BODY, AT));
    }
}
