//! Verifying JWTs that another party issues (a host app's custom auth, an OpenID provider's id
//! token) against its JWKS URL or a configured PEM public key (docs/server.md, "Custom auth (JWT)").
//!
//! Only asymmetric signatures are accepted, and the algorithm comes from the key, never from the
//! token alone: RSA keys allow RS256/384/512 and PS256/384/512, EC P-256 keys ES256, P-384 keys
//! ES384, Ed25519 keys EdDSA. `alg: none` and every HS* algorithm are refused (RFC 8725 §3.1,
//! §3.2): a secret shared with the host would be a different feature.

use std::collections::{HashMap, HashSet};
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use p256::pkcs8::{ObjectIdentifier, SubjectPublicKeyInfoRef};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::outbound_http::{is_https_or_loopback, read_capped};

/// Clock skew allowed on `exp` and `nbf`.
pub const LEEWAY_S: i64 = 30;
/// How long fetched keys are used before the JWKS is fetched again.
pub const JWKS_TTL: Duration = Duration::from_secs(300);
/// Least time between two fetches of one JWKS triggered by an unknown `kid`.
pub const JWKS_MIN_REFETCH: Duration = Duration::from_secs(30);
/// Largest JWKS document read.
pub const JWKS_MAX_BYTES: usize = 64 * 1024;
/// Longest subject accepted.
pub const MAX_SUBJECT_CHARS: usize = 256;
/// Longest token looked at.
const MAX_TOKEN_BYTES: usize = 16 * 1024;

const OID_RSA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");
const OID_EC: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
const OID_P256: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.3.1.7");
const OID_P384: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.132.0.34");
const OID_ED25519: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.112");

const RSA_ALGORITHMS: &[Algorithm] = &[
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
];

/// An app's custom-auth settings (stored as JSON in the app's settings). Set `jwks_url` or
/// `public_key_pem`; when both are set the PEM key is used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CustomAuthSettings {
    /// Where the host publishes its signing keys (JWK Set); `https://`, or `http://` on
    /// loopback only.
    pub jwks_url: Option<String>,
    /// One SPKI public key (`-----BEGIN PUBLIC KEY-----`, or PKCS#1 `BEGIN RSA PUBLIC KEY`).
    pub public_key_pem: Option<String>,
    /// Required `iss`, when set.
    pub issuer: Option<String>,
    /// Required `aud` (one of the token's audiences), when set.
    pub audience: Option<String>,
    /// The claim holding the user's id in the host's system (default `sub`).
    pub subject_claim: String,
}

impl Default for CustomAuthSettings {
    fn default() -> Self {
        Self {
            jwks_url: None,
            public_key_pem: None,
            issuer: None,
            audience: None,
            subject_claim: "sub".into(),
        }
    }
}

/// Why a custom-auth token was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidReason {
    /// Not three base64url parts with JSON header and claims, or too long.
    #[error("malformed token")]
    Malformed,
    /// `alg` is `none`, HS*, unknown, or not one the key allows.
    #[error("algorithm not allowed")]
    Algorithm,
    /// No key has the token's `kid` (after one refetch of the JWKS, rate limits allowing).
    #[error("unknown signing key")]
    UnknownKey,
    /// The signature does not verify with the key.
    #[error("bad signature")]
    Signature,
    /// No numeric `exp` claim.
    #[error("no expiry")]
    MissingExpiry,
    /// `exp` has passed (beyond the leeway).
    #[error("token expired")]
    Expired,
    /// `nbf` is in the future (beyond the leeway), or not a number.
    #[error("token not yet valid")]
    NotYetValid,
    /// `iss` is missing or not the configured issuer.
    #[error("wrong issuer")]
    Issuer,
    /// `aud` is missing or does not include the configured audience.
    #[error("wrong audience")]
    Audience,
    /// The subject claim is missing, empty, too long, or neither a string nor a number.
    #[error("no usable subject")]
    Subject,
}

