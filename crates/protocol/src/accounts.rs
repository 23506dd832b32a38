//! Login methods beyond email, and the account calls every method shares: link, unlink, update
//! and transfer (spec §7). Field names are the spec client's, so some are camelCase and some
//! snake_case, exactly as it sends them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::oauth::OAuthUserInfo;
use crate::session::AuthMode;

/// `POST /passwordless/link`: add a verified email to the signed-in user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasswordlessLinkRequest {
    /// The address the code was sent to.
    pub email: String,
    /// The 6-digit code.
    pub code: String,
}

/// `POST /passwordless/unlink`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasswordlessUnlinkRequest {
    /// The linked address to remove.
    pub address: String,
}

/// `POST /passwordless/update`: replace the user's email by a newly verified one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PasswordlessUpdateRequest {
    /// The address linked today.
    pub old_address: String,
    /// The address the code was sent to.
    pub new_address: String,
    /// The 6-digit code sent to `new_address`.
    pub code: String,
}

/// `POST /passwordless_sms/init`: send a code by SMS.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SmsInitRequest {
    /// The number, with its country code (`+1 555…`).
    pub phone_number: String,
    /// Captcha token, when the app uses a captcha.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub token: Option<String>,
}

/// `POST /passwordless_sms/authenticate`: sign in with the texted code.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SmsAuthenticateRequest {
    /// The number the code was sent to.
    pub phone_number: String,
    /// The 6-digit code.
    pub code: String,
    /// Whether sign-up is allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mode: Option<AuthMode>,
}

/// `POST /passwordless_sms/link`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SmsLinkRequest {
    /// The number the code was sent to.
    pub phone_number: String,
    /// The 6-digit code.
    pub code: String,
}

/// `POST /passwordless_sms/unlink`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SmsUnlinkRequest {
    /// The linked number to remove.
    pub phone_number: String,
}

/// `POST /passwordless_sms/update` (snake_case on the wire, as the spec's client sends it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SmsUpdateRequest {
    /// The number linked today.
    pub old_phone_number: String,
    /// The number the code was sent to.
    pub new_phone_number: String,
    /// The 6-digit code sent to `new_phone_number`.
    pub code: String,
}

/// `POST /passwordless/transfer`: move an email that belongs to another user to the caller.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EmailTransferRequest {
    /// The nonce of the `account_transfer_required` refusal.
    pub nonce: String,
    /// The address to move.
    pub email: String,
}

/// `POST /passwordless_sms/transfer`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SmsTransferRequest {
    /// The nonce of the `account_transfer_required` refusal.
    pub nonce: String,
    /// The number to move.
    pub phone_number: String,
}

/// `POST /guest/authenticate`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GuestAuthenticateRequest {
    /// 32 random bytes, base64url, made and kept by the client; the server stores a hash.
    pub guest_credential: String,
}

/// `POST /custom_jwt_account/authenticate`: sign in with a token the host app issued.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CustomJwtAuthenticateRequest {
    /// The host's JWT.
    pub token: String,
    /// Whether sign-up is allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mode: Option<AuthMode>,
}

/// `POST /custom_jwt_account/link`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CustomJwtLinkRequest {
    /// The host's JWT.
    pub token: String,
}

/// The `data` of an `account_transfer_required` refusal: what the client needs to offer the
/// transfer and then prove it with the transfer call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AccountTransferData {
    /// Single-use, short-lived proof that the caller just verified the account.
    pub nonce: String,
    /// The account's type (`email`, `phone`, …).
    pub account_type: String,
    /// The account as shown to the user (the address or number).
    pub display_name: String,
    /// The current owner's first embedded wallet, if any (the user sees what they leave behind).
    pub embedded_wallet_address: Option<String>,
    /// For OAuth accounts: what the provider told, sent back as `userInfo` of `/oauth/transfer`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub oauth_user_info: Option<OAuthUserInfo>,
    /// For wallets: how the caller connected it, sent back as `metadata` of `/siwe/transfer`
    /// or `/siws/transfer`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub external_wallet_metadata: Option<crate::siwe::ExternalWalletMetadata>,
}

/// `login_methods_and_order` of the app configuration (spec §3 `loginMethodsAndOrder`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct LoginMethodsAndOrder {
    /// Shown first, in this order.
    pub primary: Vec<String>,
    /// Behind "More options", in this order.
    pub overflow: Vec<String>,
}
