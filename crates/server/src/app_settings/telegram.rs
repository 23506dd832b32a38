//! Telegram sign-in: the bot (`[telegram]`).

use serde::{Deserialize, Serialize};
use symbolon_protocol::telegram::TelegramAuthConfig;

use crate::app_secrets::SealedSecret;

/// An app's Telegram bot. The token is a secret: it signs every proof, is stored sealed
/// ([`crate::app_secrets`]) and never leaves the server (the app configuration shows only its
/// id).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TelegramSettings {
    /// From @BotFather, `<bot id>:<secret>`; sealed once stored.
    pub bot_token: SealedSecret,
    /// The bot's username (the Login Widget shows it).
    pub bot_name: String,
    /// Inside a Mini App, the client signs in from `initData` without a click.
    pub seamless_auth_enabled: bool,
    /// Oldest `auth_date` accepted, in seconds (default a day, as Telegram suggests for the
    /// widget); an old proof replayed from a log must not sign anyone in.
    pub max_auth_age_s: Option<i64>,
}

impl TelegramSettings {
    /// The public part, for `GET /apps/{id}`, given the opened `bot_token`.
    pub fn public_config(&self, bot_token: &str) -> TelegramAuthConfig {
        TelegramAuthConfig {
            bot_id: bot_token.split(':').next().unwrap_or_default().to_string(),
            bot_name: self.bot_name.trim_start_matches('@').to_string(),
            seamless_auth_enabled: self.seamless_auth_enabled,
            // Linking a Telegram account is served (`/telegram/link`).
            link_enabled: true,
        }
    }

    /// Whether the token as written in the settings file has the `<digits>:<secret>` shape
    /// @BotFather issues.
    pub fn token_is_well_formed(&self) -> bool {
        match self.bot_token.plain().and_then(|t| t.split_once(':')) {
            Some((id, secret)) => {
                !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) && !secret.is_empty()
            }
            None => false,
        }
    }
}
