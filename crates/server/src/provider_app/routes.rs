//! The provider's API: consent, token, user info, the signing page's context, and what apps
//! show about their connections.

use axum::Json;
use axum::extract::rejection::FormRejection;
use axum::extract::{Form, State};
use axum::http::HeaderMap;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::cross_app::{
    CrossAppConnection, CrossAppConnectionsResponse, CrossAppConsentRequest,
    CrossAppConsentResponse, CrossAppDetailsResponse, CrossAppTokenRequest, CrossAppTokenResponse,
    CrossAppTransactContext, CrossAppUserInfo, CrossAppWallet,
};
use symbolon_protocol::user::ChainType;
use url::Url;

use super::deps::ProviderAppDeps;
use super::{
    AuthorizeParams, CODE_TTL_S, TOKEN_TTL_S, check_request, listed, pkce_matches, provider_app,
};
use crate::db::apps::AppRecord;
use crate::db::cross_app::{CrossAppCode, CrossAppGrant};
use crate::digest::sha256_hex;
use crate::error::AppError;
use crate::random::random_token;
use crate::web::app_context::AppContext;
use crate::web::auth::bearer;
use crate::web::frame_caller::FrameCaller;
use crate::web::json_body::JsonBody;
use crate::web::path_param::PathParam;
use crate::web::routes::Access::{App, BackChannel, Frame, Public};
use crate::web::routes::Verb::{Get, Post};
use crate::web::routes::{Body, Mount, Route, Routes, json, r};

/// `POST /api/v1/apps/{app_id}/oauth/consent`: the consent page (server origin, the provider
/// app's access token) says its user allowed the requester; answers a single-use code.
pub async fn consent(
    State(deps): State<ProviderAppDeps>,
    PathParam(app_id): PathParam<String>,
    caller: FrameCaller,
    JsonBody(body): JsonBody<CrossAppConsentRequest>,
) -> Result<Json<CrossAppConsentResponse>, AppError> {
    if caller.app.id != app_id {
        return Err(AppError::invalid_token(
            "The access token is not for this provider app",
        ));
    }
    let params = AuthorizeParams {
        client_id: &body.client_id,
        redirect_uri: &body.redirect_uri,
        code_challenge: &body.code_challenge,
        code_challenge_method: &body.code_challenge_method,
    };
    let checked = check_request(&deps, &app_id, &params).await?;
    let code = random_token()?;
    let now = deps.clock.now();
    let record = CrossAppCode {
        grant: CrossAppGrant {
            provider_app_id: checked.provider.id,
            client_app_id: checked.client.id,
            user_id: caller.user.id,
            expires_at: now + CODE_TTL_S,
        },
        redirect_uri: body.redirect_uri.clone(),
        code_challenge: body.code_challenge.clone(),
    };
    deps.db
        .insert_cross_app_code(&sha256_hex(code.as_bytes()), &record, now)
        .await?;
    let mut redirect = Url::parse(&body.redirect_uri)
        .map_err(|_| AppError::invalid_data("redirect_uri is not allowed"))?;
    redirect.query_pairs_mut().append_pair("code", &code);
    if let Some(s) = &body.state {
        redirect.query_pairs_mut().append_pair("state", s);
    }
    Ok(Json(CrossAppConsentResponse {
        code,
        redirect_to: redirect.into(),
    }))
}

/// The refusal of every code that cannot be exchanged (unknown, used, expired, another
/// client's or redirect's): one message, so a caller learns nothing about other codes.
fn invalid_code() -> AppError {
    AppError::new(
        ServerErrorCode::InvalidCredentials,
        "Invalid or expired authorization code",
    )
}

