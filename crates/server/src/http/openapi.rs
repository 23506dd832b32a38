//! The OpenAPI 3.1 document of every route, served at `GET /api/v1/openapi.json`.
//!
//! [`ROUTES`] is the one list of routes: [`Mount`] (used by [`super::app`]) refuses to mount a
//! route that is not in it (the server panics at start-up, and `tests/openapi.rs` fails), and
//! the document is built from it. Request and response schemas come from the wire types'
//! `utoipa::ToSchema` derives (protocol feature `openapi`).
//!
//! To add a route:
//! 1. Give its request and response types in `crates/protocol` the derive
//!    `#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]` (next to `TS`).
//! 2. Add one line to [`ROUTES`]: method, full path (with `{param}`s), a summary, the request
//!    body (`Some(json::<T>)` or `None`), the success body (`Body::Json(json::<T>)`), who may
//!    call it ([`Access`]: decides the header parameters, the bearer scheme and the 400/401/403
//!    answers) and the other error statuses the handler can answer (e.g. `&[429]`).
//! 3. Mount it in `http/mod.rs` with `Mount::get` / `post` / `put` / `patch` / `delete` (never
//!    `Router::route`; a second method on a path is a second line, axum merges them).
//! 4. `cargo test -p symbolon-server --test openapi`, then `scripts/test.sh fuzz`.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use axum::Json;
use axum::Router;
use axum::handler::Handler;
use axum::routing::{MethodFilter, on};
use serde_json::{Map, Value, json};
use symbolon_protocol::accounts::{
    CustomJwtAuthenticateRequest, CustomJwtLinkRequest, EmailTransferRequest,
    GuestAuthenticateRequest, PasswordlessLinkRequest, PasswordlessUnlinkRequest,
    PasswordlessUpdateRequest, SmsAuthenticateRequest, SmsInitRequest, SmsLinkRequest,
    SmsTransferRequest, SmsUnlinkRequest, SmsUpdateRequest,
};
use symbolon_protocol::app::AppConfigResponse;
use symbolon_protocol::constants::{HEADER_APP_ID, HEADER_CLIENT_ID};
use symbolon_protocol::cross_app::{
    CrossAppConnectionsResponse, CrossAppConsentRequest, CrossAppConsentResponse,
    CrossAppDetailsResponse, CrossAppTokenResponse, CrossAppTransactContext, CrossAppUserInfo,
};
use symbolon_protocol::farcaster::{
    FarcasterAuthenticateRequest, FarcasterInitRequest, FarcasterInitResponse,
    FarcasterLinkRequest, FarcasterSignerRequest, FarcasterSignerResponse, FarcasterStatusResponse,
    FarcasterTransferRequest, FarcasterUnlinkRequest, FarcasterV2AuthenticateRequest,
    FarcasterV2InitResponse,
};
use symbolon_protocol::mfa::{
    MfaPasskeyEnrollRequest, MfaPasskeyInitResponse, MfaSmsEnrollRequest, MfaSmsInitRequest,
    MfaTokenResponse, MfaUnenrollRequest, MfaUserResponse, MfaVerifyRequest, TotpEnrollRequest,
    TotpInitResponse,
};
use symbolon_protocol::oauth::{
    OAuthAuthenticateRequest, OAuthInitRequest, OAuthInitResponse, OAuthLinkRequest,
    OAuthTransferRequest, OAuthUnlinkRequest,
};
use symbolon_protocol::passkey::{
    PasskeyAuthenticateRequest, PasskeyAuthenticationInitResponse, PasskeyInitRequest,
    PasskeyRegisterRequest, PasskeyRegistrationInitResponse, PasskeyUnlinkRequest,
};
use symbolon_protocol::session::{
    AnalyticsEventRequest, CurrentUserResponse, PasswordlessAuthenticateRequest,
    PasswordlessInitRequest, RefreshSessionRequest, SessionResponse, SuccessResponse,
};
use symbolon_protocol::siwe::{
    SiweAuthenticateRequest, SiweInitRequest, SiweInitResponse, SiweLinkRequest,
    SiweLinkSmartWalletRequest, SiweTransferRequest, SiweUnlinkRequest, SiwsAuthenticateRequest,
    SiwsLinkRequest,
};
use symbolon_protocol::telegram::{
    TelegramAuthenticateRequest, TelegramLinkRequest, TelegramTransferRequest,
    TelegramUnlinkRequest,
};
use symbolon_protocol::user::User;
use symbolon_protocol::wallet::{
    CreateEmbeddedWalletRequest, CreateEmbeddedWalletResponse, KeyMaterialRequest,
    KeyMaterialResponse, ReplaceSharesRequest, ReplaceSharesResponse, WalletChallengeRequest,
    WalletChallengeResponse,
};
use symbolon_protocol::{ErrorResponse, ServerErrorCode};
use utoipa::ToSchema;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;

