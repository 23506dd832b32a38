//! Email codes: `POST /passwordless/{init, authenticate, link, unlink, update, transfer}`.
//!
//! The shape every login method copies: the routes check the request and prove an identity
//! (here: a code sent to the address), then hand it to the account rules (`crate::accounts`).

pub mod address;

use axum::Json;
use axum::extract::State;
use axum::response::Response;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::accounts::{
    EmailTransferRequest, PasswordlessLinkRequest, PasswordlessUnlinkRequest,
    PasswordlessUpdateRequest,
};
use symbolon_protocol::session::{
    PasswordlessAuthenticateRequest, PasswordlessInitRequest, SuccessResponse,
};
use symbolon_protocol::user::User;

use self::address::{is_plus_address, normalize_email};
use super::code::{issue_code, redeem_code};
use crate::accounts::{self, LoginMethod, VerifiedIdentity};
use crate::db::apps::AppRecord;
use crate::db::otp::OtpKey;
use crate::http::auth::{LoginCaller, SignedIn};
use crate::http::client_ip::ClientIp;
use crate::http::error::AppError;
use crate::http::json_body::JsonBody;
use crate::http::session_issue::start_session;
use crate::http::user_view::user_view;
use crate::mail::login_code_email;
use crate::state::AppState;

/// The linked-account type and the code channel.
pub const EMAIL: &str = "email";

/// Sends a code to the address (login, link and update all start here).
pub async fn init(
    State(state): State<AppState>,
    caller: LoginCaller,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<PasswordlessInitRequest>,
) -> Result<Json<SuccessResponse>, AppError> {
    let app = &caller.ctx.app;
    caller.ctx.require_origin()?;
    accounts::require_method(app, LoginMethod::Email)?;
    let email = checked_email(app, &body.email)?;
    let code = issue_code(&state, key(&app.id, &email), &client_ip).await?;
    state
        .mailer
        .send(login_code_email(&email, &code, &app.name))
        .await?;
    tracing::info!(app = %app.id, "login code sent");
    Ok(Json(SuccessResponse { success: true }))
}

/// Signs in (or up) with the emailed code.
pub async fn authenticate(
    State(state): State<AppState>,
    caller: LoginCaller,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<PasswordlessAuthenticateRequest>,
) -> Result<Response, AppError> {
    caller.ctx.require_origin()?;
    let app = &caller.ctx.app;
    let identity = verify(&state, app, &body.email, &body.code, &client_ip).await?;
    let mode = body.mode.unwrap_or_default();
    let logged_in = accounts::login(&state, app, &identity, mode, caller.current.as_ref()).await?;
    start_session(&state, &logged_in.user, logged_in.is_new_user).await
}

/// Links the address to the signed-in user.
pub async fn link(
    State(state): State<AppState>,
    signed_in: SignedIn,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<PasswordlessLinkRequest>,
) -> Result<Json<User>, AppError> {
    signed_in.ctx.require_origin()?;
    let app = &signed_in.ctx.app;
    let identity = verify(&state, app, &body.email, &body.code, &client_ip).await?;
    accounts::link(&state, app, &signed_in.user, &identity).await?;
    Ok(Json(user_view(&state, &signed_in.user).await?))
}

/// Unlinks the address; never the user's last way in.
pub async fn unlink(
    State(state): State<AppState>,
    signed_in: SignedIn,
    JsonBody(body): JsonBody<PasswordlessUnlinkRequest>,
) -> Result<Json<User>, AppError> {
    signed_in.ctx.require_origin()?;
    let email = normalize_email(&body.address)?;
    accounts::unlink(&state, &signed_in.user, EMAIL, &email).await?;
    Ok(Json(user_view(&state, &signed_in.user).await?))
}

/// Replaces the user's address by a new one proven with a code sent to it.
pub async fn update(
    State(state): State<AppState>,
    signed_in: SignedIn,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<PasswordlessUpdateRequest>,
) -> Result<Json<User>, AppError> {
    signed_in.ctx.require_origin()?;
    let app = &signed_in.ctx.app;
    let old = normalize_email(&body.old_address)?;
    let identity = verify(&state, app, &body.new_address, &body.code, &client_ip).await?;
    accounts::update(&state, app, &signed_in.user, &old, &identity).await?;
    Ok(Json(user_view(&state, &signed_in.user).await?))
}

/// Moves the address from its owner to the caller, with the nonce of `account_transfer_required`.
pub async fn transfer(
    State(state): State<AppState>,
    signed_in: SignedIn,
    JsonBody(body): JsonBody<EmailTransferRequest>,
) -> Result<Json<User>, AppError> {
    signed_in.ctx.require_origin()?;
    let email = normalize_email(&body.email)?;
    let app = &signed_in.ctx.app;
    accounts::transfer(&state, app, &signed_in.user, &body.nonce, EMAIL, &email).await?;
    Ok(Json(user_view(&state, &signed_in.user).await?))
}

/// The address, normalised, if the app accepts it.
fn checked_email(app: &AppRecord, raw: &str) -> Result<String, AppError> {
    let email = normalize_email(raw)?;
    if app.disable_plus_emails && is_plus_address(&email) {
        return Err(AppError::new(
            ServerErrorCode::DisallowedPlusEmail,
            "Please enter a valid email address without a '+'.",
        ));
    }
    Ok(email)
}

/// Redeems the code sent to `raw` and proves the address.
async fn verify(
    state: &AppState,
    app: &AppRecord,
    raw: &str,
    code: &str,
    client_ip: &ClientIp,
) -> Result<VerifiedIdentity, AppError> {
    let email = normalize_email(raw)?;
    redeem_code(state, key(&app.id, &email), code, client_ip).await?;
    Ok(VerifiedIdentity::new(LoginMethod::Email, EMAIL, email))
}

fn key<'a>(app_id: &'a str, email: &'a str) -> OtpKey<'a> {
    OtpKey {
        app_id,
        channel: EMAIL,
        subject: email,
    }
}