/// `POST /api/v1/apps/{app_id}/oauth/token` (form): exchanges a code for a provider token.
pub async fn token(
    State(deps): State<ProviderAppDeps>,
    PathParam(app_id): PathParam<String>,
    form: Result<Form<CrossAppTokenRequest>, FormRejection>,
) -> Result<Json<CrossAppTokenResponse>, AppError> {
    let Form(body) = form.map_err(|e| AppError::invalid_data(e.body_text()))?;
    if body.grant_type != "authorization_code" {
        return Err(AppError::invalid_data(
            "grant_type must be authorization_code",
        ));
    }
    let now = deps.clock.now();
    let code = deps
        .db
        .take_cross_app_code(&sha256_hex(body.code.as_bytes()), &app_id, now)
        .await?
        .ok_or_else(invalid_code)?;
    if code.grant.client_app_id != body.client_id || code.redirect_uri != body.redirect_uri {
        return Err(invalid_code());
    }
    if !pkce_matches(&body.code_verifier, &code.code_challenge) {
        return Err(AppError::new(
            ServerErrorCode::InvalidPkceParameters,
            "code_verifier does not match the code_challenge",
        ));
    }
    let access_token = random_token()?;
    let grant = CrossAppGrant {
        expires_at: now + TOKEN_TTL_S,
        ..code.grant
    };
    deps.db
        .insert_cross_app_token(&sha256_hex(access_token.as_bytes()), &grant)
        .await?;
    Ok(Json(CrossAppTokenResponse {
        access_token,
        token_type: "Bearer".into(),
        expires_in: TOKEN_TTL_S.unsigned_abs(),
    }))
}

/// The live grant of the request's Bearer provider token.
async fn provider_grant(
    deps: &ProviderAppDeps,
    headers: &HeaderMap,
) -> Result<CrossAppGrant, AppError> {
    let token = bearer(headers).ok_or_else(|| AppError::invalid_token("Missing access token"))?;
    deps.db
        .find_cross_app_token(&sha256_hex(token.as_bytes()), deps.clock.now())
        .await?
        .ok_or_else(|| AppError::invalid_token("Invalid or expired provider token"))
}

/// The user's embedded Ethereum wallets on the provider app.
async fn wallets_of(
    deps: &ProviderAppDeps,
    user_id: &str,
) -> Result<Vec<CrossAppWallet>, AppError> {
    Ok(deps
        .db
        .embedded_wallets(user_id, ChainType::Ethereum.as_str())
        .await?
        .into_iter()
        .map(|w| CrossAppWallet { address: w.address })
        .collect())
}

/// `GET /api/v1/apps/{app_id}/oauth/userinfo` (Bearer provider token).
pub async fn userinfo(
    State(deps): State<ProviderAppDeps>,
    PathParam(app_id): PathParam<String>,
    headers: HeaderMap,
) -> Result<Json<CrossAppUserInfo>, AppError> {
    let grant = provider_grant(&deps, &headers).await?;
    if grant.provider_app_id != app_id {
        return Err(AppError::invalid_token("Invalid or expired provider token"));
    }
    Ok(Json(CrossAppUserInfo {
        embedded_wallets: wallets_of(&deps, &grant.user_id).await?,
        smart_wallets: Vec::new(),
        sub: grant.user_id,
    }))
}

/// `GET /api/v1/cross-app/transact` (Bearer provider token): what the signing page needs to
/// check a request and where it may post the answer.
pub async fn transact_context(
    State(deps): State<ProviderAppDeps>,
    headers: HeaderMap,
) -> Result<Json<CrossAppTransactContext>, AppError> {
    let grant = provider_grant(&deps, &headers).await?;
    let provider = provider_app(&deps, &grant.provider_app_id).await?;
    let requester = deps
        .db
        .find_app(&grant.client_app_id)
        .await?
        .ok_or_else(|| AppError::invalid_token("Invalid or expired provider token"))?;
    // A provider the requester no longer lists is treated as read-only: no signatures.
    let read_only = listed(&requester, &provider.id).unwrap_or(true);
    Ok(Json(CrossAppTransactContext {
        embedded_wallets: wallets_of(&deps, &grant.user_id).await?,
        provider_app_id: provider.id,
        provider_app_name: provider.name,
        requester_app_id: requester.id,
        requester_app_name: requester.name,
        requester_origins: requester.allowed_origins,
        user_id: grant.user_id,
        read_only,
    }))
}

