//! The delegation routes: their table and thin handlers.

use axum::Json;
use axum::extract::State;
use symbolon_protocol::delegation::{
    DelegateWalletRequest, DelegateWalletResponse, DelegationTerms, DelegationTermsRequest,
    RevokeDelegationResponse,
};

use super::deps::DelegationDeps;
use super::service;
use crate::db::users::UserRecord;
use crate::error::AppError;
use crate::web::auth::Authenticated;
use crate::web::frame_caller::FrameCaller;
use crate::web::json_body::JsonBody;
use crate::web::routes::Access::{Frame, UserOrigin};
use crate::web::routes::Verb::Post;
use crate::web::routes::{Body, Mount, Route, Routes, json, r};

async fn signed_in_user(
    deps: &DelegationDeps,
    auth: &Authenticated,
) -> Result<UserRecord, AppError> {
    deps.db
        .find_user(&auth.ctx.app.id, &auth.claims.sub)
        .await?
        .ok_or_else(|| AppError::invalid_token("Session is no longer valid"))
}

/// `POST /api/v1/delegated_actions/terms` from the app's page (its consent screen).
async fn terms_for_page(
    State(deps): State<DelegationDeps>,
    auth: Authenticated,
    JsonBody(body): JsonBody<DelegationTermsRequest>,
) -> Result<Json<DelegationTerms>, AppError> {
    let user = signed_in_user(&deps, &auth).await?;
    Ok(Json(
        service::terms(&deps, &auth.ctx.app, &user, &body).await?,
    ))
}

/// `POST /api/v1/embedded_wallets/delegation/terms` from the wallet frame (what it seals).
async fn terms_for_frame(
    State(deps): State<DelegationDeps>,
    caller: FrameCaller,
    JsonBody(body): JsonBody<DelegationTermsRequest>,
) -> Result<Json<DelegationTerms>, AppError> {
    Ok(Json(
        service::terms(&deps, &caller.app, &caller.user, &body).await?,
    ))
}

/// `POST /api/v1/delegated_actions` from the wallet frame: a sealed consent.
async fn delegate(
    State(deps): State<DelegationDeps>,
    caller: FrameCaller,
    JsonBody(body): JsonBody<DelegateWalletRequest>,
) -> Result<Json<DelegateWalletResponse>, AppError> {
    Ok(Json(service::delegate(&deps, &caller, &body).await?))
}

/// `POST /api/v1/wallets/revoke` (the published client posts `{}`).
async fn revoke(
    State(deps): State<DelegationDeps>,
    auth: Authenticated,
) -> Result<Json<RevokeDelegationResponse>, AppError> {
    let user = signed_in_user(&deps, &auth).await?;
    Ok(Json(service::revoke(&deps, &auth.ctx.app, &user).await?))
}

/// Delegation: every route, one line each, and how they are mounted.
pub const ROUTES: Routes = Routes {
    table: TABLE,
    mount,
};

const TERMS: Body = Body::Json(json::<DelegationTerms>);

#[rustfmt::skip]
const TABLE: &[Route] = &[
    r(Post, "/api/v1/delegated_actions/terms", "What delegating a wallet would let the app's signers do (the consent screen)", Some(json::<DelegationTermsRequest>), TERMS, UserOrigin, &[]),
    r(Post, "/api/v1/embedded_wallets/delegation/terms", "The terms the wallet frame seals a consent with", Some(json::<DelegationTermsRequest>), TERMS, Frame, &[]),
    r(Post, "/api/v1/delegated_actions", "Store the consent the wallet frame sealed to the signer", Some(json::<DelegateWalletRequest>), Body::Json(json::<DelegateWalletResponse>), Frame, &[]),
    r(Post, "/api/v1/wallets/revoke", "Revoke every delegated wallet of the user", None, Body::Json(json::<RevokeDelegationResponse>), UserOrigin, &[]),
];

fn mount(routes: Mount) -> Mount {
    routes
        .post("/api/v1/delegated_actions/terms", terms_for_page)
        .post("/api/v1/embedded_wallets/delegation/terms", terms_for_frame)
        .post("/api/v1/delegated_actions", delegate)
        .post("/api/v1/wallets/revoke", revoke)
}
