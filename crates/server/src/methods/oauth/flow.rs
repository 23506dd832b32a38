//! The flow row: made by init, read by the provider's callback, consumed once by authenticate
//! or link (spec §5: state single-use and short-lived; PKCE S256).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use oauth2::{PkceCodeChallenge, PkceCodeVerifier};
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::oauth::OAuthInitRequest;

use super::CallbackParams;
use super::upstream::{UpstreamError, authorize_url};
use crate::app_settings::oauth_providers::{Proof, Provider};
use crate::db::DbError;
use crate::db::apps::AppRecord;
use crate::db::oauth::OAuthFlow;
use crate::digest::sha256_hex;
use crate::error::{AppError, Status};
use crate::methods::oauth::deps::OAuthDeps;
use crate::random::random_bytes;
use crate::web::app_context::origin_allowed;

/// Seconds between init and authenticate.
pub const FLOW_TTL_S: i64 = 600;

/// Seconds a code our callback received stays bound to its flow: longer than providers let a
/// code live (RFC 6749 §4.1.2 recommends at most 10 minutes) and than the flow itself, so the
/// code cannot be handed to another flow while the provider would still exchange it.
pub const CODE_BINDING_TTL_S: i64 = 3600;

/// Message when the code presented is not the one the flow's callback received.
pub const UNBOUND_CODE: &str =
    "The authorization code is not the one this sign-in's OAuth callback received";

/// Message of every refusal of the flow proof (unknown, expired, used, other provider, wrong
/// verifier): the caller learns nothing about which.
pub const INVALID_PKCE: &str = "Invalid or expired OAuth state or code verifier";

/// 36 random bytes, base64url (spec §9: OAuth state and verifier size).
fn random_36() -> Result<String, AppError> {
    Ok(URL_SAFE_NO_PAD.encode(random_bytes::<36>()?))
}

/// RFC 7636 §4.1 characters (unreserved), within `min..=max` characters.
fn unreserved(text: &str, min: usize, max: usize) -> bool {
    (min..=max).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'))
}

/// Checks the request, stores the flow and answers the provider's authorization URL.
pub async fn start_flow(
    deps: &OAuthDeps,
    app: &AppRecord,
    provider: &Provider,
    body: &OAuthInitRequest,
) -> Result<String, AppError> {
    // The code goes to `redirect_to`: only to a page of the app (its allowed origins).
    let origin = url::Url::parse(&body.redirect_to)
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .map(|u| u.origin().ascii_serialization());
    if !origin.is_some_and(|origin| origin_allowed(app, &origin)) {
        return Err(AppError::new(
            ServerErrorCode::InvalidOrigin,
            "redirect_to is not an allowed origin of this app",
        ));
    }
    // S256 of a verifier is 32 bytes: 43 base64url characters.
    if !unreserved(&body.code_challenge, 43, 43) {
        return Err(AppError::invalid_data(
            "code_challenge must be the S256 challenge (43 base64url characters)",
        ));
    }
    if !unreserved(&body.state_code, 16, 256) {
        return Err(AppError::invalid_data(
            "state_code must be 16 to 256 URL-safe characters",
        ));
    }
    let upstream_state = random_36()?;
    let upstream_verifier = random_36()?;
    let nonce = match provider.proof {
        Proof::IdToken { .. } => Some(random_36()?),
        Proof::UserInfo { .. } => None,
    };
    let url = authorize_url(
        provider,
        &super::callback_url(deps),
        &upstream_state,
        &upstream_verifier,
        nonce.as_deref(),
    )
    .map_err(|e| upstream_refusal(provider, e))?;
    let now = deps.clock.now();
    let flow = OAuthFlow {
        upstream_state_hash: sha256_hex(upstream_state.as_bytes()),
        app_id: app.id.clone(),
        client_state: body.state_code.clone(),
        code_challenge: body.code_challenge.clone(),
        provider: provider.name.clone(),
        redirect_to: body.redirect_to.clone(),
        upstream_verifier,
        nonce_hash: nonce.map(|n| sha256_hex(n.as_bytes())).unwrap_or_default(),
        expires_at: now + FLOW_TTL_S,
    };
    match deps.db.insert_oauth_flow(&flow, now).await {
        Ok(()) => Ok(url),
        Err(DbError::Conflict { .. }) => Err(AppError::invalid_data(
            "state_code is already in use: start again with a new one",
        )),
        Err(other) => Err(other.into()),
    }
}

