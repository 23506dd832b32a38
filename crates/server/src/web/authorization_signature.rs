//! Authorization signatures (`privy-authorization-signature`): a resource with an owner (a key
//! quorum) changes only when the request carries enough signatures by the owner's keys. Each is
//! ECDSA P-256 over SHA-256 of the RFC 8785 canonical JSON of `{version: 1, method, url, body,
//! headers}` (the full URL from the configured public URL, never from `Host`; an empty body as
//! `""`; the `privy-*` headers sent), base64 DER, several joined by commas
//! (docs/policies.md "Owners").
//!
//! [`Signed`] reads such a request: the body as sent (the signature covers it byte for byte after
//! canonicalisation, so it is kept as JSON, not as the handler's type) and the signatures;
//! [`Signed::authorize`] checks them against an owner.

use std::collections::BTreeMap;

use axum::extract::{FromRequest, Request};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use p256::PublicKey;
use p256::ecdsa::signature::Verifier;
use p256::ecdsa::{Signature, VerifyingKey};
use p256::pkcs8::DecodePublicKey;
use serde::de::DeserializeOwned;
use serde_json::Value;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::{HEADER_APP_ID, HEADER_IDEMPOTENCY_KEY};

use crate::error::AppError;
use crate::state::AppState;
use crate::web::app_context::header;
use crate::web::raw_body::RawBody;

/// The signatures' header.
pub const HEADER_SIGNATURE: &str = "privy-authorization-signature";
/// The deadline header (Unix milliseconds).
pub const HEADER_EXPIRY: &str = "privy-request-expiry";

/// The refusal of a change to an owned resource without signatures.
pub const SIGNATURE_REQUIRED: &str = "This resource has an owner: the request needs its authorization signature (privy-authorization-signature)";
/// The refusal of signatures that do not satisfy the owner.
pub const SIGNATURE_INSUFFICIENT: &str =
    "The authorization signatures do not satisfy the owner's keys";
/// The refusal of a request past its `privy-request-expiry`.
pub const REQUEST_EXPIRED: &str = "The request is past its privy-request-expiry";

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
#[derive(Debug, Clone)]
pub struct SignedRequest {
    method: String,
    url: String,
    body: Value,
    headers: BTreeMap<String, String>,
    signatures: Vec<String>,
    expiry_ms: Option<String>,
}

impl SignedRequest {
    /// The body as sent (`{}` when there was none): where a field's absence and `null` differ.
    pub fn body(&self) -> &Value {
        &self.body
    }

    /// The bytes every signature signs.
    pub fn payload(&self) -> Result<Vec<u8>, AppError> {
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
        serde_json_canonicalizer::to_vec(&document).map_err(|e| AppError::internal(&e))
    }

    /// Checks the deadline and that at least `owner.threshold` distinct owner keys signed.
    pub fn authorize(&self, owner: &Owner, now_ms: i64) -> Result<(), AppError> {
        if let Some(expiry) = &self.expiry_ms {
            let deadline: i64 = expiry.trim().parse().map_err(|_| {
                AppError::invalid_data("privy-request-expiry must be Unix milliseconds")
            })?;
            if deadline <= now_ms {
                return Err(AppError::invalid_data(REQUEST_EXPIRED));
            }
        }
        if self.signatures.is_empty() {
            return Err(AppError::new(
                ServerErrorCode::InvalidCredentials,
                SIGNATURE_REQUIRED,
            ));
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
            return Err(AppError::new(
                ServerErrorCode::InvalidCredentials,
                SIGNATURE_INSUFFICIENT,
            ));
        }
        Ok(())
    }
}

/// A `/v1` request whose body is `T`, kept with what its authorization signatures sign.
#[derive(Debug)]
pub struct Signed<T> {
    /// The body as the handler's type.
    pub body: T,
    /// The request as signed.
    pub request: SignedRequest,
}

impl<T: DeserializeOwned> FromRequest<AppState> for Signed<T> {
    type Rejection = AppError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        let (parts, body) = request.into_parts();
        let RawBody(bytes) =
            RawBody::from_request(Request::from_parts(parts.clone(), body), state).await?;
        let value: Value = if bytes.iter().all(u8::is_ascii_whitespace) {
            Value::Object(serde_json::Map::new())
        } else {
            serde_json::from_slice(&bytes)
                .map_err(|e| AppError::invalid_data(format!("The body is not JSON: {e}")))?
        };
        let typed: T = serde_json::from_value(value.clone())
            .map_err(|e| AppError::invalid_data(format!("Invalid request body: {e}")))?;
        let mut headers = BTreeMap::new();
        for name in [HEADER_APP_ID, HEADER_IDEMPOTENCY_KEY, HEADER_EXPIRY] {
            if let Some(value) = header(&parts.headers, name) {
                headers.insert(name.to_string(), value.to_string());
            }
        }
        let signatures = header(&parts.headers, HEADER_SIGNATURE)
            .map(|list| {
                list.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        let base = state.config.public_url.trim_end_matches('/');
        let url = match parts.uri.query() {
            Some(query) => format!("{base}{}?{query}", parts.uri.path()),
            None => format!("{base}{}", parts.uri.path()),
        };
        Ok(Self {
            body: typed,
            request: SignedRequest {
                method: parts.method.as_str().to_string(),
                url,
                body: value,
                expiry_ms: headers.get(HEADER_EXPIRY).cloned(),
                headers,
                signatures,
            },
        })
    }
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
            expiry_ms: Some("1800000000000".into()),
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
            request.authorize(owner, now).unwrap_err().message
        };
        assert_eq!(refused(&vendor_request(&[]), &key, now), SIGNATURE_REQUIRED);
        assert_eq!(
            refused(&vendor_request(&["bm90IGRlcg=="]), &key, now),
            SIGNATURE_INSUFFICIENT
        );
        let mut changed = vendor_request(&[VENDOR_SIGNATURE]);
        changed.body["name"] = json!("Shop!");
        assert_eq!(
            refused(&changed, &key, now),
            SIGNATURE_INSUFFICIENT,
            "a changed body"
        );
        let mut elsewhere = vendor_request(&[VENDOR_SIGNATURE]);
        elsewhere.url = "http://evil.test/v1/policies/abc".into();
        assert_eq!(
            refused(&elsewhere, &key, now),
            SIGNATURE_INSUFFICIENT,
            "another URL"
        );
        assert_eq!(
            refused(
                &vendor_request(&[VENDOR_SIGNATURE]),
                &key,
                1_800_000_000_000
            ),
            REQUEST_EXPIRED
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
            SIGNATURE_INSUFFICIENT
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
