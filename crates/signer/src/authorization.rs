//! Authorization signatures (`privy-authorization-signature`), as the vendor defines them: ECDSA
//! P-256 over SHA-256 of the RFC 8785 canonical JSON of `{version: 1, method, url, body, headers}`
//! (the full URL; an empty body as `""`; the `privy-*` headers sent), base64 DER, several joined by
//! commas. The server checks them on owned resources (policies, key quorums); the signer checks
//! them before every signature it makes for a delegated wallet.

use std::collections::BTreeMap;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use p256::PublicKey;
use p256::ecdsa::signature::Verifier;
use p256::ecdsa::{Signature, VerifyingKey};
use p256::pkcs8::DecodePublicKey;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The signatures' header.
pub const HEADER_SIGNATURE: &str = "privy-authorization-signature";
/// The deadline header (Unix milliseconds).
pub const HEADER_EXPIRY: &str = "privy-request-expiry";

/// The refusal of a request without signatures.
pub const SIGNATURE_REQUIRED: &str = "This resource has an owner: the request needs its authorization signature (privy-authorization-signature)";
/// The refusal of signatures that do not satisfy the owner.
pub const SIGNATURE_INSUFFICIENT: &str =
    "The authorization signatures do not satisfy the owner's keys";
/// The refusal of a request past its `privy-request-expiry`.
pub const REQUEST_EXPIRED: &str = "The request is past its privy-request-expiry";
/// The refusal of an expiry that is not a number.
pub const EXPIRY_NOT_A_NUMBER: &str = "privy-request-expiry must be Unix milliseconds";

/// Why signatures were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuthorizationError {
    /// The deadline header is malformed or past (a bad request).
    #[error("{0}")]
    Expiry(&'static str),
    /// No signature, or not enough of the owner's keys (not authorized).
    #[error("{0}")]
    Signatures(&'static str),
    /// The payload could not be canonicalised.
    #[error("the request cannot be canonicalised: {0}")]
    Canonical(String),
}

/// An owner: keys and how many of them must sign.
#[derive(Debug, Clone)]
pub struct Owner {
    /// The keys.
    pub keys: Vec<PublicKey>,
    /// How many distinct keys must have signed (at least 1).
    pub threshold: usize,
}

/// A P-256 public key as the API carries it: base64 DER SPKI, no PEM lines (PEM is accepted too).
pub fn parse_public_key(text: &str) -> Option<PublicKey> {
    let body: String = text
        .lines()
        .filter(|line| !line.starts_with("-----"))
        .collect::<String>()
        .split_whitespace()
        .collect();
    let der = STANDARD.decode(body).ok()?;
    PublicKey::from_public_key_der(&der).ok()
}

/// A request as its authorization signatures sign it, with the signatures sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SignedRequest {
    /// The HTTP method.
    pub method: String,
    /// The full URL (from the server's public URL, never from `Host`).
    pub url: String,
    /// The body as sent (`{}` when there was none).
    pub body: Value,
    /// The `privy-*` headers sent.
    pub headers: BTreeMap<String, String>,
    /// The signatures (base64 DER), as split from the header.
    pub signatures: Vec<String>,
}

impl SignedRequest {
    /// The body as sent (`{}` when there was none): where a field's absence and `null` differ.
    pub fn body(&self) -> &Value {
        &self.body
    }

    /// The deadline header, if sent.
    pub fn expiry(&self) -> Option<&str> {
        self.headers.get(HEADER_EXPIRY).map(String::as_str)
    }

    /// The deadline in Unix milliseconds, if sent.
    pub fn expiry_ms(&self) -> Result<Option<i64>, AuthorizationError> {
        self.expiry()
            .map(|text| {
                text.trim()
                    .parse::<i64>()
                    .map_err(|_| AuthorizationError::Expiry(EXPIRY_NOT_A_NUMBER))
            })
            .transpose()
    }

    /// The bytes every signature signs.
    pub fn payload(&self) -> Result<Vec<u8>, AuthorizationError> {
        let body = match &self.body {
            Value::Object(map) if map.is_empty() => Value::String(String::new()),
            other => other.clone(),
        };
        let document = serde_json::json!({
            "version": 1,
            "method": self.method,
            "url": self.url,
            "body": body,
            "headers": self.headers,
        });
        serde_json_canonicalizer::to_vec(&document)
            .map_err(|e| AuthorizationError::Canonical(e.to_string()))
    }

    /// Checks the deadline and that at least `owner.threshold` distinct owner keys signed.
    pub fn authorize(&self, owner: &Owner, now_ms: i64) -> Result<(), AuthorizationError> {
        if let Some(deadline) = self.expiry_ms()?
            && deadline <= now_ms
        {
            return Err(AuthorizationError::Expiry(REQUEST_EXPIRED));
        }
        if self.signatures.is_empty() {
            return Err(AuthorizationError::Signatures(SIGNATURE_REQUIRED));
        }
        let payload = self.payload()?;
        let signed: Vec<Signature> = self
            .signatures
            .iter()
            .filter_map(|text| STANDARD.decode(text).ok())
            .filter_map(|der| Signature::from_der(&der).ok())
            .collect();
        let satisfied = owner
            .keys
            .iter()
            .filter(|key| {
                let verifier = VerifyingKey::from(**key);
                signed.iter().any(|s| verifier.verify(&payload, s).is_ok())
            })
            .count();
        if satisfied < owner.threshold.max(1) {
            return Err(AuthorizationError::Signatures(SIGNATURE_INSUFFICIENT));
        }
        Ok(())
    }
}

