//! Verifying the server's access and identity tokens against its JWKS.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey, Validation, decode, decode_header};
use symbolon_protocol::session::{AccessTokenClaims, IdentityTokenClaims};

use crate::client::Client;
use crate::error::{Error, Result};

/// How long fetched keys are used.
const KEYS_TTL: Duration = Duration::from_secs(600);
/// Least time between two fetches triggered by an unknown `kid`.
const REFETCH_COOLDOWN: Duration = Duration::from_secs(30);
/// Clock skew allowed on `exp` and `nbf`, seconds.
const LEEWAY_S: u64 = 30;

/// A verified access token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedAccess {
    /// The user id, `did:privy:…`.
    pub user_id: String,
    /// The session id.
    pub session_id: String,
    /// The app id (the token's audience).
    pub app_id: String,
    /// Issued at, Unix seconds.
    pub issued_at: i64,
    /// Expiry, Unix seconds.
    pub expires_at: i64,
}

/// The user an identity token describes.
#[derive(Debug, Clone, PartialEq)]
pub struct IdentityUser {
    /// The user id, `did:privy:…`.
    pub id: String,
    /// When the user was created, Unix seconds.
    pub created_at: i64,
    /// Whether this is a guest user.
    pub is_guest: bool,
    /// The linked accounts, as the token carries them.
    pub linked_accounts: Vec<serde_json::Value>,
    /// The custom metadata, when the host set any.
    pub custom_metadata: Option<serde_json::Map<String, serde_json::Value>>,
}

/// The server's keys, by `kid`.
#[derive(Default)]
pub(crate) struct KeyCache {
    state: tokio::sync::Mutex<CacheState>,
}

#[derive(Default)]
struct CacheState {
    keys: Arc<HashMap<String, DecodingKey>>,
    fetched_at: Option<Instant>,
    attempted_at: Option<Instant>,
}

fn invalid(what: impl std::fmt::Display) -> Error {
    Error::InvalidToken(what.to_string())
}

impl Client {
    /// Verifies an access token: ES256 only, `typ` JWT, a known `kid`, `iss` the configured
    /// issuer, `aud` this app, `exp`/`nbf` with 30 s leeway.
    pub async fn verify_access_token(&self, token: &str) -> Result<VerifiedAccess> {
        let claims: AccessTokenClaims = self.verify(token).await?;
        Ok(VerifiedAccess {
            user_id: claims.sub,
            session_id: claims.sid,
            app_id: claims.aud,
            issued_at: claims.iat,
            expires_at: claims.exp,
        })
    }

    /// Verifies an identity token (as [`Client::verify_access_token`]) and reads its user.
    pub async fn verify_identity_token(&self, token: &str) -> Result<IdentityUser> {
        let claims: IdentityTokenClaims = self.verify(token).await?;
        let linked_accounts = serde_json::from_str(&claims.linked_accounts)
            .map_err(|e| invalid(format!("linked_accounts: {e}")))?;
        let custom_metadata = claims
            .custom_metadata
            .as_deref()
            .map(serde_json::from_str)
            .transpose()
            .map_err(|e| invalid(format!("custom_metadata: {e}")))?;
        Ok(IdentityUser {
            id: claims.sub,
            created_at: claims
                .cr
                .parse()
                .map_err(|_| invalid("cr is not a number"))?,
            is_guest: claims.guest == "t",
            linked_accounts,
            custom_metadata,
        })
    }

