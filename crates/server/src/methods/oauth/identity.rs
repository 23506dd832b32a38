//! From the provider's code to a verified identity: exchange the code, then read the user from
//! the ID token (OpenID: signature by the issuer's keys, `iss`, `aud`, `exp`, `nonce`) or from the
//! user-info endpoint (plain OAuth 2.0).

use serde_json::{Map, Value, json};
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::session::OAuthTokens;
use symbolon_protocol::user::CrossAppWallet;

use super::flow::upstream_refusal;
use super::upstream::{UpstreamError, exchange, user_info};
use crate::accounts::VerifiedIdentity;
use crate::app_secrets::oauth_client_secret;
use crate::app_settings::login_methods::LoginMethod;
use crate::app_settings::oauth_providers::{Proof, Provider, field};
use crate::db::account_details::{CrossAppDetails, OAuthDetails};
use crate::db::oauth::OAuthFlow;
use crate::digest::sha256_hex;
use crate::error::AppError;
use crate::jwt_verifier::{CustomAuthSettings, CustomJwtError, MAX_SUBJECT_CHARS, verified_claims};
use crate::methods::oauth::deps::OAuthDeps;

/// Exchanges `code` and proves who the provider says the user is.
pub async fn prove(
    deps: &OAuthDeps,
    provider: &Provider,
    flow: &OAuthFlow,
    code: &str,
) -> Result<(VerifiedIdentity, OAuthTokens), AppError> {
    let client_secret = deps.app_secrets.open(
        &flow.app_id,
        &oauth_client_secret(&provider.name),
        &provider.client_secret,
    )?;
    let exchanged = exchange(
        &deps.outbound,
        provider,
        &client_secret,
        &super::callback_url(deps),
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
            id_token_claims(deps, provider, issuer, jwks_url, token, &flow.nonce_hash).await?
        }
        Proof::UserInfo { url } => user_info(&deps.outbound, url, &exchanged.tokens.access_token)
            .await
            .map_err(|e| upstream_refusal(provider, e))?,
    };
    Ok((identity_of(provider, &user)?, exchanged.tokens))
}

/// The ID token's claims once checked; `nonce` must hash to the flow's.
async fn id_token_claims(
    deps: &OAuthDeps,
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
        verified_claims(&deps.jwks_cache, &settings, token, deps.clock.now())
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
    let oauth = OAuthDetails {
        provider: provider.name.clone(),
        email,
        name: read(&map.name),
        username: read(&map.username),
    };
    let (method, account_type) = (LoginMethod::OAuth, provider.account_type.clone());
    Ok(match &provider.provider_app_id {
        Some(app_id) => {
            let details = CrossAppDetails {
                oauth,
                provider_app_id: app_id.clone(),
                embedded_wallets: wallets(user.get("embedded_wallets")),
                smart_wallets: wallets(user.get("smart_wallets")),
            };
            VerifiedIdentity::with_details(method, account_type, subject, &details)?
        }
        None => VerifiedIdentity::with_details(method, account_type, subject, &oauth)?,
    })
}

/// `[{address}]` from a cross-app user-info list (anything else is dropped).
fn wallets(list: Option<&Value>) -> Vec<CrossAppWallet> {
    list.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|w| w.get("address").and_then(Value::as_str))
        .take(100)
        .map(|address| CrossAppWallet {
            address: address.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app_settings::oauth::ProviderSettings;
    use crate::app_settings::oauth_providers::resolve;
    use crate::app_settings::{AppSettings, CrossAppProvider};

    type TestResult = Result<(), AppError>;

    fn provider(name: &str) -> Result<Provider, AppError> {
        let mut settings = AppSettings::default();
        settings.oauth.providers.insert(
            "github".into(),
            ProviderSettings {
                client_id: "cid".into(),
                ..ProviderSettings::default()
            },
        );
        settings.login_methods.overflow.push("github".into());
        settings.cross_app.providers.push(CrossAppProvider {
            app_id: "app-a".into(),
            read_only: false,
        });
        resolve(&settings, name, "https://id.example", "app-b")
            .map_err(|e| AppError::invalid_data(format!("{name}: {e:?}")))
    }

    #[test]
    fn oauth_details_are_written_with_the_previous_keys() -> TestResult {
        let user = json!({"id": 42, "email": "ada@example.com", "name": "Ada", "login": "ada"});
        let identity = identity_of(&provider("github")?, &user)?;
        // What the previous release's `json!` wrote.
        let previous = json!({
            "provider": "github",
            "email": "ada@example.com",
            "name": "Ada",
            "username": "ada",
        });
        assert_eq!(identity.details.as_ref(), Some(&previous));
        assert_eq!(identity.details_json(), Some(previous.to_string()));
        assert_eq!(identity.detail("provider"), Some("github"));
        assert_eq!(identity.account_type, "github_oauth");
        // An email the provider marks unverified is stored as null.
        let user = json!({"id": 42, "email": "ada@example.com", "email_verified": false});
        let identity = identity_of(&provider("github")?, &user)?;
        assert_eq!(
            identity.details,
            Some(json!({"provider": "github", "email": null, "name": null, "username": null}))
        );
        Ok(())
    }

    #[test]
    fn cross_app_details_are_written_with_the_previous_keys() -> TestResult {
        let user = json!({
            "sub": "user-a",
            "embedded_wallets": [{"address": "0xaa", "chain_type": "ethereum"}, {"id": 1}],
            "smart_wallets": "none",
        });
        let identity = identity_of(&provider("privy:app-a")?, &user)?;
        let previous = json!({
            "provider": "privy:app-a",
            "email": null,
            "name": null,
            "username": null,
            "provider_app_id": "app-a",
            "embedded_wallets": [{"address": "0xaa"}],
            "smart_wallets": [],
        });
        assert_eq!(identity.details.as_ref(), Some(&previous));
        assert_eq!(identity.details_json(), Some(previous.to_string()));
        assert_eq!(identity.detail("provider"), Some("privy:app-a"));
        assert_eq!(identity.account_type, "cross_app");
        Ok(())
    }
}
