//! Login methods, one folder each. A method proves an identity (a code, a token, a signature)
//! and hands it to the account rules (`crate::accounts`); its routes stay thin. What each method
//! reads is its slice in [`deps`].

pub mod code;
pub mod custom_auth;
pub mod deps;
pub mod email;
pub mod farcaster;
pub mod guest;
pub mod oauth;
pub mod passkey;
pub mod sms;
pub mod telegram;
pub mod wallet;

use axum::Json;
use axum::response::Response;
use symbolon_protocol::session::AuthMode;
use symbolon_protocol::user::User;

use self::deps::LoginDeps;
use crate::accounts::{self, Proof, VerifiedIdentity};
use crate::error::AppError;
use crate::sessions::issue::start_session;
use crate::users::view::user_view;
use crate::web::auth::{LoginCaller, SignedIn};
use crate::web::routes::Routes;

/// Every login method's routes. A new method is a folder here and one line in this list.
pub const METHODS: &[Routes] = &[
    email::routes::ROUTES,
    sms::routes::ROUTES,
    guest::routes::ROUTES,
    custom_auth::routes::ROUTES,
    oauth::routes::ROUTES,
    farcaster::routes::ROUTES,
    telegram::routes::ROUTES,
    wallet::siwe::routes::ROUTES,
    wallet::siws::routes::ROUTES,
    passkey::routes::ROUTES,
];

/// `…/authenticate`: signs the identity a single-use proof proved in (or up) and answers with a
/// new session.
pub async fn sign_in(
    login: &LoginDeps,
    caller: &LoginCaller,
    identity: &VerifiedIdentity,
    mode: Option<AuthMode>,
) -> Result<Response, AppError> {
    sign_in_with(login, caller, identity, mode, Proof::SingleUse).await
}

/// [`sign_in`] for a method whose proof may be replayable ([`Proof`]).
pub async fn sign_in_with(
    login: &LoginDeps,
    caller: &LoginCaller,
    identity: &VerifiedIdentity,
    mode: Option<AuthMode>,
    proof: Proof,
) -> Result<Response, AppError> {
    let app = &caller.ctx.app;
    let mode = mode.unwrap_or_default();
    let logged_in = accounts::login(
        &login.accounts,
        app,
        identity,
        mode,
        caller.current.as_ref(),
    )
    .await?;
    let fresh_since = proof.fresh_since(login.clock.now(), logged_in.is_new_user);
    start_session(
        &login.sessions,
        &logged_in.user,
        logged_in.is_new_user,
        fresh_since,
    )
    .await
}

/// `…/link`: links the proven identity to the signed-in user and answers with the user.
pub async fn link_to(
    login: &LoginDeps,
    signed_in: &SignedIn,
    identity: &VerifiedIdentity,
) -> Result<Json<User>, AppError> {
    accounts::link(
        &login.accounts,
        &signed_in.ctx.app,
        &signed_in.user,
        identity,
    )
    .await?;
    current_user(login, signed_in).await
}

/// The signed-in user as stored now.
pub async fn current_user(login: &LoginDeps, signed_in: &SignedIn) -> Result<Json<User>, AppError> {
    Ok(Json(user_view(&login.db, &signed_in.user).await?))
}
