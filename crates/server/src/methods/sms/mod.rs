//! SMS codes: `POST /passwordless_sms/{init, authenticate, link, unlink, update, transfer}`.
//!
//! The same code rules as email (`super::code`) on the channel `sms`; numbers are normalised
//! to E.164 by a phone-number library before anything is stored or sent, and the app may limit
//! the regions it texts (`sms.allowed_regions`), which bounds what SMS pumping can cost.

use axum::Json;
use axum::extract::State;
use axum::response::Response;
use symbolon_protocol::accounts::{
    SmsAuthenticateRequest, SmsInitRequest, SmsLinkRequest, SmsTransferRequest, SmsUnlinkRequest,
    SmsUpdateRequest,
};
use symbolon_protocol::session::SuccessResponse;
use symbolon_protocol::user::User;

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
use crate::sms::login_code_sms;
use crate::sms::{PhoneError, normalize_phone};
use crate::state::AppState;

/// The linked-account type.
pub const PHONE: &str = "phone";
/// The code channel.
pub const SMS: &str = "sms";

/// Texts a code to the number (login, link and update all start here).
pub async fn init(
    State(state): State<AppState>,
    caller: LoginCaller,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<SmsInitRequest>,
) -> Result<Json<SuccessResponse>, AppError> {
    caller.ctx.require_origin()?;
    let app = &caller.ctx.app;
    accounts::require_method(app, LoginMethod::Sms)?;
    let number = phone_number(app, &body.phone_number)?;
    let code = issue_code(&state, key(&app.id, &number), &client_ip).await?;
    state
        .sms
        .send(&number, &login_code_sms(&code, &app.name))
        .await?;
    tracing::info!(app = %app.id, "login code texted");
    Ok(Json(SuccessResponse { success: true }))
}

/// Signs in (or up) with the texted code.
pub async fn authenticate(
    State(state): State<AppState>,
    caller: LoginCaller,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<SmsAuthenticateRequest>,
) -> Result<Response, AppError> {
    caller.ctx.require_origin()?;
    let app = &caller.ctx.app;
    let identity = verify(&state, app, &body.phone_number, &body.code, &client_ip).await?;
    let mode = body.mode.unwrap_or_default();
    let logged_in = accounts::login(&state, app, &identity, mode, caller.current.as_ref()).await?;
    start_session(&state, &logged_in.user, logged_in.is_new_user).await
}

/// Links the number to the signed-in user.
pub async fn link(
    State(state): State<AppState>,
    signed_in: SignedIn,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<SmsLinkRequest>,
) -> Result<Json<User>, AppError> {
    signed_in.ctx.require_origin()?;
    let app = &signed_in.ctx.app;
    let identity = verify(&state, app, &body.phone_number, &body.code, &client_ip).await?;
    accounts::link(&state, app, &signed_in.user, &identity).await?;
    Ok(Json(user_view(&state, &signed_in.user).await?))
}

/// Unlinks the number; never the user's last way in.
pub async fn unlink(
    State(state): State<AppState>,
    signed_in: SignedIn,
    JsonBody(body): JsonBody<SmsUnlinkRequest>,
) -> Result<Json<User>, AppError> {
    signed_in.ctx.require_origin()?;
    // Any region: a number linked before the app narrowed its regions can still be removed.
    let number = normalize_phone(&body.phone_number, &[]).map_err(phone_refusal)?;
    accounts::unlink(&state, &signed_in.user, PHONE, &number).await?;
    Ok(Json(user_view(&state, &signed_in.user).await?))
}

/// Replaces the user's number by a new one proven with a code texted to it.
pub async fn update(
    State(state): State<AppState>,
    signed_in: SignedIn,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<SmsUpdateRequest>,
) -> Result<Json<User>, AppError> {
    signed_in.ctx.require_origin()?;
    let app = &signed_in.ctx.app;
    let old = normalize_phone(&body.old_phone_number, &[]).map_err(phone_refusal)?;
    let identity = verify(&state, app, &body.new_phone_number, &body.code, &client_ip).await?;
    accounts::update(&state, app, &signed_in.user, &old, &identity).await?;
    Ok(Json(user_view(&state, &signed_in.user).await?))
}

/// Moves the number from its owner to the caller, with the nonce of `account_transfer_required`.
pub async fn transfer(
    State(state): State<AppState>,
    signed_in: SignedIn,
    JsonBody(body): JsonBody<SmsTransferRequest>,
) -> Result<Json<User>, AppError> {
    signed_in.ctx.require_origin()?;
    let number = normalize_phone(&body.phone_number, &[]).map_err(phone_refusal)?;
    let app = &signed_in.ctx.app;
    accounts::transfer(&state, app, &signed_in.user, &body.nonce, PHONE, &number).await?;
    Ok(Json(user_view(&state, &signed_in.user).await?))
}

/// The number in E.164, if it is valid and in a region the app texts.
fn phone_number(app: &AppRecord, raw: &str) -> Result<String, AppError> {
    normalize_phone(raw, &app.settings.sms.allowed_regions).map_err(phone_refusal)
}

fn phone_refusal(error: PhoneError) -> AppError {
    match error {
        PhoneError::RegionNotAllowed => {
            AppError::invalid_data("This app does not send codes to numbers in this region")
        }
        _ => AppError::invalid_data("Invalid phone number"),
    }
}

/// Redeems the code texted to `raw` and proves the number.
async fn verify(
    state: &AppState,
    app: &AppRecord,
    raw: &str,
    code: &str,
    client_ip: &ClientIp,
) -> Result<VerifiedIdentity, AppError> {
    let number = normalize_phone(raw, &[]).map_err(phone_refusal)?;
    redeem_code(state, key(&app.id, &number), code, client_ip).await?;
    Ok(VerifiedIdentity::new(LoginMethod::Sms, PHONE, number))
}

fn key<'a>(app_id: &'a str, number: &'a str) -> OtpKey<'a> {
    OtpKey {
        app_id,
        channel: SMS,
        subject: number,
    }
}
