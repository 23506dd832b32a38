//! Telegram's two signed proofs, checked offline with the bot token:
//! - Login Widget (<https://core.telegram.org/widgets/login#checking-authorization>): the
//!   data-check-string is every received field but `hash`, as sorted `key=value` lines joined by
//!   `\n`; `hash` is its HMAC-SHA256 hex under the key SHA-256(bot_token).
//! - Mini App `initData` (<https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app>):
//!   the same data-check-string over the URL-decoded fields; the key is
//!   HMAC-SHA256(key "WebAppData", message bot_token).
//!
//! Both then need a recent `auth_date` that is not in the future.

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};
use symbolon_protocol::telegram::{TelegramAuthResult, TelegramWebAppData};

type HmacSha256 = Hmac<Sha256>;

/// Seconds a signed `auth_date` may lie ahead of our clock (clock skew).
const FUTURE_SKEW_S: i64 = 60;

/// Why a proof was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TelegramCheckError {
    /// The hash does not match the fields under this bot's key (tampered, or another bot).
    #[error("Telegram auth data has an invalid hash")]
    BadHash,
    /// `auth_date` is older than the app accepts.
    #[error("Telegram auth data is too old")]
    TooOld,
    /// `auth_date` is ahead of the server's clock.
    #[error("Telegram auth data is dated in the future")]
    FromTheFuture,
    /// A field is missing or unreadable.
    #[error("Telegram auth data is malformed: {0}")]
    Malformed(&'static str),
}

/// The Telegram user a proof names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TelegramUser {
    /// The user id, in decimal.
    pub id: String,
    /// First name.
    pub first_name: Option<String>,
    /// Last name.
    pub last_name: Option<String>,
    /// Username.
    pub username: Option<String>,
    /// Profile picture.
    pub photo_url: Option<String>,
    /// When Telegram signed the proof (unix seconds): a proof replays until it is too old, so
    /// only a recent one makes a fresh sign-in (`accounts::Proof::MadeAt`).
    pub auth_date: i64,
}

/// Checks a Login Widget result against `bot_token`.
pub fn check_login_widget(
    result: &TelegramAuthResult,
    bot_token: &str,
    now: i64,
    max_age_s: i64,
) -> Result<TelegramUser, TelegramCheckError> {
    let mut fields = vec![
        ("auth_date", result.auth_date.to_string()),
        ("id", result.id.to_string()),
    ];
    for (key, value) in [
        ("first_name", &result.first_name),
        ("last_name", &result.last_name),
        ("username", &result.username),
        ("photo_url", &result.photo_url),
    ] {
        if let Some(value) = value {
            fields.push((key, value.clone()));
        }
    }
    let key = Sha256::digest(bot_token.as_bytes());
    verify_hash(&key, fields, &result.hash)?;
    check_age(result.auth_date, now, max_age_s)?;
    Ok(TelegramUser {
        id: result.id.to_string(),
        first_name: result.first_name.clone(),
        last_name: result.last_name.clone(),
        username: result.username.clone(),
        photo_url: result.photo_url.clone(),
        auth_date: result.auth_date,
    })
}

/// Checks a Mini App's `initData` fields against `bot_token`.
pub fn check_web_app_data(
    data: &TelegramWebAppData,
    bot_token: &str,
    now: i64,
    max_age_s: i64,
) -> Result<TelegramUser, TelegramCheckError> {
    let mut hash = None;
    let mut fields = Vec::with_capacity(data.len());
    for (key, value) in data {
        // Telegram signs the text of each field; a client may have sent numbers as numbers.
        let text = match value {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Number(n) => n.to_string(),
            serde_json::Value::Bool(b) => b.to_string(),
            _ => return Err(TelegramCheckError::Malformed("a field is not text")),
        };
        if key == "hash" {
            hash = Some(text);
        } else {
            fields.push((key.as_str(), text));
        }
    }
    let hash = hash.ok_or(TelegramCheckError::Malformed("hash is missing"))?;
    let mut key = <HmacSha256 as Mac>::new_from_slice(b"WebAppData")
        .map_err(|_| TelegramCheckError::Malformed("key"))?;
    key.update(bot_token.as_bytes());
    let key = key.finalize().into_bytes();
    let text = |name: &str| {
        fields
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    };
    let auth_date = text("auth_date")
        .and_then(|d| d.parse::<i64>().ok())
        .ok_or(TelegramCheckError::Malformed("auth_date is missing"))?;
    let user: serde_json::Value = text("user")
        .and_then(|u| serde_json::from_str(u).ok())
        .ok_or(TelegramCheckError::Malformed("user is missing"))?;
    verify_hash(&key, fields.clone(), &hash)?;
    check_age(auth_date, now, max_age_s)?;
    let id = user["id"]
        .as_i64()
        .ok_or(TelegramCheckError::Malformed("user.id is missing"))?;
    let field = |name: &str| user[name].as_str().map(str::to_string);
    Ok(TelegramUser {
        id: id.to_string(),
        first_name: field("first_name"),
        last_name: field("last_name"),
        username: field("username"),
        photo_url: field("photo_url"),
        auth_date,
    })
}