use super::sessions::LogoutBody;
use crate::state::AppState;
use crate::tokens::JwksResponse;

/// An HTTP method of a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    /// `GET`.
    Get,
    /// `POST`.
    Post,
    /// `PUT`.
    Put,
    /// `PATCH`.
    Patch,
    /// `DELETE`.
    Delete,
}

impl Verb {
    /// The lower-case name, as an OpenAPI path item key.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Get => "get",
            Self::Post => "post",
            Self::Put => "put",
            Self::Patch => "patch",
            Self::Delete => "delete",
        }
    }

    /// The method.
    pub fn method(self) -> axum::http::Method {
        use axum::http::Method;
        match self {
            Self::Get => Method::GET,
            Self::Post => Method::POST,
            Self::Put => Method::PUT,
            Self::Patch => Method::PATCH,
            Self::Delete => Method::DELETE,
        }
    }
}

/// Who may call a route: decides its header parameters, security and 400/401/403 answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone; no app header.
    Public,
    /// `privy-app-id` required; `Origin`, when sent, must be one of the app's.
    App,
    /// As [`Access::App`], and `Origin` required.
    AppOrigin,
    /// A Bearer access token and `privy-app-id`; `Origin` optional.
    User,
    /// A Bearer access token, `privy-app-id` and `Origin`.
    UserOrigin,
    /// The wallet frame: Bearer, `Origin` equal to the server's own, `privy-app-id` optional.
    Frame,
    /// A back channel: another server (an OAuth client's token and user-info calls) or this
    /// server's own pages; no app header, and outside CORS (no host page calls it).
    BackChannel,
}

/// Collected component schemas, by name.
pub type Schemas = BTreeMap<String, Value>;

/// Registers `T` (and what it refers to) and answers a `$ref` to it.
pub type SchemaFn = fn(&mut Schemas) -> Value;

/// A success body.
#[derive(Debug, Clone, Copy)]
pub enum Body {
    /// `application/json` of a schema.
    Json(SchemaFn),
    /// Any JSON object (this document).
    AnyJson,
    /// The wallet frame page (`text/html`).
    Html,
    /// A static asset of the wallet frame.
    Asset,
    /// A `302` to another page (the OAuth callback).
    Redirect,
}

/// One route of the server.
#[derive(Debug, Clone, Copy)]
pub struct Route {
    /// Method.
    pub verb: Verb,
    /// Full path, `{param}` for path parameters (axum's syntax is OpenAPI's).
    pub path: &'static str,
    /// One line for the document.
    pub summary: &'static str,
    /// The JSON request body, if any.
    pub request: Option<SchemaFn>,
    /// The success (200) body.
    pub response: Body,
    /// Who may call it.
    pub access: Access,
    /// Error statuses beyond those [`Access`] and every route imply (see [`error_statuses`]).
    pub errors: &'static [u16],
}

use Access::{App, AppOrigin, BackChannel, Frame, Public, User as Bearer, UserOrigin};
use Verb::{Get, Post};

/// Shorthand for a table line.
const fn r(
    verb: Verb,
    path: &'static str,
    summary: &'static str,
    request: Option<SchemaFn>,
    response: Body,
    access: Access,
    errors: &'static [u16],
) -> Route {
    Route {
        verb,
        path,
        summary,
        request,
        response,
        access,
        errors,
    }
}

