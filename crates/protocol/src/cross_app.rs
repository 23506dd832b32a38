//! Cross-app login and signing (spec §3 "Cross-app connection", §4, §7): an app of this server
//! (the provider) lets another app's users sign in with their account and sign with its wallet.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

pub use crate::user::CrossAppWallet;

/// A provider app an app's users may sign in with (spec §3 "Cross-app connection").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CrossAppConnection {
    /// The provider app's id; its OAuth provider name is `privy:{provider_app_id}`.
    pub provider_app_id: String,
    /// Its display name.
    pub provider_app_name: String,
    /// Its icon, if any.
    pub provider_app_icon_url: Option<String>,
    /// The provider's server when it is not this one (null: the client's `apiUrl`).
    pub provider_app_custom_api_url: Option<String>,
    /// Sign-in only: transactions and signatures are refused (spec §6).
    pub read_only: bool,
    /// Where the consent page is, when the provider set its own.
    pub provider_app_custom_auth_authorize_url: Option<String>,
    /// Where the signing page is, when the provider set its own (default `{apiUrl}/oauth/transact`).
    pub provider_app_custom_auth_transact_url: Option<String>,
}

/// `GET /api/v1/apps/{app_id}/cross-app/connections`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CrossAppConnectionsResponse {
    /// The app's providers, in the order its settings list them.
    pub connections: Vec<CrossAppConnection>,
}

/// `GET /api/v1/apps/{app_id}/cross-app/details`: the app as a provider.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CrossAppDetailsResponse {
    /// The app's id.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// Its icon, if any.
    pub icon_url: Option<String>,
    /// Other apps may sign their users in with this one.
    pub allow_as_provider: bool,
    /// Its server when it is not this one.
    pub custom_api_url: Option<String>,
    /// Its own consent page, if any.
    pub custom_auth_authorize_url: Option<String>,
    /// Its own signing page, if any.
    pub custom_auth_transact_url: Option<String>,
}

/// `POST /api/v1/apps/{app_id}/oauth/consent` (the consent page, with the provider app's access
/// token): the user allowed `client_id` to sign in with their account.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CrossAppConsentRequest {
    /// The requesting app's id.
    pub client_id: String,
    /// Where the code goes: exactly `{public_url}/api/v1/oauth/callback`.
    pub redirect_uri: String,
    /// The requester's state, returned unchanged.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// PKCE challenge (RFC 7636), base64url of SHA-256 of the verifier.
    pub code_challenge: String,
    /// Must be `S256`.
    pub code_challenge_method: String,
}

/// The answer to a consent: a single-use authorization code and where to send it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CrossAppConsentResponse {
    /// The code (valid 60 s, once).
    pub code: String,
    /// `redirect_uri?code=…&state=…`.
    pub redirect_to: String,
}

/// `POST /api/v1/apps/{app_id}/oauth/token` (form-encoded, RFC 6749 §4.1.3 with PKCE).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CrossAppTokenRequest {
    /// Must be `authorization_code`.
    pub grant_type: String,
    /// The code of the consent.
    pub code: String,
    /// The redirect URI the code was issued for.
    pub redirect_uri: String,
    /// The requesting app's id.
    pub client_id: String,
    /// The PKCE verifier.
    pub code_verifier: String,
}

/// A provider token: lets the requesting app act for the provider app's user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CrossAppTokenResponse {
    /// Opaque; stored hashed.
    pub access_token: String,
    /// `Bearer`.
    pub token_type: String,
    /// Seconds.
    pub expires_in: u64,
}

/// `GET /api/v1/apps/{app_id}/oauth/userinfo` (Bearer provider token).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CrossAppUserInfo {
    /// The provider app's user id.
    pub sub: String,
    /// The user's embedded wallets on the provider app.
    pub embedded_wallets: Vec<CrossAppWallet>,
    /// The user's smart wallets on the provider app.
    pub smart_wallets: Vec<CrossAppWallet>,
}

/// `GET /api/v1/oauth/transact/context` (Bearer provider token): what the signing page needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CrossAppTransactContext {
    /// The provider app (whose wallet signs).
    pub provider_app_id: String,
    /// Its name.
    pub provider_app_name: String,
    /// The requesting app.
    pub requester_app_id: String,
    /// Its name.
    pub requester_app_name: String,
    /// Origins the answer may be posted to (the requester's allowed origins).
    pub requester_origins: Vec<String>,
    /// The provider app's user the token is for.
    pub user_id: String,
    /// The user's embedded wallets on the provider app.
    pub embedded_wallets: Vec<CrossAppWallet>,
    /// The requester lists the provider as read-only.
    pub read_only: bool,
}
