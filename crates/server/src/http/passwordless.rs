//! `POST /passwordless/init` and `/passwordless/authenticate`: email-code login.

use std::net::SocketAddr;

use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::Extensions;
use axum::response::Response;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::{OTP_MAX_ATTEMPTS, OTP_TTL_S};
use symbolon_protocol::session::{
    AuthMode, PasswordlessAuthenticateRequest, PasswordlessInitRequest, SuccessResponse,
};

use super::app_context::AppContext;
use super::email::{is_plus_address, normalize_email};
use super::error::AppError;
use super::json_body::JsonBody;
use super::session_issue::start_session;
use crate::db::DbError;
use crate::db::users::UserRecord;
use crate::mail::login_code_email;
use crate::otp::generate_code;
use crate::random::random_id;
use crate::state::AppState;

const EMAIL: &str = "email";

/// Sends a fresh code, replacing any pending one. Rate-limited per client IP and per address.
pub async fn init(
    State(state): State<AppState>,
    ctx: AppContext,
    extensions: Extensions,
    JsonBody(body): JsonBody<PasswordlessInitRequest>,
) -> Result<Json<SuccessResponse>, AppError> {
    ctx.require_origin()?;
    let email = normalize_email(&body.email)?;
    if ctx.app.disable_plus_emails && is_plus_address(&email) {
        return Err(AppError::new(
            ServerErrorCode::DisallowedPlusEmail,
            "Please enter a valid email address without a '+'.",
        ));
    }
    let now = state.clock.now();
    let ip = extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map_or_else(|| "unknown".into(), |c| c.0.ip().to_string());
    state
        .ip_limiter
        .hit(&ip, now)
        .map_err(|r| AppError::rate_limited(r.0))?;
    let email_key = format!("{}\0{email}", ctx.app.id);
    state
        .email_limiter
        .hit(&email_key, now)
        .map_err(|r| AppError::rate_limited(r.0))?;

    let code = generate_code()?;
    let hash = state.otp_secret.hash(&ctx.app.id, &email, &code);
    state
        .db
        .replace_otp(&ctx.app.id, &email, &hash, now, now + OTP_TTL_S as i64)
        .await?;
    state
        .mailer
        .send(login_code_email(&email, &code, &ctx.app.name))
        .await?;
    tracing::info!(app = %ctx.app.id, "login code sent");
    Ok(Json(SuccessResponse { success: true }))
}

/// Checks the code (single use, 10 minutes, 5 wrong tries) and signs the user in or up.
pub async fn authenticate(
    State(state): State<AppState>,
    ctx: AppContext,
    JsonBody(body): JsonBody<PasswordlessAuthenticateRequest>,
) -> Result<Response, AppError> {
    ctx.require_origin()?;
    let email = normalize_email(&body.email)?;
    let code = body.code.trim();
    let app_id = ctx.app.id.as_str();
    let now = state.clock.now();
    let refused = || {
        AppError::new(
            ServerErrorCode::InvalidCredentials,
            "Invalid or expired verification code",
        )
    };

    let pending = state
        .db
        .find_otp(app_id, &email)
        .await?
        .ok_or_else(refused)?;
    // A dead code stays dead even for the right guess: the attempt cap must not leak the code.
    if pending.expires_at <= now || pending.attempts >= i64::from(OTP_MAX_ATTEMPTS) {
        return Err(refused());
    }
    if !state
        .otp_secret
        .matches(app_id, &email, code, &pending.code_hash)
    {
        state.db.record_otp_failure(app_id, &email).await?;
        return Err(refused());
    }
    if !state
        .db
        .consume_otp(app_id, &email, &pending.code_hash)
        .await?
    {
        return Err(refused());
    }

    if let Some(user) = state.db.find_user_by_account(app_id, EMAIL, &email).await? {
        state.db.touch_account(app_id, EMAIL, &email, now).await?;
        return start_session(&state, &user, false).await;
    }
    if body.mode == Some(AuthMode::NoSignup) {
        return Err(AppError::new(
            ServerErrorCode::UserDoesNotExist,
            "No user exists with this email",
        ));
    }
    let user = UserRecord {
        id: format!("did:privy:{}", random_id(25)?),
        app_id: app_id.into(),
        created_at: now,
        has_accepted_terms: false,
        is_guest: false,
    };
    match state
        .db
        .create_user_with_account(&user, &random_id(25)?, EMAIL, &email)
        .await
    {
        Ok(()) => start_session(&state, &user, true).await,
        // Another request signed this address up first: sign in to that user instead.
        Err(DbError::Conflict) => {
            let user = state
                .db
                .find_user_by_account(app_id, EMAIL, &email)
                .await?
                .ok_or_else(refused)?;
            start_session(&state, &user, false).await
        }
        Err(other) => Err(other.into()),
    }
}
