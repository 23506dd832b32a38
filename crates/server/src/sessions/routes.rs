//! `POST /sessions` (refresh with rotation) and `POST /sessions/logout`.
//!
//! Rotation: each refresh marks the presented token rotated and answers with its one child (an
//! HMAC of the token, see `tokens::refresh`). A rotated token presented again within
//! `REFRESH_REUSE_GRACE_S` gets that same child (two tabs refreshing at once end up on one
//! chain, and a replay inside the window forks nothing: whichever holder rotates the child
//! first makes the other's later use a reuse); later, it is treated as stolen and the whole
//! session is revoked.

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use symbolon_protocol::constants::REFRESH_REUSE_GRACE_S;
use symbolon_protocol::session::{RefreshSessionRequest, SuccessResponse};

use super::deps::SessionDeps;
use crate::error::AppError;
use crate::sessions::issue::{marker_cookie, session_response};
use crate::tokens::refresh::{child_refresh_token, hash_refresh_token};
use crate::users::view::wire_user;
use crate::web::app_context::AppContext;
use crate::web::auth::bearer;
use crate::web::json_body::JsonBody;
use crate::web::raw_body::RawBody;
use crate::web::routes::Access::AppOrigin;
use crate::web::routes::Verb::Post;
use crate::web::routes::{Body, Mount, Route, Routes, json, r};
use symbolon_protocol::session::SessionResponse;

/// Exchanges a refresh token for new tokens. An `Authorization` header, possibly expired, is ignored.
///
/// The hot path is one read (token, session, user and accounts joined) and one atomic write
/// (rotate the parent, store the child).
pub async fn refresh(
    State(SessionDeps {
        issuer,
        refresh_rotation_key,
    }): State<SessionDeps>,
    ctx: AppContext,
    JsonBody(body): JsonBody<RefreshSessionRequest>,
) -> Result<Response, AppError> {
    let now = issuer.clock.now();
    let presented = body.refresh_token.trim();
    let hash = hash_refresh_token(presented);
    let invalid = || AppError::invalid_token("Invalid refresh token");
    let found = issuer
        .db
        .find_refresh_context(&hash)
        .await?
        .ok_or_else(invalid)?;
    let session = &found.session;
    if session.revoked_at.is_some() || session.expires_at <= now || session.app_id != ctx.app.id {
        return Err(invalid());
    }
    let user = found.user.as_ref().ok_or_else(invalid)?;
    let grace = |rotated_at: i64| now - rotated_at <= REFRESH_REUSE_GRACE_S as i64;
    let (child, child_hash) = child_refresh_token(&refresh_rotation_key, presented);
    let rotated_at = match found.token.rotated_at {
        // Rotated long ago: a stolen token, or a very late replay. No write, no child.
        Some(at) if !grace(at) => None,
        _ => {
            issuer
                .db
                .rotate_refresh_token(&hash, &child_hash, &session.id, now)
                .await?
        }
    };
    if rotated_at.is_some_and(grace) {
        let mut wire_user = wire_user(user, found.accounts.clone());
        wire_user.mfa_methods = crate::users::view::mfa_methods(&issuer.db, &user.id).await?;
        return session_response(
            &issuer,
            &session.app_id,
            wire_user,
            &session.id,
            child,
            false,
        );
    }
    issuer.db.revoke_session(&session.id, now).await?;
    tracing::warn!(session = %session.id, "refresh token reuse detected; session revoked");
    Err(AppError::invalid_token(
        "Refresh token was already used; the session is revoked",
    ))
}

/// Logout body: the refresh token is optional so a bearer-only logout works too.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
pub struct LogoutBody {
    /// The session's refresh token.
    #[serde(default)]
    pub refresh_token: Option<String>,
}

/// Revokes the session named by the refresh token or, failing that, by the bearer token's `sid`.
/// Answers success even when nothing matched, so logging out is idempotent.
pub async fn logout(
    State(SessionDeps { issuer, .. }): State<SessionDeps>,
    ctx: AppContext,
    headers: HeaderMap,
    RawBody(body): RawBody,
) -> Result<Response, AppError> {
    let now = issuer.clock.now();
    let body: LogoutBody = if body.is_empty() {
        LogoutBody::default()
    } else {
        serde_json::from_slice(&body)
            .map_err(|e| AppError::invalid_data(format!("Invalid logout body: {e}")))?
    };
    let mut session_id = None;
    if let Some(token) = body.refresh_token.as_deref().filter(|t| !t.is_empty())
        && let Some(record) = issuer
            .db
            .find_refresh_token(&hash_refresh_token(token.trim()))
            .await?
    {
        session_id = Some(record.session_id);
    }
    if session_id.is_none()
        && let Some(token) = bearer(&headers)
        && let Ok(claims) = issuer
            .tokens
            .verify_access_token(token, &ctx.app.id, now, false)
    {
        session_id = Some(claims.sid);
    }
    if let Some(id) = session_id
        && let Some(session) = issuer.db.find_session(&id).await?
        && session.app_id == ctx.app.id
    {
        issuer.db.revoke_session(&session.id, now).await?;
        tracing::info!(session = %session.id, "session logged out");
    }
    let mut response = Json(SuccessResponse { success: true }).into_response();
    response
        .headers_mut()
        .append(header::SET_COOKIE, marker_cookie(&issuer, false));
    Ok(response)
}

/// Sessions: every route, one line each (the OpenAPI document is built from these), and how
/// they are mounted. [`Mount`] refuses a route missing from the table.
pub const ROUTES: Routes = Routes {
    table: TABLE,
    mount,
};

#[rustfmt::skip]
const TABLE: &[Route] = &[
    r(Post, "/api/v1/sessions", "Refresh a session (rotates the refresh token)", Some(json::<RefreshSessionRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 409]),
    r(Post, "/api/v1/sessions/logout", "Log out: by refresh token, else by the bearer token's session (body optional)", Some(json::<LogoutBody>), Body::Json(json::<SuccessResponse>), AppOrigin, &[409]),
];

fn mount(routes: Mount) -> Mount {
    routes
        .post("/api/v1/sessions", refresh)
        .post("/api/v1/sessions/logout", logout)
}
