//! The HTTP API: routes, extractors, CORS and the error type.

pub mod analytics;
pub mod apps;
pub mod cors;
pub mod error;
pub mod health;
pub mod jwks;
pub mod openapi;

use axum::Router;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::API_PREFIX;
use tower_http::trace::TraceLayer;

use self::error::AppError;
use self::openapi::Mount;
use crate::methods::{
    custom_jwt, email, farcaster, guest, oauth, passkey, siwe, siws, sms, telegram,
};
use crate::mfa::routes as mfa;
use crate::provider_app;
use crate::serve::{Timeouts, with_timeouts};
use crate::sessions::routes as sessions;
use crate::state::AppState;
use crate::users::routes as users;
use crate::wallets::{frame_page, routes as wallets};

/// The server's router. Every response, errors and unknown routes included, has a JSON body,
/// except the wallet frame's page and assets. Routes are mounted only through [`Mount`], which
/// accepts only routes listed in [`openapi::ROUTES`] (the OpenAPI document's table).
pub fn app(state: AppState) -> Router {
    let api = |path: &str| format!("{API_PREFIX}{path}");
    // Body and whole-request deadlines sit inside CORS, so a browser can read a timeout answer.
    let timeouts = Timeouts::from_config(&state.config.http);
    // Called by host pages: CORS for the apps' origins.
    let host_routes = Mount::new()
        .get("/health", health::health)
        .get(&api("/openapi.json"), openapi::serve)
        .get(&api("/apps/{app_id}"), apps::get_app)
        .get(&api("/apps/{app_id}/jwks.json"), jwks::get_jwks)
        // Where `@privy-io/node` fetches the keys: `{apiUrl}/v1/…`, without the `/api` prefix.
        .get("/v1/apps/{app_id}/jwks.json", jwks::get_jwks)
        .post(&api("/analytics_events"), analytics::record_event)
        .post(&api("/passwordless/init"), email::init)
        .post(&api("/passwordless/authenticate"), email::authenticate)
        .post(&api("/passwordless/link"), email::link)
        .post(&api("/passwordless/unlink"), email::unlink)
        .post(&api("/passwordless/update"), email::update)
        .post(&api("/passwordless/transfer"), email::transfer)
        .post(&api("/passwordless_sms/init"), sms::init)
        .post(&api("/passwordless_sms/authenticate"), sms::authenticate)
        .post(&api("/passwordless_sms/link"), sms::link)
        .post(&api("/passwordless_sms/unlink"), sms::unlink)
        .post(&api("/passwordless_sms/update"), sms::update)
        .post(&api("/passwordless_sms/transfer"), sms::transfer)
        .post(&api("/guest/authenticate"), guest::authenticate)
        .post(
            &api("/custom_jwt_account/authenticate"),
            custom_jwt::authenticate,
        )
        .post(&api("/custom_jwt_account/link"), custom_jwt::link)
        .post(&api("/oauth/init"), oauth::init)
        .post(&api("/oauth/authenticate"), oauth::authenticate)
        .post(&api("/oauth/link"), oauth::link)
        .post(&api("/oauth/unlink"), oauth::unlink)
        .post(&api("/oauth/transfer"), oauth::transfer)
        .post(&api("/farcaster/init"), farcaster::init)
        .get(&api("/farcaster/status"), farcaster::status)
        .post(&api("/farcaster/authenticate"), farcaster::authenticate)
        .post(&api("/farcaster/link"), farcaster::link)
        .post(&api("/farcaster/unlink"), farcaster::unlink)
        .post(&api("/farcaster/transfer"), farcaster::transfer)
        .post("/api/v2/farcaster/init", farcaster::init_v2)
        .post("/api/v2/farcaster/authenticate", farcaster::authenticate_v2)
        .post(&api("/farcaster/signer/init"), farcaster::signer::init)
        .post(&api("/farcaster/signer/status"), farcaster::signer::status)
        .post(&api("/telegram/authenticate"), telegram::authenticate)
        .post(&api("/telegram/link"), telegram::link)
        .post(&api("/telegram/unlink"), telegram::unlink)
        .post(&api("/telegram/transfer"), telegram::transfer)
        // The Login Widget's script, from the API origin where the published client looks for it.
        .get("/js/telegram-login.js", telegram::widget_script::script)
        .post(&api("/sessions"), sessions::refresh)
        .post(&api("/sessions/logout"), sessions::logout)
        .get(&api("/users/me"), users::me)
        .post(&api("/users/me/accept_terms"), users::accept_terms)
        .post(&api("/siwe/init"), siwe::init)
        .post(&api("/siwe/authenticate"), siwe::authenticate)
        .post(&api("/siwe/link"), siwe::link)
        .post(&api("/siwe/link_smart_wallet"), siwe::link_smart_wallet)
        .post(&api("/siwe/unlink"), siwe::unlink)
        .post(&api("/siwe/transfer"), siwe::transfer)
        .post(&api("/mfa/passwordless_sms/init"), mfa::sms_init)
        .post(&api("/mfa/passkeys/init"), mfa::passkeys_init)
        .post(&api("/passkeys/register/init"), passkey::register_init)
        .post(&api("/passkeys/register"), passkey::register)
        .post(
            &api("/passkeys/authenticate/init"),
            passkey::authenticate_init,
        )
        .post(&api("/passkeys/authenticate"), passkey::authenticate)
        .post(&api("/passkeys/link/init"), passkey::link_init)
        .post(&api("/passkeys/link"), passkey::link)
        .post(&api("/passkeys/unlink"), passkey::unlink)
        .post(&api("/siws/init"), siws::init)
        .post(&api("/siws/authenticate"), siws::authenticate)
        .post(&api("/siws/link"), siws::link)
        .post(&api("/siws/unlink"), siws::unlink)
        .post(&api("/siws/transfer"), siws::transfer)
        .get(
            &api("/apps/{app_id}/cross-app/connections"),
            provider_app::routes::connections,
        )
        .get(
            &api("/apps/{app_id}/cross-app/details"),
            provider_app::routes::details,
        )
        .into_router()
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed);
    let host_routes = with_timeouts(host_routes, timeouts).layer(cors::cors_layer(&state));
    // Used only by the wallet frame on the server's own origin: merged after the CORS layer, so
    // no host origin gets a preflight grant or a readable answer here.
    let frame_routes = Mount::new()
        .post(&api("/embedded_wallets"), wallets::create)
        .post(&api("/embedded_wallets/challenge"), wallets::challenge)
        .post(
            &api("/embedded_wallets/{address}/recovery/key_material"),
            wallets::key_material,
        )
        .post(
            &api("/embedded_wallets/{address}/shares"),
            wallets::replace_shares,
        )
        // MFA verification and enrolment: the token never reaches a host page.
        .post(&api("/mfa/verify"), mfa::verify)
        .post(&api("/mfa/totp/init"), mfa::totp_init)
        .post(&api("/mfa/totp/enroll"), mfa::totp_enroll)
        .post(&api("/mfa/passwordless_sms/enroll"), mfa::sms_enroll)
        .post(&api("/mfa/passkeys/enroll"), mfa::passkeys_enroll)
        .post(&api("/mfa/unenroll"), mfa::unenroll)
        .post(&api("/mfa/passkeys/unlink"), mfa::passkeys_unlink)
        .get("/apps/{app_id}/embedded-wallets", frame_page::page)
        // The export page: the same page, which reads its path (the published client opens it here).
        .get("/apps/{app_id}/embedded-wallets/export", frame_page::page)
        .get("/embedded-wallets/assets/{file}", frame_page::asset)
        // The OAuth provider sends the browser here (a redirect, not a host page's call).
        .get(&api("/oauth/callback"), oauth::callback)
        .post(&api("/oauth/callback"), oauth::callback_form)
        // Cross-app provider: its pages and the calls they (and the requester's server) make.
        .get(
            "/apps/{app_id}/oauth/authorize",
            provider_app::page::authorize,
        )
        .get("/oauth/transact", provider_app::page::transact)
        .get("/cross-app/assets/{file}", provider_app::page::asset)
        .post(
            &api("/apps/{app_id}/oauth/consent"),
            provider_app::routes::consent,
        )
        .post(
            &api("/apps/{app_id}/oauth/token"),
            provider_app::routes::token,
        )
        .get(
            &api("/apps/{app_id}/oauth/userinfo"),
            provider_app::routes::userinfo,
        )
        .get(
            &api("/cross-app/transact"),
            provider_app::routes::transact_context,
        )
        .into_router()
        .method_not_allowed_fallback(method_not_allowed);
    host_routes
        .merge(with_timeouts(frame_routes, timeouts))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

async fn not_found() -> AppError {
    AppError::new(ServerErrorCode::NotFound, "Not found")
}

async fn method_not_allowed() -> AppError {
    AppError::new(ServerErrorCode::NotSupported, "Method not allowed")
}