    async fn verify<T: serde::de::DeserializeOwned>(&self, token: &str) -> Result<T> {
        let header = decode_header(token).map_err(invalid)?;
        if header.alg != Algorithm::ES256 {
            return Err(invalid("algorithm not ES256"));
        }
        if header.typ.as_deref() != Some("JWT") {
            return Err(invalid("typ is not JWT"));
        }
        let kid = header.kid.ok_or_else(|| invalid("no kid"))?;
        let keys = self.keys_for(&kid).await?;
        let key = keys.get(&kid).ok_or_else(|| invalid("unknown kid"))?;
        let mut validation = Validation::new(Algorithm::ES256);
        validation.leeway = LEEWAY_S;
        validation.validate_nbf = true;
        validation.set_issuer(&[&self.inner.issuer]);
        validation.set_audience(&[&self.inner.app_id]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        Ok(decode::<T>(token, key, &validation)
            .map_err(invalid)?
            .claims)
    }

    /// The keys, fetched when stale, or when `kid` is unknown at most once per cooldown. A failed
    /// refetch keeps the known keys.
    async fn keys_for(&self, kid: &str) -> Result<Arc<HashMap<String, DecodingKey>>> {
        let mut state = self.inner.keys.state.lock().await;
        let now = Instant::now();
        let fresh = state
            .fetched_at
            .is_some_and(|at| now.duration_since(at) < KEYS_TTL);
        if fresh && state.keys.contains_key(kid) {
            return Ok(state.keys.clone());
        }
        let may_fetch = !fresh
            || state
                .attempted_at
                .is_none_or(|at| now.duration_since(at) >= REFETCH_COOLDOWN);
        if !may_fetch {
            return Ok(state.keys.clone());
        }
        state.attempted_at = Some(now);
        match self.fetch_keys().await {
            Ok(keys) => {
                state.keys = Arc::new(keys);
                state.fetched_at = Some(Instant::now());
                Ok(state.keys.clone())
            }
            Err(error) if state.keys.is_empty() => Err(error),
            Err(_) => Ok(state.keys.clone()),
        }
    }

    async fn fetch_keys(&self) -> Result<HashMap<String, DecodingKey>> {
        let url = format!(
            "{}/v1/apps/{}/jwks.json",
            self.inner.base,
            crate::users::encode(&self.inner.app_id)
        );
        let response = self
            .inner
            .http
            .get(url)
            .send()
            .await
            .map_err(|e| Error::Transport(e.without_url().to_string()))?;
        if !response.status().is_success() {
            return Err(Error::Transport(format!(
                "JWKS answered HTTP {}",
                response.status().as_u16()
            )));
        }
        let set: JwkSet = response
            .json()
            .await
            .map_err(|e| Error::Transport(format!("JWKS: {}", e.without_url())))?;
        Ok(set
            .keys
            .iter()
            .filter_map(|jwk| {
                let kid = jwk.common.key_id.clone()?;
                DecodingKey::from_jwk(jwk).ok().map(|key| (kid, key))
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ClientOptions;

    fn jwt(header: &str) -> String {
        use std::fmt::Write;
        let b64 = |s: &str| {
            // Base64url without padding, enough for these ASCII test strings.
            const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
            let bytes = s.as_bytes();
            let mut out = String::new();
            for chunk in bytes.chunks(3) {
                let n = chunk.iter().fold(0u32, |n, b| (n << 8) | u32::from(*b))
                    << (8 * (3 - chunk.len()));
                for i in 0..=chunk.len() {
                    let _ = write!(out, "{}", A[((n >> (18 - 6 * i)) & 63) as usize] as char);
                }
            }
            out
        };
        format!(
            "{}.{}.",
            b64(header),
            b64(r#"{"sub":"x","exp":9999999999}"#)
        )
    }

    #[tokio::test]
    async fn none_and_hs256_are_refused_before_any_fetch() {
        // An unroutable server: a fetch would be a transport error, not InvalidToken.
        let client = Client::new(ClientOptions::new("http://127.0.0.1:9", "app", "sk"))
            .unwrap_or_else(|_| unreachable!());
        for header in [
            r#"{"alg":"none","typ":"JWT"}"#,
            r#"{"alg":"HS256","typ":"JWT","kid":"k"}"#,
        ] {
            let refused = client.verify_access_token(&jwt(header)).await;
            assert!(
                matches!(refused, Err(Error::InvalidToken(_))),
                "{header}: {refused:?}"
            );
        }
    }
}
