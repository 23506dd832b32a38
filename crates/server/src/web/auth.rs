//! The signed-in caller: a verified Bearer access token whose session is live.

use axum::extract::FromRequestParts;
use axum::http::HeaderMap;
use axum::http::request::Parts;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::session::AccessTokenClaims;

use super::app_context::{AppContext, header};
use crate::clock::Clock;
use crate::db::Db;
use crate::error::{AppError, Status};
use crate::state::AppState;
use crate::tokens::VerifyError;

/// Link, unlink, update and transfer (and registering the root wallet, and the recovery share)
/// need a session whose sign-in was freshly proven this recently ([`crate::accounts::Proof`]): otherwise a stolen
/// access token could add the thief's own way in, and a fresh sign-in through it would get what
/// only a fresh sign-in gets (the wallet's recovery share).
pub const ACCOUNT_CHANGE_WINDOW_S: i64 = 600;

/// An authenticated request.
#[derive(Debug, Clone)]
pub struct Authenticated {
    /// The app context.
    pub ctx: AppContext,
    /// The verified claims.
    pub claims: AccessTokenClaims,
}

/// The Bearer token of the request, if any.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = header(headers, "authorization")?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

/// Verifies `token` for `app_id` (signature, iss, aud, exp) and that its session is live.
pub async fn verify_session_token(
    state: &AppState,
    token: &str,
    app_id: &str,
) -> Result<AccessTokenClaims, AppError> {
    let now = state.clock.now();
    let claims = state
        .tokens
        .verify_access_token(token, app_id, now, true)
        .map_err(|e| match e {
            VerifyError::Expired => AppError::invalid_token("Access token expired"),
            VerifyError::Invalid(reason) => {
                tracing::debug!(%reason, "access token refused");
                AppError::invalid_token("Invalid access token")
            }
        })?;
    let session = state.db.find_session(&claims.sid).await?;
    match session {
        Some(s) if s.revoked_at.is_none() && s.app_id == app_id && s.user_id == claims.sub => {
            Ok(claims)
        }
        _ => Err(AppError::invalid_token("Session is no longer valid")),
    }
}

impl FromRequestParts<AppState> for Authenticated {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let ctx = AppContext::from_request_parts(parts, state).await?;
        let token = bearer(&parts.headers)
            .ok_or_else(|| AppError::invalid_token("Missing access token"))?;
        let claims = verify_session_token(state, token, &ctx.app.id).await?;
        Ok(Self { ctx, claims })
    }
}

/// The signed-in user of a valid access token whose session signed in within
/// [`ACCOUNT_CHANGE_WINDOW_S`] (link, unlink, update, transfer); an older session must sign in
/// again (403 `missing_or_invalid_mfa`, like the wallet's recovery step-up).
///
#[derive(Debug, Clone)]
pub struct SignedIn {
    /// The app and origin.
    pub ctx: AppContext,
    /// The user.
    pub user: crate::db::users::UserRecord,
}

impl FromRequestParts<AppState> for SignedIn {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let Authenticated { ctx, claims } = Authenticated::from_request_parts(parts, state).await?;
        let user = state
            .db
            .find_user(&ctx.app.id, &claims.sub)
            .await?
            .ok_or_else(|| AppError::invalid_token("Session is no longer valid"))?;
        require_recent_sign_in(&state.db, &state.clock, &claims.sid).await?;
        Ok(Self { ctx, user })
    }
}

/// Refuses an account change by a session whose sign-in was not freshly proven within
/// [`ACCOUNT_CHANGE_WINDOW_S`] (a replayable proof never is, `accounts::Proof`): 403
/// `missing_or_invalid_mfa`, like the wallet's recovery step-up.
///
pub async fn require_recent_sign_in(
    db: &Db,
    clock: &Clock,
    session_id: &str,
) -> Result<(), AppError> {
    if !recently_signed_in(db, clock, session_id).await? {
        return Err(AppError::new(
            ServerErrorCode::MissingOrInvalidMfa,
            "Sign in again to change the accounts you sign in with",
        )
        .with_status(Status::Forbidden));
    }
    Ok(())
}

/// Whether the session's sign-in was freshly proven within [`ACCOUNT_CHANGE_WINDOW_S`].
///
pub async fn recently_signed_in(
    db: &Db,
    clock: &Clock,
    session_id: &str,
) -> Result<bool, AppError> {
    let fresh_since = db.session_fresh_since(session_id).await?;
    let window = ACCOUNT_CHANGE_WINDOW_S;
    Ok(fresh_since.is_some_and(|at| clock.now() - at <= window))
}

/// A login call: the app, and the user of the bearer token when one is sent and still valid (a
/// guest who logs in with a real method keeps their user). A stale token is ignored, never an
/// error: it must not stop anyone from signing in.
#[derive(Debug, Clone)]
pub struct LoginCaller {
    /// The app and origin.
    pub ctx: AppContext,
    /// The signed-in user, if any.
    pub current: Option<crate::db::users::UserRecord>,
}

impl FromRequestParts<AppState> for LoginCaller {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let ctx = AppContext::from_request_parts(parts, state).await?;
        let mut current = None;
        if let Some(token) = bearer(&parts.headers)
            && let Ok(claims) = verify_session_token(state, token, &ctx.app.id).await
        {
            current = state.db.find_user(&ctx.app.id, &claims.sub).await?;
        }
        Ok(Self { ctx, current })
    }
}