/// Verifying a custom-auth token failed. No variant carries key material or the token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CustomJwtError {
    /// The token is not acceptable (maps to `invalid_credentials` at the HTTP edge).
    #[error("invalid custom auth token: {reason}")]
    Invalid {
        /// What is wrong with it.
        reason: InvalidReason,
    },
    /// The app's keys could not be had: the JWKS fetch failed or returned nothing usable, or
    /// the configured PEM key is unusable (a server or configuration fault, not the user's).
    #[error("custom auth keys unavailable: {0}")]
    KeyUnavailable(String),
    /// The app has neither a JWKS URL nor a public key.
    #[error("custom auth is not configured")]
    NotConfigured,
}

fn invalid(reason: InvalidReason) -> CustomJwtError {
    CustomJwtError::Invalid { reason }
}

/// One verification key and the algorithms it may be used with.
#[derive(Clone)]
struct VerifyKey {
    kid: Option<String>,
    key: DecodingKey,
    algorithms: Vec<Algorithm>,
}

/// Fetched JWK Sets, shared by every app and request, keyed by URL: keys are kept for
/// [`JWKS_TTL`], and an unknown `kid` refetches at most once per [`JWKS_MIN_REFETCH`] per URL.
/// One fetch per URL at a time: concurrent requests wait for it instead of fetching too.
pub struct JwksCache {
    http: reqwest::Client,
    ttl: Duration,
    min_refetch: Duration,
    entries: Mutex<HashMap<String, Arc<tokio::sync::Mutex<CacheEntry>>>>,
}

/// What is known about one JWKS URL.
#[derive(Default)]
struct CacheEntry {
    keys: Arc<Vec<VerifyKey>>,
    /// The last successful fetch.
    fetched_at: Option<Instant>,
    /// The last fetch, successful or not.
    attempted_at: Option<Instant>,
    /// Why the last fetch failed, if it did.
    last_error: Option<CustomJwtError>,
}

impl JwksCache {
    /// A cache fetching with `http` (use [`crate::outbound_http::outbound_client`]).
    pub fn new(http: reqwest::Client) -> Self {
        Self::with_timing(http, JWKS_TTL, JWKS_MIN_REFETCH)
    }

    /// A cache with its own key lifetime and refetch interval (tests).
    pub fn with_timing(http: reqwest::Client, ttl: Duration, min_refetch: Duration) -> Self {
        Self {
            http,
            ttl,
            min_refetch,
            entries: Mutex::new(HashMap::new()),
        }
    }

    /// The keys at `url`: fetched when stale, or when `kid` is unknown — in both cases at most
    /// once per refetch interval. A failed refetch keeps the keys already known.
    async fn keys(
        &self,
        url: &str,
        kid: Option<&str>,
    ) -> Result<Arc<Vec<VerifyKey>>, CustomJwtError> {
        let slot = {
            let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
            entries.entry(url.to_string()).or_default().clone()
        };
        let mut entry = slot.lock().await;
        let now = Instant::now();
        let fresh = entry
            .fetched_at
            .is_some_and(|at| now.duration_since(at) < self.ttl);
        let known = kid.is_none_or(|kid| entry.keys.iter().any(|k| k.kid.as_deref() == Some(kid)));
        if fresh && known {
            return Ok(entry.keys.clone());
        }
        let may_fetch = entry
            .attempted_at
            .is_none_or(|at| now.duration_since(at) >= self.min_refetch);
        if !may_fetch {
            return match (&entry.last_error, entry.keys.is_empty()) {
                (Some(error), true) => Err(error.clone()),
                _ => Ok(entry.keys.clone()),
            };
        }
        entry.attempted_at = Some(now);
        match self.fetch(url).await {
            Ok(keys) => {
                entry.keys = Arc::new(keys);
                entry.fetched_at = Some(Instant::now());
                entry.last_error = None;
                Ok(entry.keys.clone())
            }
            Err(error) => {
                entry.last_error = Some(error.clone());
                if entry.keys.is_empty() {
                    Err(error)
                } else {
                    tracing::warn!(%url, %error, "JWKS refetch failed; keeping the known keys");
                    Ok(entry.keys.clone())
                }
            }
        }
    }

