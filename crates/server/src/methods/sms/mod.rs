//! SMS codes: `POST /passwordless_sms/{init, authenticate, link, unlink, update, transfer}`.
//!
//! The same code rules as email (`super::code`) on the channel `sms`; numbers are normalised
//! to E.164 by a phone-number library before anything is stored or sent, and the app may limit
//! the regions it texts (`sms.allowed_regions`), which bounds what SMS pumping can cost.

pub mod deps;
pub mod routes;

use axum::Json;
use axum::extract::State;
use axum::response::Response;
use symbolon_protocol::accounts::{
    SmsAuthenticateRequest, SmsInitRequest, SmsLinkRequest, SmsTransferRequest, SmsUnlinkRequest,
    SmsUpdateRequest,
};
use symbolon_protocol::session::SuccessResponse;
use symbolon_protocol::user::User;

use super::code::{CodeChannel, issue_code};
use super::{link_to, sign_in};
use crate::app_settings::login_methods::LoginMethod;
use crate::error::AppError;
use crate::methods::sms::deps::SmsDeps;
use crate::sms::{PhoneError, login_code_sms, normalize_phone};
use crate::web::auth::{LoginCaller, SignedIn};
use crate::web::client_ip::ClientIp;
use crate::web::json_body::JsonBody;

/// Codes by SMS prove `phone` accounts, numbers in E.164. Any region: a number linked before the
/// app narrowed its regions can still sign in, be removed or be replaced; only sends are limited.
pub const SMS: CodeChannel = CodeChannel {
    name: "sms",
    account_type: "phone",
    method: LoginMethod::Sms,
    normalize: |raw| normalize_phone(raw, &[]).map_err(phone_refusal),
};

/// Texts a code to the number (login, link and update all start here).
pub async fn init(
    State(deps): State<SmsDeps>,
    caller: LoginCaller,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<SmsInitRequest>,
) -> Result<Json<SuccessResponse>, AppError> {
    let app = &caller.ctx.app;
    let number = normalize_phone(&body.phone_number, &app.settings.sms.allowed_regions)
        .map_err(phone_refusal)?;
    let key = SMS.key(&app.id, &number);
    let Some(code) = issue_code(&deps.codes, key, &client_ip).await? else {
        tracing::info!(app = %app.id, "login code still valid; none texted");
        return Ok(Json(SuccessResponse { success: true }));
    };
    deps.sms
        .send(&number, &login_code_sms(&code, &app.name))
        .await?;
    tracing::info!(app = %app.id, "login code texted");
    Ok(Json(SuccessResponse { success: true }))
}

/// Signs in (or up) with the texted code.
pub async fn authenticate(
    State(deps): State<SmsDeps>,
    caller: LoginCaller,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<SmsAuthenticateRequest>,
) -> Result<Response, AppError> {
    let app = &caller.ctx.app;
    let identity = SMS
        .verify(&deps.codes, app, &body.phone_number, &body.code, &client_ip)
        .await?;
    sign_in(&deps.login, &caller, &identity, body.mode).await
}

/// Links the number to the signed-in user.
pub async fn link(
    State(deps): State<SmsDeps>,
    signed_in: SignedIn,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<SmsLinkRequest>,
) -> Result<Json<User>, AppError> {
    let app = &signed_in.ctx.app;
    let identity = SMS
        .verify(&deps.codes, app, &body.phone_number, &body.code, &client_ip)
        .await?;
    link_to(&deps.login, &signed_in, &identity).await
}

/// Unlinks the number; never the user's last way in.
pub async fn unlink(
    State(deps): State<SmsDeps>,
    signed_in: SignedIn,
    JsonBody(body): JsonBody<SmsUnlinkRequest>,
) -> Result<Json<User>, AppError> {
    SMS.unlink(&deps.login, &signed_in, &body.phone_number)
        .await
}

/// Replaces the user's number by a new one proven with a code texted to it.
pub async fn update(
    State(deps): State<SmsDeps>,
    signed_in: SignedIn,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<SmsUpdateRequest>,
) -> Result<Json<User>, AppError> {
    let change = (
        body.old_phone_number.as_str(),
        body.new_phone_number.as_str(),
        body.code.as_str(),
    );
    SMS.update((&deps.login, &deps.codes), &signed_in, change, &client_ip)
        .await
}

/// Moves the number from its owner to the caller, with the nonce of `account_transfer_required`.
pub async fn transfer(
    State(deps): State<SmsDeps>,
    signed_in: SignedIn,
    JsonBody(body): JsonBody<SmsTransferRequest>,
) -> Result<Json<User>, AppError> {
    SMS.transfer(&deps.login, &signed_in, &body.nonce, &body.phone_number)
        .await
}

fn phone_refusal(error: PhoneError) -> AppError {
    match error {
        PhoneError::RegionNotAllowed => {
            AppError::invalid_data("This app does not send codes to numbers in this region")
        }
        _ => AppError::invalid_data("Invalid phone number"),
    }
}
