//! From the provider's code to a verified identity: exchange the code, then read the user from
//! the ID token (OpenID: signature by the issuer's keys, `iss`, `aud`, `exp`, `nonce`) or from the
//! user-info endpoint (plain OAuth 2.0).

use serde_json::{Map, Value, json};
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::session::OAuthTokens;

use super::flow::upstream_refusal;
use super::upstream::{UpstreamError, exchange, user_info};
use crate::accounts::VerifiedIdentity;
use crate::app_secrets::oauth_client_secret;
use crate::app_settings::login_methods::LoginMethod;
use crate::app_settings::oauth_providers::{Proof, Provider, field};
use crate::db::oauth::OAuthFlow;
use crate::digest::sha256_hex;
use crate::error::AppError;
use crate::jwt_verifier::{CustomAuthSettings, CustomJwtError, MAX_SUBJECT_CHARS, verified_claims};
use crate::state::AppState;

/// Exchanges `code` and proves who the provider says the user is.
pub async fn prove(
    state: &AppState,
    provider: &Provider,
    flow: &OAuthFlow,
    code: &str,
) -> Result<(VerifiedIdentity, OAuthTokens), AppError> {
    let client_secret = state.app_secrets.open(
        &flow.app_id,
        &oauth_client_secret(&provider.name),
        &provider.client_secret,
    )?;
    let exchanged = exchange(
        &state.outbound,
        provider,
        &client_secret,
        &super::callback_url(state),
        code,
        &flow.upstream_verifier,
    )
    .await
    .map_err(|e| upstream_refusal(provider, e))?;
    let user = match &provider.proof {
        Proof::IdToken { issuer, jwks_url } => {
            let token = exchanged.id_token.as_deref().ok_or_else(|| {
                upstream_refusal(
                    provider,
                    UpstreamError::Unavailable("no ID token in the token answer".into()),
                )
            })?;
            id_token_claims(state, provider, issuer, jwks_url, token, &flow.nonce_hash).await?
        }
        Proof::UserInfo { url } => user_info(&state.outbound, url, &exchanged.tokens.access_token)
            .await
            .map_err(|e| upstream_refusal(provider, e))?,
    };
    Ok((identity_of(provider, &user)?, exchanged.tokens))
}

/// The ID token's claims once checked; `nonce` must hash to the flow's.
async fn id_token_claims(
    state: &AppState,
    provider: &Provider,
    issuer: &str,
    jwks_url: &str,
    token: &str,
    nonce_hash: &str,
) -> Result<Value, AppError> {
    let settings = CustomAuthSettings {
        jwks_url: Some(jwks_url.to_string()),
        public_key_pem: None,
        issuer: Some(issuer.to_string()),
        audience: Some(provider.client_id.clone()),
        subject_claim: "sub".into(),
    };
    let refused = |reason: String| {
        tracing::info!(provider = %provider.name, %reason, "ID token refused");
        AppError::new(
            ServerErrorCode::InvalidCredentials,
            format!("Invalid ID token from {}: {reason}", provider.name),
        )
    };
    let claims: Map<String, Value> =
        verified_claims(&state.jwks_cache, &settings, token, state.clock.now())
            .await
            .map_err(|error| match error {
                CustomJwtError::Invalid { reason } => refused(reason.to_string()),
                other => upstream_refusal(provider, UpstreamError::Unavailable(other.to_string())),
            })?;
    let nonce = claims
        .get("nonce")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if nonce_hash.is_empty() || sha256_hex(nonce.as_bytes()) != nonce_hash {
        return Err(refused("wrong nonce".into()));
    }
    Ok(Value::Object(claims))
}

/// The identity in `user` (ID token claims or user-info JSON), read by the provider's map.
fn identity_of(provider: &Provider, user: &Value) -> Result<VerifiedIdentity, AppError> {
    let map = &provider.claims;
    let subject = field(user, &map.subject)
        .filter(|s| s.chars().count() <= MAX_SUBJECT_CHARS)
        .ok_or_else(|| {
            upstream_refusal(
                provider,
                UpstreamError::Unavailable(format!("no user id at {:?}", map.subject)),
            )
        })?;
    let read = |path: &Option<String>| path.as_deref().and_then(|p| field(user, p));
    // An email the provider itself marks unverified is not one we show as the user's.
    let email = read(&map.email).filter(|_| user.get("email_verified") != Some(&json!(false)));
    let mut details = json!({
        "provider": provider.name,
        "email": email,
        "name": read(&map.name),
        "username": read(&map.username),
    });
    if let Some(app_id) = &provider.provider_app_id {
        details["provider_app_id"] = json!(app_id);
        details["embedded_wallets"] = wallets(user.get("embedded_wallets"));
        details["smart_wallets"] = wallets(user.get("smart_wallets"));
    }
    Ok(VerifiedIdentity {
        method: LoginMethod::OAuth,
        account_type: provider.account_type.clone().into(),
        subject,
        details: Some(details),
    })
}

/// `[{address}]` from a cross-app user-info list (anything else is dropped).
fn wallets(list: Option<&Value>) -> Value {
    let addresses: Vec<Value> = list
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|w| w.get("address").and_then(Value::as_str))
        .take(100)
        .map(|address| json!({ "address": address }))
        .collect();
    Value::Array(addresses)
}