    async fn fetch(&self, url: &str) -> Result<Vec<VerifyKey>, CustomJwtError> {
        check_jwks_url(url)?;
        let unavailable = |what: String| CustomJwtError::KeyUnavailable(what);
        let response = self
            .http
            .get(url)
            .header("accept", "application/json, application/jwk-set+json")
            .send()
            .await
            .map_err(|e| unavailable(format!("fetch failed: {}", e.without_url())))?;
        if !response.status().is_success() {
            return Err(unavailable(format!(
                "JWKS answered HTTP {}",
                response.status().as_u16()
            )));
        }
        let body = read_capped(response, JWKS_MAX_BYTES)
            .await
            .map_err(|e| unavailable(e.to_string()))?;
        let set: Value =
            serde_json::from_slice(&body).map_err(|_| unavailable("JWKS is not JSON".into()))?;
        let keys: Vec<VerifyKey> = set
            .get("keys")
            .and_then(Value::as_array)
            .ok_or_else(|| unavailable("JWKS has no keys array".into()))?
            .iter()
            .filter_map(|value| serde_json::from_value::<Jwk>(value.clone()).ok())
            .filter_map(|jwk| key_from_jwk(&jwk))
            .collect();
        if keys.is_empty() {
            return Err(unavailable("JWKS has no usable signing key".into()));
        }
        Ok(keys)
    }
}

/// `https://`, or `http://` to a loopback host (local development and tests).
fn check_jwks_url(url: &str) -> Result<(), CustomJwtError> {
    let parsed = url::Url::parse(url)
        .map_err(|_| CustomJwtError::KeyUnavailable("the JWKS URL is not a URL".into()))?;
    if is_https_or_loopback(&parsed) {
        Ok(())
    } else {
        Err(CustomJwtError::KeyUnavailable(
            "the JWKS URL must be https".into(),
        ))
    }
}

/// A verification key from one JWK, or `None` for keys we never verify with (symmetric,
/// encryption-only, unsupported curves, or an `alg` that does not fit the key type).
fn key_from_jwk(jwk: &Jwk) -> Option<VerifyKey> {
    if matches!(jwk.common.public_key_use, Some(PublicKeyUse::Encryption)) {
        return None;
    }
    let (key, allowed): (DecodingKey, Vec<Algorithm>) = match &jwk.algorithm {
        AlgorithmParameters::RSA(rsa) => (
            DecodingKey::from_rsa_components(&rsa.n, &rsa.e).ok()?,
            RSA_ALGORITHMS.to_vec(),
        ),
        AlgorithmParameters::EllipticCurve(ec) => {
            let algorithm = match ec.curve {
                EllipticCurve::P256 => Algorithm::ES256,
                EllipticCurve::P384 => Algorithm::ES384,
                _ => return None,
            };
            (
                DecodingKey::from_ec_components(&ec.x, &ec.y).ok()?,
                vec![algorithm],
            )
        }
        AlgorithmParameters::OctetKeyPair(okp) if okp.curve == EllipticCurve::Ed25519 => (
            DecodingKey::from_ed_components(&okp.x).ok()?,
            vec![Algorithm::EdDSA],
        ),
        _ => return None,
    };
    // A JWK that names its `alg` is used with that one only, if it fits the key type.
    let algorithms = match jwk.common.key_algorithm {
        Some(named) => {
            let named = serde_json::to_value(named).ok()?;
            let named = Algorithm::from_str(named.as_str()?).ok()?;
            if !allowed.contains(&named) {
                return None;
            }
            vec![named]
        }
        None => allowed,
    };
    Some(VerifyKey {
        kid: jwk.common.key_id.clone(),
        key,
        algorithms,
    })
}

