//! Login with Telegram (spec §3, §4, §7): the Login Widget's signed result on the web, or a Mini
//! App's signed `initData` inside Telegram. Both are HMAC-signed with a key derived from the app's
//! bot token, so the server checks them offline.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::session::AuthMode;

/// What Telegram's Login Widget hands the page (`auth_result` of its popup message), signed by
/// Telegram with the bot token.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TelegramAuthResult {
    /// The Telegram user id.
    #[ts(type = "number")]
    pub id: i64,
    /// First name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub first_name: Option<String>,
    /// Last name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub last_name: Option<String>,
    /// Username, without the `@`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub username: Option<String>,
    /// Profile picture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub photo_url: Option<String>,
    /// When Telegram signed it, unix seconds.
    #[ts(type = "number")]
    pub auth_date: i64,
    /// Hex HMAC-SHA256 of the other fields.
    pub hash: String,
}

/// A Mini App's `initData`, URL-decoded into its fields (`user` stays the JSON text Telegram
/// signed). Every field but `hash` is signed, so the map keeps them all.
pub type TelegramWebAppData = BTreeMap<String, serde_json::Value>;

/// `POST /telegram/authenticate`: one of the two proofs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TelegramAuthenticateRequest {
    /// The Login Widget's result (web).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub telegram_auth_result: Option<TelegramAuthResult>,
    /// The Mini App's `initData` fields (inside Telegram).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Record<string, string | number>")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub telegram_web_app_data: Option<TelegramWebAppData>,
    /// Whether sign-up is allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mode: Option<AuthMode>,
    /// Captcha token, when the app uses a captcha.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub captcha_token: Option<String>,
}

/// `POST /telegram/link`: one of the two proofs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TelegramLinkRequest {
    /// The Login Widget's result (web).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub telegram_auth_result: Option<TelegramAuthResult>,
    /// The Mini App's `initData` fields (inside Telegram).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Record<string, string | number>")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub telegram_web_app_data: Option<TelegramWebAppData>,
}

/// `POST /telegram/unlink`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TelegramUnlinkRequest {
    /// The linked Telegram user id.
    pub telegram_user_id: String,
}

/// `POST /telegram/transfer` (spec §7): the nonce of `account_transfer_required` and the proof
/// again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TelegramTransferRequest {
    /// The nonce of the `account_transfer_required` refusal.
    pub nonce: String,
    /// The Login Widget's result (web).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub telegram_auth_result: Option<TelegramAuthResult>,
    /// The Mini App's `initData` fields (inside Telegram).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Record<string, string | number>")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub telegram_web_app_data: Option<TelegramWebAppData>,
}

/// `telegram_auth_config` of the app configuration (spec §3 `telegramAuthConfiguration`). The bot
/// token stays on the server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TelegramAuthConfig {
    /// The bot's id (the bot token before `:`), for the Login Widget's `bot_id`.
    pub bot_id: String,
    /// The bot's username.
    pub bot_name: String,
    /// Inside a Mini App, sign in from its `initData` without a click.
    pub seamless_auth_enabled: bool,
    /// Telegram accounts may be linked to a signed-in user.
    #[serde(default)]
    pub link_enabled: bool,
}