/// The data-check-string of `fields` (sorted `key=value` lines).
fn data_check_string(mut fields: Vec<(&str, String)>) -> String {
    fields.sort_by(|a, b| a.0.cmp(b.0));
    fields
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// HMAC-SHA256 of the data-check-string under `key`, compared with `hash` in constant time.
fn verify_hash(
    key: &[u8],
    fields: Vec<(&str, String)>,
    hash: &str,
) -> Result<(), TelegramCheckError> {
    let expected = crate::digest::unhex(hash.trim()).ok_or(TelegramCheckError::BadHash)?;
    let mut mac =
        <HmacSha256 as Mac>::new_from_slice(key).map_err(|_| TelegramCheckError::BadHash)?;
    mac.update(data_check_string(fields).as_bytes());
    mac.verify_slice(&expected)
        .map_err(|_| TelegramCheckError::BadHash)
}

fn check_age(auth_date: i64, now: i64, max_age_s: i64) -> Result<(), TelegramCheckError> {
    if auth_date > now + FUTURE_SKEW_S {
        return Err(TelegramCheckError::FromTheFuture);
    }
    if now - auth_date > max_age_s {
        return Err(TelegramCheckError::TooOld);
    }
    Ok(())
}

/// Signs fields the way Telegram does; for tests (widget: `web_app = false`).
#[cfg(test)]
pub(crate) fn sign_for_test(fields: Vec<(&str, String)>, bot_token: &str, web_app: bool) -> String {
    let key: Vec<u8> = if web_app {
        let mut key =
            <HmacSha256 as Mac>::new_from_slice(b"WebAppData").unwrap_or_else(|_| unreachable!());
        key.update(bot_token.as_bytes());
        key.finalize().into_bytes().to_vec()
    } else {
        Sha256::digest(bot_token.as_bytes()).to_vec()
    };
    let mut mac = <HmacSha256 as Mac>::new_from_slice(&key).unwrap_or_else(|_| unreachable!());
    mac.update(data_check_string(fields).as_bytes());
    crate::digest::hex(&mac.finalize().into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOT: &str = "123456:ABC-test-token";
    const NOW: i64 = 1_800_000_000;

    fn widget(auth_date: i64, token: &str) -> TelegramAuthResult {
        let mut result = TelegramAuthResult {
            id: 42,
            first_name: Some("Ada".into()),
            last_name: None,
            username: Some("ada".into()),
            photo_url: None,
            auth_date,
            hash: String::new(),
        };
        result.hash = sign_for_test(
            vec![
                ("id", "42".into()),
                ("first_name", "Ada".into()),
                ("username", "ada".into()),
                ("auth_date", auth_date.to_string()),
            ],
            token,
            false,
        );
        result
    }

    #[test]
    fn a_widget_result_is_checked_with_the_bot_token() {
        let user = check_login_widget(&widget(NOW - 10, BOT), BOT, NOW, 86_400);
        assert_eq!(user.map(|u| u.id), Ok("42".into()));
        let mut tampered = widget(NOW - 10, BOT);
        tampered.username = Some("eve".into());
        assert_eq!(
            check_login_widget(&tampered, BOT, NOW, 86_400),
            Err(TelegramCheckError::BadHash)
        );
        let other_bot = widget(NOW - 10, "999:other");
        assert_eq!(
            check_login_widget(&other_bot, BOT, NOW, 86_400),
            Err(TelegramCheckError::BadHash)
        );
        assert_eq!(
            check_login_widget(&widget(NOW - 90_000, BOT), BOT, NOW, 86_400),
            Err(TelegramCheckError::TooOld)
        );
        assert_eq!(
            check_login_widget(&widget(NOW + 600, BOT), BOT, NOW, 86_400),
            Err(TelegramCheckError::FromTheFuture)
        );
    }

    #[test]
    fn init_data_is_checked_with_the_web_app_key() {
        let user = r#"{"id":7,"first_name":"Grace","username":"grace"}"#;
        let fields = vec![
            ("auth_date", NOW.to_string()),
            ("query_id", "AAE".to_string()),
            ("user", user.to_string()),
        ];
        let mut data = TelegramWebAppData::new();
        for (k, v) in &fields {
            data.insert((*k).into(), serde_json::Value::String(v.clone()));
        }
        data.insert(
            "hash".into(),
            sign_for_test(fields.clone(), BOT, true).into(),
        );
        let checked = check_web_app_data(&data, BOT, NOW, 86_400);
        assert_eq!(
            checked.map(|u| (u.id, u.username)),
            Ok(("7".into(), Some("grace".into())))
        );
        // The widget's key does not sign Mini App data.
        data.insert("hash".into(), sign_for_test(fields, BOT, false).into());
        assert_eq!(
            check_web_app_data(&data, BOT, NOW, 86_400),
            Err(TelegramCheckError::BadHash)
        );
    }
}