/// The key in a PEM block: SPKI (`PUBLIC KEY`: RSA, EC P-256/P-384, Ed25519) or PKCS#1
/// (`RSA PUBLIC KEY`).
fn key_from_pem(pem: &str) -> Result<VerifyKey, CustomJwtError> {
    let unusable =
        || CustomJwtError::KeyUnavailable("public_key_pem is not a supported public key".into());
    let (label, der) = pem_body(pem).ok_or_else(unusable)?;
    let (key, algorithms) = match label.as_str() {
        "RSA PUBLIC KEY" => (DecodingKey::from_rsa_der(&der), RSA_ALGORITHMS.to_vec()),
        "PUBLIC KEY" => {
            let spki = SubjectPublicKeyInfoRef::try_from(der.as_slice()).map_err(|_| unusable())?;
            let bits = spki.subject_public_key.as_bytes().ok_or_else(unusable)?;
            let algorithm = spki.algorithm.oid;
            if algorithm == OID_RSA {
                (DecodingKey::from_rsa_der(bits), RSA_ALGORITHMS.to_vec())
            } else if algorithm == OID_ED25519 {
                (DecodingKey::from_ed_der(bits), vec![Algorithm::EdDSA])
            } else if algorithm == OID_EC {
                let curve = spki.algorithm.parameters_oid().map_err(|_| unusable())?;
                let signing = if curve == OID_P256 {
                    Algorithm::ES256
                } else if curve == OID_P384 {
                    Algorithm::ES384
                } else {
                    return Err(unusable());
                };
                (DecodingKey::from_ec_der(bits), vec![signing])
            } else {
                return Err(unusable());
            }
        }
        _ => return Err(unusable()),
    };
    Ok(VerifyKey {
        kid: None,
        key,
        algorithms,
    })
}

/// The label and base64-decoded body of the first PEM block in `text` (RFC 7468).
fn pem_body(text: &str) -> Option<(String, Vec<u8>)> {
    let start = text.find("-----BEGIN ")?;
    let rest = &text[start + "-----BEGIN ".len()..];
    let label_end = rest.find("-----")?;
    let label = rest[..label_end].to_string();
    let body_and_end = &rest[label_end + 5..];
    let end = body_and_end.find(&format!("-----END {label}-----"))?;
    let base64: String = body_and_end[..end]
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    Some((label, STANDARD.decode(base64).ok()?))
}

/// The header fields we look at before verifying anything.
#[derive(Deserialize)]
struct PeekedHeader {
    alg: Option<String>,
    kid: Option<String>,
}

/// The token's `alg` (refusing `none`, HS* and unknown names) and `kid`.
fn peek_header(token: &str) -> Result<(Algorithm, Option<String>), CustomJwtError> {
    if token.len() > MAX_TOKEN_BYTES || token.split('.').count() != 3 {
        return Err(invalid(InvalidReason::Malformed));
    }
    let header = token.split('.').next().unwrap_or_default();
    let bytes = URL_SAFE_NO_PAD
        .decode(header.trim_end_matches('='))
        .map_err(|_| invalid(InvalidReason::Malformed))?;
    let header: PeekedHeader =
        serde_json::from_slice(&bytes).map_err(|_| invalid(InvalidReason::Malformed))?;
    let alg = header.alg.ok_or(invalid(InvalidReason::Algorithm))?;
    let algorithm = Algorithm::from_str(&alg).map_err(|_| invalid(InvalidReason::Algorithm))?;
    if matches!(
        algorithm,
        Algorithm::HS256 | Algorithm::HS384 | Algorithm::HS512
    ) {
        return Err(invalid(InvalidReason::Algorithm));
    }
    Ok((algorithm, header.kid))
}

/// Verifies a custom-auth `token` for an app with `settings` at unix time `now`; returns the
/// user's id in the host's system (the subject claim).
///
/// Checks, in order: the header (`alg` allowed, RFC 8725 §3.1), the key (by `kid`; an unknown
/// `kid` refetches the JWKS once, rate limits allowing), the signature, `iss` and `aud` when
/// configured, `exp` (required) and `nbf` with [`LEEWAY_S`], then the subject claim.
pub async fn verify_custom_jwt(
    cache: &JwksCache,
    settings: &CustomAuthSettings,
    token: &str,
    now: i64,
) -> Result<String, CustomJwtError> {
    Ok(verify_custom_jwt_dated(cache, settings, token, now)
        .await?
        .0)
}

/// [`verify_custom_jwt`], with the token's `iat` when it has a usable one: not after `now` (with
/// [`LEEWAY_S`]), since a date in the future would make every replay look newly issued.
pub async fn verify_custom_jwt_dated(
    cache: &JwksCache,
    settings: &CustomAuthSettings,
    token: &str,
    now: i64,
) -> Result<(String, Option<i64>), CustomJwtError> {
    let claims = verified_claims(cache, settings, token, now).await?;
    let subject = subject(&claims, &settings.subject_claim)?;
    #[allow(clippy::cast_possible_truncation)] // a JWT's NumericDate in seconds fits an i64
    let issued_at = claims
        .get("iat")
        .and_then(Value::as_f64)
        .map(|iat| iat as i64)
        .filter(|iat| *iat <= now + LEEWAY_S);
    Ok((subject, issued_at))
}

