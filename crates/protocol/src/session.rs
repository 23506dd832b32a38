//! Login, session and analytics calls (spec §7) and the tokens they carry (wire notes).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::user::User;

/// Whether a login may create a new user.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum AuthMode {
    /// Sign in, creating the user if needed (the default).
    #[default]
    LoginOrSignUp,
    /// Sign in only; an unknown user gets `user_does_not_exist`.
    NoSignup,
}

/// `POST /passwordless/init`: send a code to an email address.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasswordlessInitRequest {
    /// The address to send the code to.
    pub email: String,
    /// Captcha token, when the app uses a captcha.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub token: Option<String>,
}

/// `POST /passwordless/authenticate`: sign in with the emailed code.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasswordlessAuthenticateRequest {
    /// The address the code was sent to.
    pub email: String,
    /// The 6-digit code.
    pub code: String,
    /// Whether sign-up is allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mode: Option<AuthMode>,
}

/// `POST /sessions`: refresh a session. The access token, if any, goes in `Authorization`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RefreshSessionRequest {
    /// The current refresh token; it is rotated by this call.
    pub refresh_token: String,
}

/// `POST /sessions/logout`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LogoutRequest {
    /// The session's refresh token.
    pub refresh_token: String,
}

/// What the client does with the tokens of a session response (spec §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum SessionUpdateAction {
    /// Store every token.
    Set,
    /// Destroy local state and clear the user.
    Clear,
    /// Store only the access tokens and, if present, the identity token.
    Ignore,
}

/// OAuth provider tokens returned after an OAuth login (spec §3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OAuthTokens {
    /// Provider name.
    pub provider: String,
    /// Provider access token.
    pub access_token: String,
    /// Seconds until it expires.
    #[ts(type = "number | null")]
    pub access_token_expires_in_seconds: Option<i64>,
    /// Provider refresh token.
    pub refresh_token: Option<String>,
    /// Seconds until it expires.
    #[ts(type = "number | null")]
    pub refresh_token_expires_in_seconds: Option<i64>,
    /// Granted scopes.
    pub scopes: Option<Vec<String>>,
}

/// The answer to every login and refresh (spec §3 "Auth response").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SessionResponse {
    /// The signed-in user.
    pub user: User,
    /// Access token: an ES256 JWT (see [`AccessTokenClaims`]).
    pub token: Option<String>,
    /// Access token issued by us when the app uses its own (custom) tokens; `null` otherwise. Always
    /// present: the published session schema requires the key (nullable).
    #[serde(default)]
    pub privy_access_token: Option<String>,
    /// Opaque refresh token, rotated on every refresh.
    pub refresh_token: Option<String>,
    /// ES256 JWT carrying the user's linked accounts (see [`IdentityTokenClaims`]).
    pub identity_token: Option<String>,
    /// What the client does with these tokens.
    pub session_update_action: SessionUpdateAction,
    /// Whether this login created the user.
    pub is_new_user: bool,
    /// Provider tokens after an OAuth login.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub oauth_tokens: Option<OAuthTokens>,
}

/// `GET /users/me`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CurrentUserResponse {
    /// The user of the access token.
    pub user: User,
    /// A fresh identity token.
    pub identity_token: Option<String>,
}

/// `POST /analytics_events`. Never fails the client.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AnalyticsEventRequest {
    /// Event name, e.g. `sdk_initialize`.
    pub event_name: String,
    /// Host's client id, if any.
    #[serde(default)]
    pub client_id: Option<String>,
    /// Free-form details.
    #[serde(default)]
    #[ts(type = "Record<string, unknown> | null")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub payload: Option<serde_json::Value>,
}

/// The body of calls that have nothing else to say (every response has a JSON body).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SuccessResponse {
    /// Always true.
    pub success: bool,
}

/// Claims of the access token (ES256 JWT, `kid` in the header names a key of the app's JWKS).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AccessTokenClaims {
    /// Session id.
    pub sid: String,
    /// User id.
    pub sub: String,
    /// Issuer: the server's public URL.
    pub iss: String,
    /// Audience: the app id.
    pub aud: String,
    /// Issued at, unix seconds.
    #[ts(type = "number")]
    pub iat: i64,
    /// Expiry, unix seconds.
    #[ts(type = "number")]
    pub exp: i64,
}

/// Claims of the identity token.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct IdentityTokenClaims {
    /// User id.
    pub sub: String,
    /// Issuer.
    pub iss: String,
    /// Audience: the app id.
    pub aud: String,
    /// Issued at.
    #[ts(type = "number")]
    pub iat: i64,
    /// Expiry.
    #[ts(type = "number")]
    pub exp: i64,
    /// The user's linked accounts as a JSON-encoded array, as the spec's server SDKs expect: each
    /// account as the user object has it, plus the compact names those SDKs read (`lv`: latest
    /// verification; `phone_number`; `oa`: a Farcaster account's owner address).
    pub linked_accounts: String,
    /// When the user was created (Unix seconds, as a string: the SDKs' `cr`).
    pub cr: String,
    /// `"t"` for a guest user, else `"f"`.
    pub guest: String,
    /// The user's custom metadata as a JSON-encoded object (as the SDKs read it); absent when the
    /// host never set any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub custom_metadata: Option<String>,
}
