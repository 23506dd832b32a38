//! Email codes: `POST /passwordless/{init, authenticate, link, unlink, update, transfer}`.
//!
//! The shape every login method copies: the routes check the request and prove an identity
//! (here: a code sent to the address, `super::code`), then hand it to the account rules
//! (`crate::accounts`) through `super::sign_in` / `super::link_to`.

pub mod deps;
pub mod routes;

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

use super::code::{CodeChannel, issue_code};
use super::{link_to, sign_in};
use crate::app_settings::login_methods::LoginMethod;
use crate::error::AppError;
use crate::identifiers::email::{is_plus_address, normalize_email};
use crate::mail::login_code_email;
use crate::methods::email::deps::EmailDeps;
use crate::web::auth::{LoginCaller, SignedIn};
use crate::web::client_ip::ClientIp;
use crate::web::json_body::JsonBody;

/// Codes by email prove `email` accounts, addresses trimmed and lower-cased.
pub const EMAIL: CodeChannel = CodeChannel {
    name: "email",
    account_type: "email",
    method: LoginMethod::Email,
    normalize: normalize_email,
};

/// Sends a code to the address (login, link and update all start here).
pub async fn init(
    State(deps): State<EmailDeps>,
    caller: LoginCaller,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<PasswordlessInitRequest>,
) -> Result<Json<SuccessResponse>, AppError> {
    let app = &caller.ctx.app;
    let email = normalize_email(&body.email)?;
    if app.disable_plus_emails && is_plus_address(&email) {
        return Err(AppError::new(
            ServerErrorCode::DisallowedPlusEmail,
            "Please enter a valid email address without a '+'.",
        ));
    }
    let key = EMAIL.key(&app.id, &email);
    let Some(code) = issue_code(&deps.codes, key, &client_ip).await? else {
        tracing::info!(app = %app.id, "login code still valid; none sent");
        return Ok(Json(SuccessResponse { success: true }));
    };
    deps.mailer
        .send(login_code_email(&email, &code, &app.name))
        .await?;
    tracing::info!(app = %app.id, "login code sent");
    Ok(Json(SuccessResponse { success: true }))
}

/// Signs in (or up) with the emailed code.
pub async fn authenticate(
    State(deps): State<EmailDeps>,
    caller: LoginCaller,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<PasswordlessAuthenticateRequest>,
) -> Result<Response, AppError> {
    let app = &caller.ctx.app;
    let identity = EMAIL
        .verify(&deps.codes, app, &body.email, &body.code, &client_ip)
        .await?;
    sign_in(&deps.login, &caller, &identity, body.mode).await
}

/// Links the address to the signed-in user.
pub async fn link(
    State(deps): State<EmailDeps>,
    signed_in: SignedIn,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<PasswordlessLinkRequest>,
) -> Result<Json<User>, AppError> {
    let app = &signed_in.ctx.app;
    let identity = EMAIL
        .verify(&deps.codes, app, &body.email, &body.code, &client_ip)
        .await?;
    link_to(&deps.login, &signed_in, &identity).await
}

/// Unlinks the address; never the user's last way in.
pub async fn unlink(
    State(deps): State<EmailDeps>,
    signed_in: SignedIn,
    JsonBody(body): JsonBody<PasswordlessUnlinkRequest>,
) -> Result<Json<User>, AppError> {
    EMAIL.unlink(&deps.login, &signed_in, &body.address).await
}

/// Replaces the user's address by a new one proven with a code sent to it.
pub async fn update(
    State(deps): State<EmailDeps>,
    signed_in: SignedIn,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<PasswordlessUpdateRequest>,
) -> Result<Json<User>, AppError> {
    let change = (
        body.old_address.as_str(),
        body.new_address.as_str(),
        body.code.as_str(),
    );
    EMAIL
        .update((&deps.login, &deps.codes), &signed_in, change, &client_ip)
        .await
}

/// Moves the address from its owner to the caller, with the nonce of `account_transfer_required`.
pub async fn transfer(
    State(deps): State<EmailDeps>,
    signed_in: SignedIn,
    JsonBody(body): JsonBody<EmailTransferRequest>,
) -> Result<Json<User>, AppError> {
    EMAIL
        .transfer(&deps.login, &signed_in, &body.nonce, &body.email)
        .await
}