/// The claims of `token` once its signature, `iss`, `aud`, `exp` and `nbf` are checked as
/// [`verify_custom_jwt`] does (also used for OpenID ID tokens, `methods::oauth`).
pub async fn verified_claims(
    cache: &JwksCache,
    settings: &CustomAuthSettings,
    token: &str,
    now: i64,
) -> Result<Map<String, Value>, CustomJwtError> {
    let token = token.trim();
    let pem = settings
        .public_key_pem
        .as_deref()
        .filter(|p| !p.trim().is_empty());
    let jwks_url = settings
        .jwks_url
        .as_deref()
        .map(str::trim)
        .filter(|u| !u.is_empty());
    if pem.is_none() && jwks_url.is_none() {
        return Err(CustomJwtError::NotConfigured);
    }
    let (algorithm, kid) = peek_header(token)?;
    let keys: Arc<Vec<VerifyKey>> = match (pem, jwks_url) {
        (Some(pem), _) => Arc::new(vec![key_from_pem(pem)?]),
        (None, Some(url)) => cache.keys(url, kid.as_deref()).await?,
        (None, None) => return Err(CustomJwtError::NotConfigured),
    };
    // A PEM key has no kid and answers to any; JWKS keys must match the token's kid if it has one.
    let candidates: Vec<&VerifyKey> = keys
        .iter()
        .filter(|key| match (&kid, &key.kid, pem) {
            (_, _, Some(_)) | (None, _, None) => true,
            (Some(kid), Some(key_kid), None) => kid == key_kid,
            (Some(_), None, None) => false,
        })
        .collect();
    if candidates.is_empty() {
        return Err(invalid(InvalidReason::UnknownKey));
    }
    let usable: Vec<&VerifyKey> = candidates
        .into_iter()
        .filter(|key| key.algorithms.contains(&algorithm))
        .collect();
    if usable.is_empty() {
        return Err(invalid(InvalidReason::Algorithm));
    }

    let mut validation = Validation::new(algorithm);
    // exp and nbf are checked below against `now`; jsonwebtoken only reads the system clock.
    validation.validate_exp = false;
    validation.validate_nbf = false;
    let mut required: HashSet<String> = HashSet::from(["exp".to_string()]);
    if let Some(issuer) = settings.issuer.as_deref().filter(|i| !i.is_empty()) {
        validation.set_issuer(&[issuer]);
        required.insert("iss".into());
    }
    match settings.audience.as_deref().filter(|a| !a.is_empty()) {
        Some(audience) => {
            validation.set_audience(&[audience]);
            required.insert("aud".into());
        }
        None => validation.validate_aud = false,
    }
    validation.required_spec_claims = required;

    let mut claims: Option<Map<String, Value>> = None;
    for key in usable {
        match jsonwebtoken::decode::<Map<String, Value>>(token, &key.key, &validation) {
            Ok(data) => {
                claims = Some(data.claims);
                break;
            }
            Err(error) => match error.kind() {
                // Another key with this kid (or none) may still verify it.
                ErrorKind::InvalidSignature
                | ErrorKind::InvalidEcdsaKey
                | ErrorKind::InvalidRsaKey(_)
                | ErrorKind::InvalidKeyFormat
                | ErrorKind::InvalidEddsaKey
                | ErrorKind::Provider(_) => continue,
                kind => return Err(invalid(reason_for(kind))),
            },
        }
    }
    let claims = claims.ok_or(invalid(InvalidReason::Signature))?;
    check_times(&claims, now)?;
    Ok(claims)
}

