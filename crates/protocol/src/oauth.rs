//! OAuth login (spec §7 "OAuth"): init, the provider's return, authenticate, link, unlink and
//! transfer. One shape for every provider: the built-in ones (`google`, `github`, …), an
//! operator's `custom:<name>` providers and other apps of this server (`privy:<app id>`).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::session::AuthMode;

/// `POST /oauth/init`: start an authorization with the client's PKCE challenge.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OAuthInitRequest {
    /// Where the provider's answer is sent back to (an allowed origin of the app).
    pub redirect_to: String,
    /// `google`, `github`, …, `custom:<name>` or `privy:<app id>`.
    pub provider: String,
    /// base64url(SHA-256(code_verifier)) (PKCE S256).
    pub code_challenge: String,
    /// The client's state; it comes back as `privy_oauth_state`.
    pub state_code: String,
}

/// The answer to `POST /oauth/init`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OAuthInitResponse {
    /// The provider's authorization page to open (popup or redirect).
    pub url: String,
}

/// `POST /oauth/authenticate`: sign in with the code the provider returned.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OAuthAuthenticateRequest {
    /// `privy_oauth_code` from the return address.
    pub authorization_code: String,
    /// Kind of code (sent by some clients; only authorization codes are accepted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub code_type: Option<String>,
    /// `privy_oauth_state`, equal to the state the client sent to init.
    pub state_code: String,
    /// The PKCE verifier whose challenge the client sent to init.
    pub code_verifier: String,
    /// The provider, as sent to init.
    pub provider: String,
    /// Whether sign-up is allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mode: Option<AuthMode>,
}

/// `POST /oauth/link`: link the provider account to the signed-in user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OAuthLinkRequest {
    /// `privy_oauth_code` from the return address.
    pub authorization_code: String,
    /// Kind of code (only authorization codes are accepted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub code_type: Option<String>,
    /// `privy_oauth_state`.
    pub state_code: String,
    /// The PKCE verifier.
    pub code_verifier: String,
    /// The provider, as sent to init.
    pub provider: String,
}

/// `POST /oauth/unlink`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OAuthUnlinkRequest {
    /// The provider of the account to remove.
    pub provider: String,
    /// The provider's subject of the account to remove.
    pub subject: String,
}

/// What the provider told about the user: in `account_transfer_required` data and in
/// `POST /oauth/transfer`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OAuthUserInfo {
    /// The provider (`google`, `custom:<name>`, `privy:<app id>`).
    pub provider: String,
    /// The provider's id of the user.
    pub subject: String,
    /// Email, when the provider gives one.
    #[serde(default)]
    pub email: Option<String>,
    /// Display name, when the provider gives one.
    #[serde(default)]
    pub name: Option<String>,
    /// Handle, when the provider has them.
    #[serde(default)]
    pub username: Option<String>,
}

/// `POST /oauth/transfer`: move a provider account from its owner to the caller.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OAuthTransferRequest {
    /// The nonce of the `account_transfer_required` refusal.
    pub nonce: String,
    /// The `oauth_user_info` of that refusal (provider and subject name the account).
    #[serde(rename = "userInfo")]
    #[ts(rename = "userInfo")]
    pub user_info: OAuthUserInfo,
}

/// A custom provider as the app configuration lists it (spec §3 `customOAuthProviders`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CustomOAuthProviderConfig {
    /// `custom:<name>`.
    pub provider: String,
    /// Button label.
    pub provider_display_name: String,
    /// Button icon.
    pub provider_icon_url: Option<String>,
    /// Always true for listed providers.
    pub enabled: bool,
}