/// Consumes the app's flow for `state_code` (one conditional delete: of concurrent callers one
/// gets it) and checks it was started for `provider` with the challenge of `verifier`: these
/// refusals are `invalid_pkce_parameters`. Then `code` must be the one our callback received for
/// this flow (a provider that does not enforce PKCE would exchange any of its codes with our
/// verifier): else `invalid_credentials`. A refused attempt uses the flow up.
pub async fn take_flow(
    deps: &OAuthDeps,
    app: &AppRecord,
    state_code: &str,
    verifier: &str,
    provider: &str,
    code: &str,
) -> Result<OAuthFlow, AppError> {
    let refused = || AppError::new(ServerErrorCode::InvalidPkceParameters, INVALID_PKCE);
    let flow = deps
        .db
        .take_oauth_flow(&app.id, state_code, deps.clock.now())
        .await?
        .ok_or_else(refused)?;
    if flow.provider != provider || !unreserved(verifier, 43, 128) {
        return Err(refused());
    }
    let challenge =
        PkceCodeChallenge::from_code_verifier_sha256(&PkceCodeVerifier::new(verifier.into()));
    if challenge.as_str() != flow.code_challenge {
        return Err(refused());
    }
    let bound = deps
        .db
        .oauth_code_bound(
            &sha256_hex(code.as_bytes()),
            &flow.upstream_state_hash,
            deps.clock.now(),
        )
        .await?;
    if !bound {
        return Err(AppError::new(
            ServerErrorCode::InvalidCredentials,
            UNBOUND_CODE,
        ));
    }
    Ok(flow)
}

/// The provider's answer at our callback.
#[derive(Debug)]
pub struct Callback {
    code: Option<String>,
    state: Option<String>,
    error: Option<String>,
}

impl From<CallbackParams> for Callback {
    fn from(params: CallbackParams) -> Self {
        Self {
            code: params.code,
            state: params.state,
            error: params.error,
        }
    }
}

impl Callback {
    /// Where the browser goes: the flow's `redirect_to` with `privy_oauth_code` (or
    /// `privy_oauth_error`), `privy_oauth_state` (the client's) and `privy_oauth_provider`.
    /// A code is first bound to the flow (`oauth_codes`): only this flow may exchange it, and a
    /// code another flow received, or a second code for this flow, is refused (`invalid_data`).
    pub async fn location(&self, deps: &OAuthDeps) -> Result<String, AppError> {
        let unknown = || AppError::invalid_data("Unknown or expired OAuth state");
        let upstream_state = self
            .state
            .as_deref()
            .filter(|s| s.len() <= 256)
            .ok_or_else(unknown)?;
        let flow = deps
            .db
            .find_oauth_flow(&sha256_hex(upstream_state.as_bytes()), deps.clock.now())
            .await?
            .ok_or_else(unknown)?;
        if let (Some(code), None) = (&self.code, &self.error) {
            let now = deps.clock.now();
            let bound = deps
                .db
                .bind_oauth_code(
                    &sha256_hex(code.as_bytes()),
                    &flow.upstream_state_hash,
                    now + CODE_BINDING_TTL_S,
                    now,
                )
                .await?;
            if !bound {
                return Err(AppError::invalid_data(
                    "This authorization code or OAuth sign-in already went through the callback",
                ));
            }
        }
        let mut url = url::Url::parse(&flow.redirect_to).map_err(|_| unknown())?;
        {
            let mut query = url.query_pairs_mut();
            match (&self.code, &self.error) {
                (Some(code), None) => query.append_pair("privy_oauth_code", code),
                (_, error) => query.append_pair(
                    "privy_oauth_error",
                    error.as_deref().unwrap_or("invalid_request"),
                ),
            };
            query
                .append_pair("privy_oauth_state", &flow.client_state)
                .append_pair("privy_oauth_provider", &flow.provider);
        }
        Ok(url.to_string())
    }
}

/// The HTTP answer for a provider that failed us.
pub fn upstream_refusal(provider: &Provider, error: UpstreamError) -> AppError {
    match error {
        UpstreamError::Suspended => AppError::new(
            ServerErrorCode::OauthAccountSuspended,
            format!("Your {} account is suspended", provider.name),
        ),
        UpstreamError::Refused(reason) => {
            tracing::info!(provider = %provider.name, %reason, "provider refused the code");
            AppError::new(
                ServerErrorCode::InvalidCredentials,
                format!("{} refused the authorization code", provider.name),
            )
        }
        UpstreamError::Unavailable(reason) => {
            tracing::warn!(provider = %provider.name, %reason, "provider unavailable");
            AppError::new(
                ServerErrorCode::InternalError,
                format!("{} could not be reached; try again", provider.name),
            )
            .with_status(Status::BadGateway)
        }
        UpstreamError::Misconfigured(reason) => {
            tracing::error!(provider = %provider.name, %reason, "provider misconfigured");
            AppError::new(
                ServerErrorCode::FeatureNotEnabled,
                format!("{} is not configured correctly for this app", provider.name),
            )
        }
    }
}