/// What a jsonwebtoken refusal (other than the signature) means for us.
fn reason_for(kind: &ErrorKind) -> InvalidReason {
    match kind {
        ErrorKind::InvalidIssuer => InvalidReason::Issuer,
        ErrorKind::InvalidAudience => InvalidReason::Audience,
        ErrorKind::InvalidAlgorithm
        | ErrorKind::InvalidAlgorithmName
        | ErrorKind::UnsupportedAlgorithm
        | ErrorKind::MissingAlgorithm => InvalidReason::Algorithm,
        ErrorKind::MissingRequiredClaim(claim) => match claim.as_str() {
            "iss" => InvalidReason::Issuer,
            "aud" => InvalidReason::Audience,
            _ => InvalidReason::MissingExpiry,
        },
        _ => InvalidReason::Malformed,
    }
}

/// `exp` required and not passed, `nbf` (if present) reached, both with [`LEEWAY_S`].
fn check_times(claims: &Map<String, Value>, now: i64) -> Result<(), CustomJwtError> {
    let exp = claims
        .get("exp")
        .and_then(Value::as_f64)
        .ok_or(invalid(InvalidReason::MissingExpiry))?;
    if (now - LEEWAY_S) as f64 >= exp {
        return Err(invalid(InvalidReason::Expired));
    }
    if let Some(nbf) = claims.get("nbf") {
        let nbf = nbf.as_f64().ok_or(invalid(InvalidReason::NotYetValid))?;
        if nbf > (now + LEEWAY_S) as f64 {
            return Err(invalid(InvalidReason::NotYetValid));
        }
    }
    Ok(())
}

/// The subject: a non-empty string of at most [`MAX_SUBJECT_CHARS`], or a number as text.
fn subject(claims: &Map<String, Value>, claim: &str) -> Result<String, CustomJwtError> {
    let claim = if claim.is_empty() { "sub" } else { claim };
    let text = match claims.get(claim) {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Number(number)) => number.to_string(),
        _ => return Err(invalid(InvalidReason::Subject)),
    };
    if text.trim().is_empty() || text.chars().count() > MAX_SUBJECT_CHARS {
        return Err(invalid(InvalidReason::Subject));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_default_to_the_sub_claim() {
        let settings: CustomAuthSettings =
            serde_json::from_str(r#"{"jwks_url":"https://id.example.com/jwks.json"}"#)
                .expect("json");
        assert_eq!(settings.subject_claim, "sub");
        assert_eq!(settings.issuer, None);
        let back = serde_json::to_value(&settings).expect("json");
        assert_eq!(back["subject_claim"], "sub");
    }

    #[test]
    fn none_and_hmac_headers_are_refused_before_any_key_is_looked_at() {
        for header in [
            r#"{"alg":"none"}"#,
            r#"{"alg":"HS256"}"#,
            r#"{"alg":"HS512","kid":"k"}"#,
            r#"{"alg":"ES999"}"#,
            r#"{"typ":"JWT"}"#,
        ] {
            let token = format!("{}.e30.", URL_SAFE_NO_PAD.encode(header));
            assert_eq!(
                peek_header(&token).expect_err("refused"),
                invalid(InvalidReason::Algorithm),
                "{header}"
            );
        }
        assert_eq!(
            peek_header("not-a-jwt").expect_err("refused"),
            invalid(InvalidReason::Malformed)
        );
    }

    #[test]
    fn jwks_urls_must_be_https_off_loopback() {
        assert!(check_jwks_url("https://id.example.com/.well-known/jwks.json").is_ok());
        assert!(check_jwks_url("http://127.0.0.1:4000/jwks").is_ok());
        assert!(check_jwks_url("http://localhost/jwks").is_ok());
        assert!(check_jwks_url("http://id.example.com/jwks").is_err());
        assert!(check_jwks_url("file:///etc/passwd").is_err());
    }

    #[test]
    fn numeric_subjects_become_text() {
        let claims: Map<String, Value> =
            serde_json::from_str(r#"{"sub":"","uid":12345,"long":"x","obj":{}}"#).expect("json");
        assert_eq!(subject(&claims, "uid").as_deref(), Ok("12345"));
        assert_eq!(subject(&claims, "long").as_deref(), Ok("x"));
        assert!(subject(&claims, "sub").is_err());
        assert!(subject(&claims, "obj").is_err());
        assert!(subject(&claims, "missing").is_err());
    }
}