/// Splits the signature header's comma-joined list.
pub fn split_signatures(header: &str) -> Vec<String> {
    header
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    /// Made with the published `@privy-io/node` (`generateP256KeyPair`,
    /// `formatRequestForAuthorizationSignature`, `generateAuthorizationSignature`).
    const VENDOR_KEY: &str = "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEdgoNEJ8pvUkWeRvWi5qUhAjfKnyfKrYosSgwvIBW1HCta2c4Q7a9dP4t+T7YRhoGr10mYT4deJEp/ASJ/VhrmQ==";
    const VENDOR_PAYLOAD: &str = r#"{"body":{"name":"Shop","rules":[{"a":1,"b":[1.5,true,null],"z":"é"}]},"headers":{"privy-app-id":"app1","privy-request-expiry":"1800000000000"},"method":"PATCH","url":"http://127.0.0.1:8787/v1/policies/abc","version":1}"#;
    const VENDOR_SIGNATURE: &str = "MEYCIQCEodgW9rO4wNb3zQFsEJ8vM0aKawFwS2TFzddINVSkvgIhAKId3XQbJFJjed59oEWGMg/TkkgqISRX1qV6fqBHGRxW";

    fn vendor_request(signatures: &[&str]) -> SignedRequest {
        SignedRequest {
            method: "PATCH".into(),
            url: "http://127.0.0.1:8787/v1/policies/abc".into(),
            // Keys in another order than the canonical one: canonicalisation sorts them.
            body: json!({ "rules": [{ "z": "é", "b": [1.5, true, null], "a": 1 }], "name": "Shop" }),
            headers: [
                (
                    "privy-request-expiry".to_string(),
                    "1800000000000".to_string(),
                ),
                ("privy-app-id".to_string(), "app1".to_string()),
            ]
            .into(),
            signatures: signatures.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn owner(keys: &[&str], threshold: usize) -> Owner {
        Owner {
            keys: keys.iter().map(|k| parse_public_key(k).unwrap()).collect(),
            threshold,
        }
    }

    #[test]
    fn the_payload_is_the_vendors_byte_for_byte_and_its_signature_verifies() {
        let request = vendor_request(&[VENDOR_SIGNATURE]);
        assert_eq!(
            String::from_utf8(request.payload().unwrap()).unwrap(),
            VENDOR_PAYLOAD
        );
        assert!(
            request
                .authorize(&owner(&[VENDOR_KEY], 1), 1_700_000_000_000)
                .is_ok()
        );
        // An empty body is signed as "".
        let mut empty = vendor_request(&[]);
        empty.body = json!({});
        assert!(
            String::from_utf8(empty.payload().unwrap())
                .unwrap()
                .starts_with(r#"{"body":"","#)
        );
    }

    #[test]
    fn missing_forged_changed_expired_or_too_few_signatures_are_refused() {
        let now = 1_700_000_000_000;
        let key = owner(&[VENDOR_KEY], 1);
        let refused = |request: &SignedRequest, owner: &Owner, now: i64| {
            request.authorize(owner, now).unwrap_err().to_string()
        };
        assert_eq!(
            refused(&vendor_request(&[]), &key, now),
            SIGNATURE_REQUIRED.to_string()
        );
        assert_eq!(
            refused(&vendor_request(&["bm90IGRlcg=="]), &key, now),
            SIGNATURE_INSUFFICIENT.to_string()
        );
        let mut changed = vendor_request(&[VENDOR_SIGNATURE]);
        changed.body["name"] = json!("Shop!");
        assert_eq!(
            refused(&changed, &key, now),
            SIGNATURE_INSUFFICIENT.to_string(),
            "a changed body"
        );
        let mut elsewhere = vendor_request(&[VENDOR_SIGNATURE]);
        elsewhere.url = "http://evil.test/v1/policies/abc".into();
        assert_eq!(
            refused(&elsewhere, &key, now),
            SIGNATURE_INSUFFICIENT.to_string(),
            "another URL"
        );
        assert_eq!(
            refused(
                &vendor_request(&[VENDOR_SIGNATURE]),
                &key,
                1_800_000_000_000
            ),
            REQUEST_EXPIRED.to_string()
        );
        // A second key is not satisfied by the first key's signature given twice.
        let other =
            p256::SecretKey::random(&mut p256::elliptic_curve::rand_core::OsRng).public_key();
        let two = Owner {
            keys: vec![parse_public_key(VENDOR_KEY).unwrap(), other],
            threshold: 2,
        };
        assert_eq!(
            refused(
                &vendor_request(&[VENDOR_SIGNATURE, VENDOR_SIGNATURE]),
                &two,
                now
            ),
            SIGNATURE_INSUFFICIENT.to_string()
        );
        let one_of_two = Owner {
            threshold: 1,
            ..two
        };
        assert!(
            vendor_request(&[VENDOR_SIGNATURE])
                .authorize(&one_of_two, now)
                .is_ok()
        );
    }

    #[test]
    fn public_keys_are_base64_der_spki_or_pem() {
        assert!(parse_public_key(VENDOR_KEY).is_some());
        let pem = format!(
            "-----BEGIN PUBLIC KEY-----\n{}\n{}\n-----END PUBLIC KEY-----\n",
            &VENDOR_KEY[..64],
            &VENDOR_KEY[64..]
        );
        assert!(parse_public_key(&pem).is_some());
        for bad in ["", "abc", "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE"] {
            assert!(parse_public_key(bad).is_none(), "{bad}");
        }
    }
}
