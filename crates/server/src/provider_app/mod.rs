//! Cross-app login, provider side (issue 10 §2, spec §3 "Cross-app connection"): this server is
//! a plain OAuth 2.0 authorization server (RFC 6749 code grant with RFC 7636 PKCE S256) for each
//! app that allows being a provider. App B's users "log in with" app A:
//!
//! 1. B's OAuth engine (`crate::methods::oauth`, provider `privy:{A}`) sends the browser to A's
//!    consent page `GET /apps/{A}/oauth/authorize?…` ([`page`]); the visitor signs in to A there
//!    and allows B → `POST /api/v1/apps/{A}/oauth/consent` gives a 60-second, single-use code.
//! 2. The engine exchanges it at `POST /api/v1/apps/{A}/oauth/token` (PKCE checked) for a provider
//!    token, and reads `GET /api/v1/apps/{A}/oauth/userinfo` ([`routes`]).
//! 3. Later B's client asks A's signing page `/oauth/transact` to sign with A's wallet, presenting
//!    the provider token.
//!
//! What a request may ask is decided once, in [`check_request`]. What the provider reads is
//! [`deps`].

pub mod deps;
pub mod page;
pub mod routes;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::API_PREFIX;

use self::deps::ProviderAppDeps;
use crate::db::apps::AppRecord;
use crate::error::AppError;

/// Seconds an authorization code lives (RFC 6749 §4.1.2 recommends at most 10 minutes).
pub const CODE_TTL_S: i64 = 60;

/// Seconds a provider token lives.
pub const TOKEN_TTL_S: i64 = 3600;

/// What a consent asks: `client_id` wants a code for `redirect_uri`, PKCE `code_challenge`.
#[derive(Debug, Clone)]
pub struct AuthorizeParams<'a> {
    /// The requesting app.
    pub client_id: &'a str,
    /// Where the code goes.
    pub redirect_uri: &'a str,
    /// PKCE challenge.
    pub code_challenge: &'a str,
    /// PKCE method.
    pub code_challenge_method: &'a str,
}

/// A request that may be answered: the two apps and whether the requester is read-only.
#[derive(Debug, Clone)]
pub struct CheckedRequest {
    /// The app whose users consent.
    pub provider: AppRecord,
    /// The app asking.
    pub client: AppRecord,
    /// The requester lists the provider as read-only.
    pub read_only: bool,
}

/// The only redirect URI a code is issued for: this server's OAuth callback (the engine of
/// `privy:{provider}` on the requesting app).
pub fn callback_url(deps: &ProviderAppDeps) -> String {
    format!(
        "{}{API_PREFIX}/oauth/callback",
        deps.config.public_url.trim_end_matches('/')
    )
}

/// The provider app `provider_id`, if it allows being a provider.
pub async fn provider_app(
    deps: &ProviderAppDeps,
    provider_id: &str,
) -> Result<AppRecord, AppError> {
    match deps.db.find_app(provider_id).await? {
        Some(app) if app.settings.cross_app.allow_as_provider => Ok(app),
        Some(_) => Err(AppError::new(
            ServerErrorCode::FeatureNotEnabled,
            "This app is not a cross-app provider",
        )),
        None => Err(AppError::new(ServerErrorCode::NotFound, "Unknown app")),
    }
}

/// Whether `client` lists `provider_id` as a provider, and read-only.
pub fn listed(client: &AppRecord, provider_id: &str) -> Option<bool> {
    client
        .settings
        .cross_app
        .providers
        .iter()
        .find(|p| p.app_id == provider_id)
        .map(|p| p.read_only)
}

/// Checks a consent request for `provider_id`: the provider allows being one, the client app
/// exists and lists it, the redirect URI is exactly [`callback_url`], PKCE is S256 with a
/// well-formed challenge.
pub async fn check_request(
    deps: &ProviderAppDeps,
    provider_id: &str,
    params: &AuthorizeParams<'_>,
) -> Result<CheckedRequest, AppError> {
    let provider = provider_app(deps, provider_id).await?;
    let client = deps
        .db
        .find_app(params.client_id)
        .await?
        .ok_or_else(|| AppError::invalid_data("Unknown client_id"))?;
    let read_only = listed(&client, &provider.id).ok_or_else(|| {
        AppError::new(
            ServerErrorCode::FeatureNotEnabled,
            "The requesting app does not list this app as a cross-app provider",
        )
    })?;
    if params.redirect_uri != callback_url(deps) {
        return Err(AppError::invalid_data("redirect_uri is not allowed"));
    }
    if params.code_challenge_method != "S256" || !is_s256_challenge(params.code_challenge) {
        return Err(AppError::new(
            ServerErrorCode::InvalidPkceParameters,
            "code_challenge must be an S256 challenge",
        ));
    }
    Ok(CheckedRequest {
        provider,
        client,
        read_only,
    })
}

/// 43 base64url characters: a SHA-256 digest (RFC 7636 §4.2).
fn is_s256_challenge(challenge: &str) -> bool {
    challenge.len() == 43
        && challenge
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// RFC 7636 §4.6: BASE64URL(SHA256(verifier)) equals the challenge; the verifier is 43–128
/// unreserved characters (§4.1).
pub fn pkce_matches(verifier: &str, challenge: &str) -> bool {
    let well_formed = (43..=128).contains(&verifier.len())
        && verifier
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'));
    well_formed && URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())) == challenge
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pkce_follows_rfc_7636_appendix_b() {
        // RFC 7636 Appendix B.
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
        assert!(is_s256_challenge(challenge));
        assert!(pkce_matches(verifier, challenge));
        assert!(!pkce_matches(
            "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXK",
            challenge
        ));
        assert!(!pkce_matches("short", challenge));
        assert!(!is_s256_challenge("plain-challenge"));
    }
}
