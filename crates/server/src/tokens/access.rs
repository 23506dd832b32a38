//! Access and identity tokens: ES256 JWTs with a `kid` header.

use std::sync::Arc;

use jsonwebtoken::{Algorithm, Validation, decode, decode_header};
use symbolon_protocol::constants::{ACCESS_TOKEN_TTL_S, IDENTITY_TOKEN_TTL_S};
use symbolon_protocol::session::{AccessTokenClaims, IdentityTokenClaims};
use symbolon_protocol::user::User;

use super::{KeyRing, TokenError};

/// Seconds a token's `iat` or `nbf` may lie ahead of our clock (servers behind one database
/// whose clocks differ slightly).
const CLOCK_SKEW_S: i64 = 30;

/// Why a presented access token was refused. Never includes the token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// Not a JWT, unknown `kid`, bad signature, wrong `iss`/`aud` or missing claims.
    #[error("invalid access token: {0}")]
    Invalid(String),
    /// Past its `exp`.
    #[error("access token expired")]
    Expired,
}

/// Signs and verifies tokens for one issuer (the server's public URL).
#[derive(Debug, Clone)]
pub struct TokenIssuer {
    keys: Arc<KeyRing>,
    issuer: String,
}

impl TokenIssuer {
    /// An issuer signing with `keys` as `issuer`.
    pub fn new(keys: Arc<KeyRing>, issuer: String) -> Self {
        Self { keys, issuer }
    }

    /// The key ring (for the JWKS).
    pub fn keys(&self) -> &KeyRing {
        &self.keys
    }

    /// An access token for a session, valid for [`ACCESS_TOKEN_TTL_S`].
    pub fn access_token(
        &self,
        app_id: &str,
        user_id: &str,
        session_id: &str,
        now: i64,
    ) -> Result<String, TokenError> {
        let claims = AccessTokenClaims {
            sid: session_id.into(),
            sub: user_id.into(),
            iss: self.issuer.clone(),
            aud: app_id.into(),
            iat: now,
            exp: now + ACCESS_TOKEN_TTL_S as i64,
        };
        self.keys.signer().sign(&claims)
    }

    /// An identity token carrying the user's linked accounts as a JSON string.
    pub fn identity_token(
        &self,
        app_id: &str,
        user: &User,
        now: i64,
    ) -> Result<String, TokenError> {
        let accounts = user
            .linked_accounts
            .iter()
            .map(compact_account)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| TokenError::Sign(e.to_string()))?;
        let linked_accounts =
            serde_json::to_string(&accounts).map_err(|e| TokenError::Sign(e.to_string()))?;
        let claims = IdentityTokenClaims {
            sub: user.id.clone(),
            iss: self.issuer.clone(),
            aud: app_id.into(),
            iat: now,
            exp: now + IDENTITY_TOKEN_TTL_S as i64,
            linked_accounts,
            cr: user.created_at.to_string(),
            guest: if user.is_guest { "t" } else { "f" }.into(),
            custom_metadata: match &user.custom_metadata {
                Some(metadata) => Some(
                    serde_json::to_string(metadata).map_err(|e| TokenError::Sign(e.to_string()))?,
                ),
                None => None,
            },
        };
        self.keys.signer().sign(&claims)
    }

    /// Checks signature, `kid`, `iss`, `aud == app_id`, that `iat` and `nbf` are not in the
    /// future and `exp − iat` is no longer than this server issues, and, when `check_expiry`,
    /// `exp` against `now` (our clock, not the system's, so tests can move time).
    pub fn verify_access_token(
        &self,
        token: &str,
        app_id: &str,
        now: i64,
        check_expiry: bool,
    ) -> Result<AccessTokenClaims, VerifyError> {
        let header = decode_header(token).map_err(|e| VerifyError::Invalid(e.to_string()))?;
        let kid = header
            .kid
            .ok_or_else(|| VerifyError::Invalid("no kid".into()))?;
        let key = self
            .keys
            .decoding_key(&kid)
            .ok_or_else(|| VerifyError::Invalid("unknown kid".into()))?;
        let mut validation = Validation::new(Algorithm::ES256);
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[app_id]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.validate_exp = false;
        validation.validate_nbf = false;
        let CheckedClaims { claims, nbf } = decode::<CheckedClaims>(token, key, &validation)
            .map_err(|e| VerifyError::Invalid(e.to_string()))?
            .claims;
        if claims.iat > now + CLOCK_SKEW_S {
            return Err(VerifyError::Invalid("issued in the future".into()));
        }
        if claims.exp - claims.iat > ACCESS_TOKEN_TTL_S as i64 {
            return Err(VerifyError::Invalid("lifetime longer than issued".into()));
        }
        if nbf.is_some_and(|nbf| nbf > now + CLOCK_SKEW_S) {
            return Err(VerifyError::Invalid("not valid yet".into()));
        }
        if check_expiry && claims.exp <= now {
            return Err(VerifyError::Expired);
        }
        Ok(claims)
    }
}

/// An account of the identity token: as the user object has it, plus the compact names the spec's
/// server SDKs read (`lv`, `phone_number`, `oa`).
fn compact_account(
    account: &symbolon_protocol::user::LinkedAccount,
) -> Result<serde_json::Value, serde_json::Error> {
    let mut entry = serde_json::to_value(account)?;
    if let Some(fields) = entry.as_object_mut() {
        if let Some(latest) = fields.get("latest_verified_at").cloned() {
            fields.insert("lv".into(), latest);
        }
        if let Some(phone) = fields.get("phoneNumber").cloned() {
            fields.insert("phone_number".into(), phone);
        }
        if let Some(owner) = fields.get("owner_address").cloned() {
            fields.insert("oa".into(), owner);
        }
    }
    Ok(entry)
}

/// The claims we check: ours, plus an `nbf` that a token signed with our key must still honour.
#[derive(serde::Deserialize)]
struct CheckedClaims {
    #[serde(flatten)]
    claims: AccessTokenClaims,
    nbf: Option<i64>,
}