/// Every route of the server, one line each. [`Mount`] refuses routes missing here.
#[rustfmt::skip]
pub const ROUTES: &[Route] = &[
    r(Get, "/health", "Liveness", None, Body::Json(json::<HealthResponse>), Public, &[]),
    r(Get, "/api/v1/openapi.json", "This document", None, Body::AnyJson, Public, &[]),
    r(Get, "/api/v1/apps/{app_id}", "The app's client configuration", None, Body::Json(json::<AppConfigResponse>), App, &[400]),
    r(Get, "/api/v1/apps/{app_id}/jwks.json", "Keys that verify the app's tokens", None, Body::Json(json::<JwksResponse>), Public, &[400]),
    r(Get, "/v1/apps/{app_id}/jwks.json", "The same keys where the vendor's server SDK looks for them", None, Body::Json(json::<JwksResponse>), Public, &[400]),
    r(Post, "/api/v1/analytics_events", "Accept (and drop) a client analytics event", Some(json::<AnalyticsEventRequest>), Body::Json(json::<SuccessResponse>), Public, &[]),
    r(Post, "/api/v1/passwordless/init", "Send an email login code", Some(json::<PasswordlessInitRequest>), Body::Json(json::<SuccessResponse>), AppOrigin, &[409, 429]),
    r(Post, "/api/v1/passwordless/authenticate", "Log in with an email code", Some(json::<PasswordlessAuthenticateRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 409, 422, 429]),
    r(Post, "/api/v1/passwordless/link", "Link an email proven by its code", Some(json::<PasswordlessLinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422, 429]),
    r(Post, "/api/v1/passwordless/unlink", "Unlink an email (never the last way in)", Some(json::<PasswordlessUnlinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
    r(Post, "/api/v1/passwordless/update", "Replace the user's email by one proven by its code", Some(json::<PasswordlessUpdateRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422, 429]),
    r(Post, "/api/v1/passwordless/transfer", "Move an email from its owner, with the nonce of account_transfer_required", Some(json::<EmailTransferRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
    r(Post, "/api/v1/passwordless_sms/init", "Text a login code", Some(json::<SmsInitRequest>), Body::Json(json::<SuccessResponse>), AppOrigin, &[409, 429]),
    r(Post, "/api/v1/passwordless_sms/authenticate", "Log in with a texted code", Some(json::<SmsAuthenticateRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 409, 429]),
    r(Post, "/api/v1/passwordless_sms/link", "Link a phone number proven by its code", Some(json::<SmsLinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422, 429]),
    r(Post, "/api/v1/passwordless_sms/unlink", "Unlink a phone number (never the last way in)", Some(json::<SmsUnlinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
    r(Post, "/api/v1/passwordless_sms/update", "Replace the user's phone number by one proven by its code", Some(json::<SmsUpdateRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422, 429]),
    r(Post, "/api/v1/passwordless_sms/transfer", "Move a phone number from its owner, with the nonce of account_transfer_required", Some(json::<SmsTransferRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
    r(Post, "/api/v1/guest/authenticate", "Log in as the guest of a client-held credential", Some(json::<GuestAuthenticateRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[409, 429]),
    r(Post, "/api/v1/custom_jwt_account/authenticate", "Log in with the host app's JWT", Some(json::<CustomJwtAuthenticateRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 409, 429]),
    r(Post, "/api/v1/custom_jwt_account/link", "Link the host app's user named by its JWT", Some(json::<CustomJwtLinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422, 429]),
    r(Post, "/api/v1/oauth/init", "Start an OAuth login or link (PKCE S256): the provider's authorization URL", Some(json::<OAuthInitRequest>), Body::Json(json::<OAuthInitResponse>), AppOrigin, &[409, 429]),
    r(Get, "/api/v1/oauth/callback", "The provider's return: redirects to the app's page with privy_oauth_code, privy_oauth_state, privy_oauth_provider", None, Body::Redirect, Public, &[400]),
    r(Post, "/api/v1/oauth/callback", "The provider's return as a POSTed form (response_mode=form_post)", None, Body::Redirect, Public, &[400]),
    r(Post, "/api/v1/oauth/authenticate", "Log in with the provider's code and the PKCE verifier", Some(json::<OAuthAuthenticateRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 409, 429, 502]),
    r(Post, "/api/v1/oauth/link", "Link the provider account of the code", Some(json::<OAuthLinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422, 429, 502]),
    r(Post, "/api/v1/oauth/unlink", "Unlink a provider account (never the last way in)", Some(json::<OAuthUnlinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
    r(Post, "/api/v1/oauth/transfer", "Move a provider account from its owner, with the nonce of account_transfer_required", Some(json::<OAuthTransferRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
    r(Post, "/api/v1/farcaster/init", "Open a Farcaster relay channel for Sign In With Farcaster", Some(json::<FarcasterInitRequest>), Body::Json(json::<FarcasterInitResponse>), AppOrigin, &[409, 429, 502]),
    r(Get, "/api/v1/farcaster/status", "The relay channel's state (header farcaster-channel-token)", None, Body::Json(json::<FarcasterStatusResponse>), AppOrigin, &[401, 502]),
    r(Post, "/api/v1/farcaster/authenticate", "Log in with the completed channel's signed message", Some(json::<FarcasterAuthenticateRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 409, 422, 429, 502]),
    r(Post, "/api/v1/farcaster/link", "Link a Farcaster account proven by the completed channel", Some(json::<FarcasterLinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422, 429, 502]),
    r(Post, "/api/v1/farcaster/unlink", "Unlink a Farcaster account (never the last way in)", Some(json::<FarcasterUnlinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
    r(Post, "/api/v1/farcaster/transfer", "Move a Farcaster account from its owner, with the nonce of account_transfer_required", Some(json::<FarcasterTransferRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
    r(Post, "/api/v2/farcaster/init", "A nonce for a Farcaster Mini App sign-in", None, Body::Json(json::<FarcasterV2InitResponse>), AppOrigin, &[409, 429]),
    r(Post, "/api/v2/farcaster/authenticate", "Log in with a Mini App's signed Sign In With Farcaster message", Some(json::<FarcasterV2AuthenticateRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 409, 422, 429, 502]),
    r(Post, "/api/v1/telegram/authenticate", "Log in with Telegram Login Widget data or Mini App initData", Some(json::<TelegramAuthenticateRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 403, 409, 422, 429]),
    r(Post, "/api/v1/telegram/link", "Link a Telegram account proven by the widget or initData", Some(json::<TelegramLinkRequest>), Body::Json(json::<User>), UserOrigin, &[401, 404, 409, 422, 429]),
    r(Post, "/api/v1/telegram/unlink", "Unlink a Telegram account (never the last way in)", Some(json::<TelegramUnlinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
    r(Post, "/api/v1/telegram/transfer", "Move a Telegram account from its owner, with the nonce of account_transfer_required", Some(json::<TelegramTransferRequest>), Body::Json(json::<User>), UserOrigin, &[401, 404, 409, 422, 429]),
    r(Post, "/api/v1/farcaster/signer/init", "Request a Farcaster signer for the user's fid (signed key request)", Some(json::<FarcasterSignerRequest>), Body::Json(json::<FarcasterSignerResponse>), UserOrigin, &[404, 409, 502]),
    r(Post, "/api/v1/farcaster/signer/status", "The Farcaster signer's approval state", Some(json::<FarcasterSignerRequest>), Body::Json(json::<FarcasterSignerResponse>), UserOrigin, &[404, 409, 502]),
    r(Post, "/api/v1/sessions", "Refresh a session (rotates the refresh token)", Some(json::<RefreshSessionRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 409]),
    r(Post, "/api/v1/sessions/logout", "Log out: by refresh token, else by the bearer token's session (body optional)", Some(json::<LogoutBody>), Body::Json(json::<SuccessResponse>), AppOrigin, &[409]),
    r(Get, "/api/v1/users/me", "The signed-in user and a fresh identity token", None, Body::Json(json::<CurrentUserResponse>), Bearer, &[]),
    r(Post, "/api/v1/users/me/accept_terms", "Accept the app's terms", None, Body::Json(json::<User>), UserOrigin, &[409]),
    r(Post, "/api/v1/siwe/init", "A single-use nonce for one Sign-In With Ethereum message of an address", Some(json::<SiweInitRequest>), Body::Json(json::<SiweInitResponse>), AppOrigin, &[409, 429]),
    r(Post, "/api/v1/siwe/authenticate", "Log in with a signed EIP-4361 message (EOA, EIP-1271 or EIP-6492 signature)", Some(json::<SiweAuthenticateRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 409, 422, 429, 502]),
    r(Post, "/api/v1/siwe/link", "Link the wallet of a signed EIP-4361 message", Some(json::<SiweLinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422, 429, 502]),
    r(Post, "/api/v1/siwe/link_smart_wallet", "Link a smart wallet proven by a signed EIP-4361 message (EIP-1271 or EIP-6492)", Some(json::<SiweLinkSmartWalletRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422, 429, 502]),
    r(Post, "/api/v1/siwe/unlink", "Unlink an external Ethereum wallet (never an embedded one, never the last way in)", Some(json::<SiweUnlinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
    r(Post, "/api/v1/siwe/transfer", "Move an Ethereum wallet from its owner, with the nonce of account_transfer_required", Some(json::<SiweTransferRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
    r(Post, "/api/v1/mfa/passwordless_sms/init", "Text an MFA code: to the enrolled number (verify) or to a number being enrolled", Some(json::<MfaSmsInitRequest>), Body::Json(json::<SuccessResponse>), UserOrigin, &[429]),
    r(Post, "/api/v1/mfa/passkeys/init", "WebAuthn request options for the user's MFA passkeys", None, Body::Json(json::<MfaPasskeyInitResponse>), UserOrigin, &[]),
    r(Post, "/api/v1/mfa/verify", "Verify a second factor: an MFA token for this session (one export, recovery or factor change; or up to 10 signatures within 120 s)", Some(json::<MfaVerifyRequest>), Body::Json(json::<MfaTokenResponse>), Frame, &[429]),
    r(Post, "/api/v1/mfa/totp/init", "A pending authenticator-app secret and its otpauth URL", None, Body::Json(json::<TotpInitResponse>), Frame, &[]),
    r(Post, "/api/v1/mfa/totp/enroll", "Enrol the pending authenticator-app secret with its first code", Some(json::<TotpEnrollRequest>), Body::Json(json::<MfaUserResponse>), Frame, &[429]),
    r(Post, "/api/v1/mfa/passwordless_sms/enroll", "Enrol a number for MFA with the code texted to it", Some(json::<MfaSmsEnrollRequest>), Body::Json(json::<MfaUserResponse>), Frame, &[429]),
    r(Post, "/api/v1/mfa/passkeys/enroll", "Set the user's MFA passkeys (the whole set; dropped ones leave MFA, unlinked with remove_for_login)", Some(json::<MfaPasskeyEnrollRequest>), Body::Json(json::<MfaUserResponse>), Frame, &[422, 429]),
    r(Post, "/api/v1/mfa/unenroll", "Remove a second factor (needs an MFA token)", Some(json::<MfaUnenrollRequest>), Body::Json(json::<MfaUserResponse>), Frame, &[]),
    r(Post, "/api/v1/mfa/passkeys/unlink", "Unlink a passkey from the wallet frame; one enrolled in MFA with remove_as_mfa and an MFA token", Some(json::<PasskeyUnlinkRequest>), Body::Json(json::<User>), Frame, &[404, 422]),
    r(Post, "/api/v1/passkeys/register/init", "WebAuthn creation options (single-use challenge) to sign up with a new passkey", Some(json::<PasskeyInitRequest>), Body::Json(json::<PasskeyRegistrationInitResponse>), AppOrigin, &[409, 429]),
    r(Post, "/api/v1/passkeys/register", "Sign up with a new passkey (attestation none, user verification required)", Some(json::<PasskeyRegisterRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 409, 422, 429]),
    r(Post, "/api/v1/passkeys/authenticate/init", "WebAuthn request options for a discoverable passkey login", Some(json::<PasskeyInitRequest>), Body::Json(json::<PasskeyAuthenticationInitResponse>), AppOrigin, &[409, 429]),
    r(Post, "/api/v1/passkeys/authenticate", "Log in with a passkey assertion", Some(json::<PasskeyAuthenticateRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 409, 422, 429]),
    r(Post, "/api/v1/passkeys/link/init", "WebAuthn creation options to add a passkey (excluding the user's own; at most 5)", Some(json::<PasskeyInitRequest>), Body::Json(json::<PasskeyRegistrationInitResponse>), UserOrigin, &[409]),
    r(Post, "/api/v1/passkeys/link", "Link a new passkey to the signed-in user", Some(json::<PasskeyRegisterRequest>), Body::Json(json::<User>), UserOrigin, &[401, 409, 422]),
    r(Post, "/api/v1/passkeys/unlink", "Unlink a passkey (never one enrolled in MFA, never the last way in)", Some(json::<PasskeyUnlinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
    r(Post, "/api/v1/siws/init", "A single-use nonce for one Sign-In With Solana message of an address", Some(json::<SiweInitRequest>), Body::Json(json::<SiweInitResponse>), AppOrigin, &[409, 429]),
    r(Post, "/api/v1/siws/authenticate", "Log in with a signed Sign-In With Solana message", Some(json::<SiwsAuthenticateRequest>), Body::Json(json::<SessionResponse>), AppOrigin, &[401, 409, 422, 429]),
    r(Post, "/api/v1/siws/link", "Link the Solana wallet of a signed Sign-In With Solana message", Some(json::<SiwsLinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422, 429]),
    r(Post, "/api/v1/siws/unlink", "Unlink a Solana wallet (never the last way in)", Some(json::<SiweUnlinkRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
    r(Post, "/api/v1/siws/transfer", "Move a Solana wallet from its owner, with the nonce of account_transfer_required", Some(json::<SiweTransferRequest>), Body::Json(json::<User>), UserOrigin, &[404, 409, 422]),
    r(Post, "/api/v1/embedded_wallets", "Register a wallet the frame derived", Some(json::<CreateEmbeddedWalletRequest>), Body::Json(json::<CreateEmbeddedWalletResponse>), Frame, &[409, 429]),
    r(Post, "/api/v1/embedded_wallets/challenge", "A single-use nonce for one signed wallet call", Some(json::<WalletChallengeRequest>), Body::Json(json::<WalletChallengeResponse>), Frame, &[429]),
    r(Post, "/api/v1/embedded_wallets/{address}/recovery/key_material", "Release the wallet's root shares", Some(json::<KeyMaterialRequest>), Body::Json(json::<KeyMaterialResponse>), Frame, &[404, 409, 429]),
    r(Post, "/api/v1/embedded_wallets/{address}/shares", "Replace the wallet's root shares", Some(json::<ReplaceSharesRequest>), Body::Json(json::<ReplaceSharesResponse>), Frame, &[404, 409, 429]),
    r(Get, "/apps/{app_id}/embedded-wallets", "The wallet frame page", None, Body::Html, Public, &[400, 404]),
    r(Get, "/apps/{app_id}/embedded-wallets/export", "The key export page (the wallet frame page in export mode)", None, Body::Html, Public, &[400, 404]),
    r(Get, "/embedded-wallets/assets/{file}", "A wallet frame asset", None, Body::Asset, Public, &[400, 404]),
    r(Get, "/js/telegram-login.js", "The Telegram Login Widget's auth() for host pages", None, Body::Asset, Public, &[]),
    r(Get, "/api/v1/apps/{app_id}/cross-app/connections", "The provider apps the app's users may sign in with", None, Body::Json(json::<CrossAppConnectionsResponse>), App, &[404]),
    r(Get, "/api/v1/apps/{app_id}/cross-app/details", "The app as a cross-app provider", None, Body::Json(json::<CrossAppDetailsResponse>), App, &[404]),
    r(Get, "/apps/{app_id}/oauth/authorize", "Cross-app consent page (OAuth 2.0 authorization endpoint, PKCE S256)", None, Body::Html, Public, &[400]),
    r(Get, "/oauth/transact", "Cross-app signing page", None, Body::Html, Public, &[]),
    r(Get, "/cross-app/assets/{file}", "A cross-app page asset", None, Body::Asset, Public, &[400, 404]),
    r(Post, "/api/v1/apps/{app_id}/oauth/consent", "The consent page's allow: a single-use authorization code", Some(json::<CrossAppConsentRequest>), Body::Json(json::<CrossAppConsentResponse>), Frame, &[404]),
    r(Post, "/api/v1/apps/{app_id}/oauth/token", "Exchange an authorization code (form-encoded CrossAppTokenRequest, PKCE) for a provider token", None, Body::Json(json::<CrossAppTokenResponse>), BackChannel, &[400, 401]),
    r(Get, "/api/v1/apps/{app_id}/oauth/userinfo", "The provider app's user of a Bearer provider token", None, Body::Json(json::<CrossAppUserInfo>), BackChannel, &[401]),
    r(Get, "/api/v1/cross-app/transact", "What a Bearer provider token allows the signing page", None, Body::Json(json::<CrossAppTransactContext>), BackChannel, &[401, 403]),
];

/// `GET /health`.
#[derive(Debug, Clone, serde::Serialize, ToSchema)]
pub struct HealthResponse {
    /// Always `ok`.
    pub status: String,
}

/// The route `verb path` of [`ROUTES`], if any.
pub fn find(verb: Verb, path: &str) -> Option<&'static Route> {
    ROUTES.iter().find(|r| r.verb == verb && r.path == path)
}

/// A router that mounts only documented routes: the way `http/mod.rs` mounts every route.
#[derive(Debug, Default)]
pub struct Mount(Router<AppState>);

impl Mount {
    /// An empty router.
    pub fn new() -> Self {
        Self(Router::new())
    }

    /// Mounts `GET path`.
    pub fn get<H, T>(self, path: &str, handler: H) -> Self
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.add(Verb::Get, MethodFilter::GET, path, handler)
    }

    /// Mounts `POST path`.
    pub fn post<H, T>(self, path: &str, handler: H) -> Self
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.add(Verb::Post, MethodFilter::POST, path, handler)
    }

    /// Mounts `PUT path`.
    pub fn put<H, T>(self, path: &str, handler: H) -> Self
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.add(Verb::Put, MethodFilter::PUT, path, handler)
    }

    /// Mounts `PATCH path`.
    pub fn patch<H, T>(self, path: &str, handler: H) -> Self
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.add(Verb::Patch, MethodFilter::PATCH, path, handler)
    }

    /// Mounts `DELETE path`.
    pub fn delete<H, T>(self, path: &str, handler: H) -> Self
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.add(Verb::Delete, MethodFilter::DELETE, path, handler)
    }

    fn add<H, T>(self, verb: Verb, filter: MethodFilter, path: &str, handler: H) -> Self
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        // A programming error caught by every test that builds the router.
        assert!(
            find(verb, path).is_some(),
            "{} {path} is mounted but missing from ROUTES in crates/server/src/http/openapi.rs",
            verb.as_str()
        );
        Self(self.0.route(path, on(filter, handler)))
    }

    /// The router.
    pub fn into_router(self) -> Router<AppState> {
        self.0
    }
}

/// `GET /api/v1/openapi.json`.
pub async fn serve() -> Json<Value> {
    Json(document().clone())
}

/// The document, built once.
pub fn document() -> &'static Value {
    static DOCUMENT: OnceLock<Value> = OnceLock::new();
    DOCUMENT.get_or_init(build)
}

/// Registers `T` and its dependencies; answers a `$ref` to `T`.
pub fn json<T: ToSchema>(schemas: &mut Schemas) -> Value {
    let mut found: Vec<(String, RefOr<Schema>)> = Vec::new();
    T::schemas(&mut found);
    found.push((T::name().into_owned(), T::schema()));
    for (name, schema) in found {
        schemas
            .entry(name)
            .or_insert_with(|| serde_json::to_value(schema).unwrap_or(Value::Null));
    }
    json!({ "$ref": format!("#/components/schemas/{}", T::name()) })
}

/// The error statuses `route` can answer, each with an [`ErrorResponse`] body.
///
/// Every route: 405 (another method on its path), 408 and 503 (body and request deadlines),
/// 500. A body: 400 (`invalid_data`), 413 (over the size limit, still `invalid_data`). App routes: 400 (`privy-app-id`, `privy-client-id`),
/// 403 (`Origin`). Bearer routes: 401. Then the route's own list.
pub fn error_statuses(route: &Route) -> Vec<u16> {
    let mut statuses = vec![405, 408, 500, 503];
    if route.request.is_some() {
        statuses.extend([400, 413]);
    }
    match route.access {
        Public | BackChannel => {}
        App | AppOrigin => statuses.extend([400, 403]),
        Bearer | UserOrigin | Frame => statuses.extend([400, 401, 403]),
    }
    statuses.extend(route.errors);
    statuses.sort_unstable();
    statuses.dedup();
    statuses
}

fn header_param(name: &str, required: bool, description: &str) -> Value {
    json!({
        "name": name,
        "in": "header",
        "required": required,
        "description": description,
        "schema": { "type": "string" },
    })
}

fn path_params(path: &str) -> Vec<Value> {
    path.split('/')
        .filter_map(|s| s.strip_prefix('{')?.strip_suffix('}'))
        .map(|name| json!({ "name": name, "in": "path", "required": true, "schema": { "type": "string" } }))
        .collect()
}

fn parameters(route: &Route) -> Vec<Value> {
    let mut params = path_params(route.path);
    let app_id = |required| {
        header_param(
            HEADER_APP_ID,
            required,
            "The app id (25 characters); for the wallet frame, defaults to the token's audience",
        )
    };
    let client_id = header_param(
        HEADER_CLIENT_ID,
        false,
        "A client id of the app; sent only when the host set one",
    );
    let origin = |required| {
        header_param(
            "Origin",
            required,
            "The calling page's origin; must be one of the app's allowed origins",
        )
    };
    match route.access {
        Public | BackChannel => {}
        App | Bearer => params.extend([app_id(true), client_id, origin(false)]),
        AppOrigin | UserOrigin => params.extend([app_id(true), client_id, origin(true)]),
        Frame => params.extend([
            app_id(false),
            client_id,
            header_param("Origin", true, "The server's own origin (the wallet frame)"),
        ]),
    }
    params
}

fn json_content(schema: Value) -> Value {
    json!({ "application/json": { "schema": schema } })
}

fn reason(status: u16) -> &'static str {
    match status {
        400 => "Malformed request, header or parameter",
        401 => "Missing, invalid or expired token or credentials",
        403 => "Origin, app or policy refused",
        404 => "Not found",
        405 => "Method not allowed",
        408 => "The request body was not received in time",
        409 => "A concurrent change conflicted; retry",
        413 => "Request body too large",
        415 => "Unsupported content type",
        422 => "Refused for this account",
        429 => "Rate limited; see Retry-After",
        500 => "Internal error",
        502 => "A third party (the OAuth provider) failed or timed out",
        503 => "The request took too long",
        _ => "Error",
    }
}

fn operation(route: &Route, schemas: &mut Schemas) -> Value {
    let error_ref = json::<ErrorResponse>(schemas);
    let mut responses = Map::new();
    let success = match route.response {
        Body::Json(schema) => {
            json!({ "description": "Success", "content": json_content(schema(schemas)) })
        }
        Body::AnyJson => {
            json!({ "description": "Success", "content": json_content(json!({ "type": "object" })) })
        }
        Body::Html => {
            json!({ "description": "The page", "content": { "text/html": { "schema": { "type": "string" } } } })
        }
        Body::Redirect => json!({
            "description": "Redirect to the page that started the flow",
            "headers": { "Location": { "description": "The page, with the privy_oauth_* parameters", "schema": { "type": "string" } } },
        }),
        Body::Asset => json!({
            "description": "The asset",
            "content": Map::from_iter(ASSET_TYPES.iter().map(|t| ((*t).to_string(), json!({ "schema": { "type": "string" } })))),
        }),
    };
    let success_status = match route.response {
        Body::Redirect => "302",
        _ => "200",
    };
    responses.insert(success_status.into(), success);
    for status in error_statuses(route) {
        let mut content = json_content(error_ref.clone());
        // The frame page and assets answer their own errors as text; timeouts and wrong methods
        // are JSON everywhere.
        let text = match route.response {
            Body::Html if matches!(status, 400 | 404 | 500 | 503) => Some("text/html"),
            Body::Asset if matches!(status, 400 | 404) => Some("text/plain"),
            _ => None,
        };
        if let (Some(text), Some(map)) = (text, content.as_object_mut()) {
            map.insert(text.into(), json!({ "schema": { "type": "string" } }));
        }
        let mut response = json!({ "description": reason(status), "content": content });
        if status == 429 {
            response["headers"] = json!({
                "Retry-After": { "description": "Seconds to wait", "schema": { "type": "integer" } }
            });
        }
        responses.insert(status.to_string(), response);
    }
    let mut op = json!({
        "operationId": operation_id(route),
        "summary": route.summary,
        "parameters": parameters(route),
        "responses": responses,
    });
    if let Some(request) = route.request {
        let required = route.path != "/api/v1/sessions/logout";
        op["requestBody"] =
            json!({ "required": required, "content": json_content(request(schemas)) });
    }
    if matches!(route.access, Bearer | UserOrigin | Frame) {
        op["security"] = json!([{ "bearer": [] }]);
    }
    op
}

/// Content types of the frame's assets (`wallet_frame::content_type`).
const ASSET_TYPES: &[&str] = &[
    "text/javascript",
    "application/wasm",
    "text/css",
    "application/json",
    "image/svg+xml",
    "image/png",
    "font/woff2",
    "application/octet-stream",
];

fn operation_id(route: &Route) -> String {
    let mut id = route.verb.as_str().to_string();
    for part in route.path.split('/').filter(|p| !p.is_empty()) {
        id.push('_');
        id.extend(
            part.chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }),
        );
    }
    id
}

fn build() -> Value {
    let mut schemas = Schemas::new();
    let mut paths = Map::new();
    for route in ROUTES {
        let op = operation(route, &mut schemas);
        let item = paths
            .entry(route.path.to_string())
            .or_insert_with(|| json!({}));
        item[route.verb.as_str()] = op;
    }
    // Every code, even those no schema above names.
    let _ = json::<ServerErrorCode>(&mut schemas);
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Symbolon",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Login and embedded-wallet server. Errors are `{error, code}` (ErrorResponse).",
        },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "bearer": { "type": "http", "scheme": "bearer", "bearerFormat": "JWT" },
            },
        },
    })
}
