//! OAuth login with PKCE, one engine for every provider (docs/server.md "OAuth providers"):
//! `POST /oauth/init` → the provider's page → `GET /oauth/callback` (provider → us → the app's
//! page with `privy_oauth_code`, `privy_oauth_state`, `privy_oauth_provider`) →
//! `POST /oauth/authenticate` or `/oauth/link` with the client's PKCE verifier; `/oauth/unlink`
//! and `/oauth/transfer`.
//!
//! Two PKCE pairs guard one flow: the client's (its verifier proves, at authenticate, that it
//! started the flow) and ours at the provider (the code is worthless without our verifier and
//! client secret — where the provider enforces PKCE). For providers that do not, the code is
//! bound to the flow whose callback received it (`oauth_codes`), and exchanged for that flow
//! only. The flow is one row, consumed by one conditional delete.

pub mod deps;
pub mod flow;
pub mod identity;
pub mod routes;
pub mod upstream;

use axum::Json;
use axum::extract::rejection::{FormRejection, QueryRejection};
use axum::extract::{Form, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::oauth::{
    OAuthAuthenticateRequest, OAuthInitRequest, OAuthInitResponse, OAuthLinkRequest,
    OAuthTransferRequest, OAuthUnlinkRequest,
};
use symbolon_protocol::session::OAuthTokens;
use symbolon_protocol::user::User;

use self::flow::{Callback, start_flow, take_flow};
use super::{current_user, link_to};
use crate::accounts::{self, VerifiedIdentity};
use crate::app_settings::oauth_providers::{
    CROSS_APP_PREFIX, Provider, Unavailable, built_in, resolve,
};
use crate::db::apps::AppRecord;
use crate::error::AppError;
use crate::methods::oauth::deps::OAuthDeps;
use crate::sessions::issue::start_session_with;
use crate::web::auth::{LoginCaller, SignedIn};
use crate::web::client_ip::ClientIp;
use crate::web::json_body::JsonBody;

/// Our callback at every provider: `{public_url}/api/v1/oauth/callback`.
pub fn callback_url(deps: &OAuthDeps) -> String {
    format!(
        "{}/api/v1/oauth/callback",
        deps.config.public_url.trim_end_matches('/')
    )
}

/// Starts a flow: stores it and answers the provider's authorization URL.
pub async fn init(
    State(deps): State<OAuthDeps>,
    caller: LoginCaller,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<OAuthInitRequest>,
) -> Result<Json<OAuthInitResponse>, AppError> {
    let app = &caller.ctx.app;
    client_ip.spend(&deps.ip_limits, deps.clock.now()).await?;
    let provider = provider(&deps, app, &body.provider)?;
    let url = start_flow(&deps, app, &provider, &body).await?;
    Ok(Json(OAuthInitResponse { url }))
}

/// The provider's answer (query string; Apple POSTs a form).
#[derive(Debug, Deserialize)]
pub struct CallbackParams {
    /// The authorization code.
    pub code: Option<String>,
    /// Our state.
    pub state: Option<String>,
    /// The provider's refusal (`access_denied`, …).
    pub error: Option<String>,
}

/// `GET /oauth/callback`: sends the browser back to the app's page with the code.
pub async fn callback(
    State(deps): State<OAuthDeps>,
    params: Result<Query<CallbackParams>, QueryRejection>,
) -> Result<Response, AppError> {
    // A provider's malformed return is a 400 with a JSON body, like every other refusal.
    let Query(params) = params.map_err(|e| unreadable_callback(&e.body_text()))?;
    redirect_back(&deps, params).await
}

/// `POST /oauth/callback` (`response_mode=form_post`).
pub async fn callback_form(
    State(deps): State<OAuthDeps>,
    params: Result<Form<CallbackParams>, FormRejection>,
) -> Result<Response, AppError> {
    // Also a wrong content type: 400 rather than axum's bodiless 415.
    let Form(params) = params.map_err(|e| unreadable_callback(&e.body_text()))?;
    redirect_back(&deps, params).await
}

fn unreadable_callback(reason: &str) -> AppError {
    AppError::invalid_data(format!("Unreadable OAuth callback: {reason}"))
}

async fn redirect_back(deps: &OAuthDeps, params: CallbackParams) -> Result<Response, AppError> {
    let location = Callback::from(params).location(deps).await?;
    let location = HeaderValue::from_str(&location)
        .map_err(|_| AppError::invalid_data("Unusable redirect address"))?;
    let mut response = (StatusCode::FOUND, Json(serde_json::json!({}))).into_response();
    response.headers_mut().insert(header::LOCATION, location);
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response.headers_mut().insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    Ok(response)
}

/// Signs in (or up) with the provider's code and the client's verifier.
pub async fn authenticate(
    State(deps): State<OAuthDeps>,
    caller: LoginCaller,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<OAuthAuthenticateRequest>,
) -> Result<Response, AppError> {
    let app = &caller.ctx.app;
    let proof = Proof {
        code: &body.authorization_code,
        state_code: &body.state_code,
        verifier: &body.code_verifier,
        provider: &body.provider,
    };
    let (identity, tokens) = verify(&deps, app, proof, &client_ip).await?;
    let mode = body.mode.unwrap_or_default();
    let logged_in = accounts::login(
        &deps.login.accounts,
        app,
        &identity,
        mode,
        caller.current.as_ref(),
    )
    .await?;
    // The provider's code is single-use and bound to this flow's PKCE verifier: a fresh proof.
    let fresh_since = Some(deps.clock.now());
    start_session_with(
        &deps.login.sessions,
        &logged_in.user,
        logged_in.is_new_user,
        fresh_since,
        tokens,
    )
    .await
}

/// Links the provider account to the signed-in user.
pub async fn link(
    State(deps): State<OAuthDeps>,
    signed_in: SignedIn,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<OAuthLinkRequest>,
) -> Result<Json<User>, AppError> {
    let app = &signed_in.ctx.app;
    let proof = Proof {
        code: &body.authorization_code,
        state_code: &body.state_code,
        verifier: &body.code_verifier,
        provider: &body.provider,
    };
    let (identity, _) = verify(&deps, app, proof, &client_ip).await?;
    link_to(&deps.login, &signed_in, &identity).await
}

/// Unlinks the user's account at `provider` with this subject; never the last way in.
pub async fn unlink(
    State(deps): State<OAuthDeps>,
    signed_in: SignedIn,
    JsonBody(body): JsonBody<OAuthUnlinkRequest>,
) -> Result<Json<User>, AppError> {
    let account_type = account_type(&body.provider)?;
    accounts::unlink(
        &deps.login.accounts,
        &signed_in.user,
        &account_type,
        &body.subject,
    )
    .await?;
    current_user(&deps.login, &signed_in).await
}

/// Moves a provider account from its owner to the caller, with the nonce of
/// `account_transfer_required` (its `oauth_user_info` names the account).
pub async fn transfer(
    State(deps): State<OAuthDeps>,
    signed_in: SignedIn,
    JsonBody(body): JsonBody<OAuthTransferRequest>,
) -> Result<Json<User>, AppError> {
    let app = &signed_in.ctx.app;
    let account_type = account_type(&body.user_info.provider)?;
    accounts::transfer(
        &deps.login.accounts,
        app,
        &signed_in.user,
        &body.nonce,
        &account_type,
        &body.user_info.subject,
    )
    .await?;
    current_user(&deps.login, &signed_in).await
}

/// The linked-account type of a provider name (known providers only).
fn account_type(provider: &str) -> Result<String, AppError> {
    if built_in(provider).is_some() {
        Ok(format!("{provider}_oauth"))
    } else if provider.starts_with("custom:") {
        Ok(provider.to_string())
    } else if provider.starts_with(CROSS_APP_PREFIX) {
        Ok("cross_app".into())
    } else {
        Err(AppError::invalid_data("Unknown OAuth provider"))
    }
}

/// The provider as the app configures it, or `disallowed_login_method`.
fn provider(deps: &OAuthDeps, app: &AppRecord, name: &str) -> Result<Provider, AppError> {
    resolve(&app.settings, name, &deps.config.public_url, &app.id).map_err(|why| {
        let message = match why {
            Unavailable::Unknown => format!("Unknown OAuth provider {name:?}"),
            Unavailable::NotEnabled => accounts::messages::disallowed_oauth_provider(name),
        };
        AppError::new(ServerErrorCode::DisallowedLoginMethod, message)
    })
}

/// What authenticate and link present.
struct Proof<'a> {
    code: &'a str,
    state_code: &'a str,
    verifier: &'a str,
    provider: &'a str,
}

/// Consumes the flow, checks the client's verifier, exchanges the code and proves the user.
/// Answers the provider's tokens when the app asks for them (always for cross-app).
async fn verify(
    deps: &OAuthDeps,
    app: &AppRecord,
    proof: Proof<'_>,
    client_ip: &ClientIp,
) -> Result<(VerifiedIdentity, Option<OAuthTokens>), AppError> {
    client_ip.spend(&deps.ip_limits, deps.clock.now()).await?;
    let flow = take_flow(
        deps,
        app,
        proof.state_code,
        proof.verifier,
        proof.provider,
        proof.code,
    )
    .await?;
    let provider = provider(deps, app, proof.provider)?;
    let (identity, tokens) = identity::prove(deps, &provider, &flow, proof.code).await?;
    let tokens = (provider.always_return_tokens || app.settings.oauth.return_provider_tokens)
        .then_some(tokens);
    Ok((identity, tokens))
}