/// `GET /api/v1/apps/{app_id}/cross-app/connections`: the providers the app lists that exist
/// and allow it, in the listed order.
pub async fn connections(
    State(deps): State<ProviderAppDeps>,
    _ctx: AppContext,
    PathParam(app_id): PathParam<String>,
) -> Result<Json<CrossAppConnectionsResponse>, AppError> {
    let app = deps
        .db
        .find_app(&app_id)
        .await?
        .ok_or_else(|| AppError::new(ServerErrorCode::NotFound, "Unknown app"))?;
    let mut connections = Vec::new();
    for listed in &app.settings.cross_app.providers {
        let Ok(provider) = provider_app(&deps, &listed.app_id).await else {
            continue;
        };
        connections.push(CrossAppConnection {
            provider_app_id: provider.id,
            provider_app_name: provider.name,
            provider_app_icon_url: None,
            provider_app_custom_api_url: None,
            read_only: listed.read_only,
            provider_app_custom_auth_authorize_url: None,
            provider_app_custom_auth_transact_url: None,
        });
    }
    Ok(Json(CrossAppConnectionsResponse { connections }))
}

/// `GET /api/v1/apps/{app_id}/cross-app/details`: the app as a provider.
pub async fn details(
    State(deps): State<ProviderAppDeps>,
    _ctx: AppContext,
    PathParam(app_id): PathParam<String>,
) -> Result<Json<CrossAppDetailsResponse>, AppError> {
    let app: AppRecord = deps
        .db
        .find_app(&app_id)
        .await?
        .ok_or_else(|| AppError::new(ServerErrorCode::NotFound, "Unknown app"))?;
    Ok(Json(CrossAppDetailsResponse {
        allow_as_provider: app.settings.cross_app.allow_as_provider,
        id: app.id,
        name: app.name,
        icon_url: None,
        custom_api_url: None,
        custom_auth_authorize_url: None,
        custom_auth_transact_url: None,
    }))
}

/// Cross-app (this server as a provider app): every route, one line each (the OpenAPI document is built from these), and how
/// they are mounted. [`Mount`] refuses a route missing from the table.
pub const ROUTES: Routes = Routes {
    table: TABLE,
    mount,
};

#[rustfmt::skip]
const TABLE: &[Route] = &[
    r(Get, "/api/v1/apps/{app_id}/cross-app/connections", "The provider apps the app's users may sign in with", None, Body::Json(json::<CrossAppConnectionsResponse>), App, &[404]),
    r(Get, "/api/v1/apps/{app_id}/cross-app/details", "The app as a cross-app provider", None, Body::Json(json::<CrossAppDetailsResponse>), App, &[404]),
    r(Get, "/apps/{app_id}/oauth/authorize", "Cross-app consent page (OAuth 2.0 authorization endpoint, PKCE S256)", None, Body::Html, Public, &[400]),
    r(Get, "/oauth/transact", "Cross-app signing page", None, Body::Html, Public, &[]),
    r(Get, "/cross-app/assets/{file}", "A cross-app page asset", None, Body::Asset, Public, &[400, 404]),
    r(Post, "/api/v1/apps/{app_id}/oauth/consent", "The consent page's allow: a single-use authorization code", Some(json::<CrossAppConsentRequest>), Body::Json(json::<CrossAppConsentResponse>), Frame, &[404]),
    r(Post, "/api/v1/apps/{app_id}/oauth/token", "Exchange an authorization code (form-encoded CrossAppTokenRequest, PKCE) for a provider token", None, Body::Json(json::<CrossAppTokenResponse>), BackChannel, &[400, 401]),
    r(Get, "/api/v1/apps/{app_id}/oauth/userinfo", "The provider app's user of a Bearer provider token", None, Body::Json(json::<CrossAppUserInfo>), BackChannel, &[401]),
    r(Get, "/api/v1/cross-app/transact", "What a Bearer provider token allows the signing page", None, Body::Json(json::<CrossAppTransactContext>), BackChannel, &[401, 403]),
];

fn mount(routes: Mount) -> Mount {
    routes
        .get("/api/v1/apps/{app_id}/cross-app/connections", connections)
        .get("/api/v1/apps/{app_id}/cross-app/details", details)
        .get("/apps/{app_id}/oauth/authorize", super::page::authorize)
        .get("/oauth/transact", super::page::transact)
        .get("/cross-app/assets/{file}", super::page::asset)
        .post("/api/v1/apps/{app_id}/oauth/consent", consent)
        .post("/api/v1/apps/{app_id}/oauth/token", token)
        .get("/api/v1/apps/{app_id}/oauth/userinfo", userinfo)
        .get("/api/v1/cross-app/transact", transact_context)
}
