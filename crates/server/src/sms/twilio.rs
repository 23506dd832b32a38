//! Twilio's Messages API (`POST /2010-04-01/Accounts/{AccountSid}/Messages.json`), which the
//! local catcher speaks too.

use serde::Deserialize;

use super::{SmsError, SmsSender};
use crate::config::SmsConfig;
use crate::outbound_http::{outbound_client, read_capped};

/// Largest gateway answer read (a message resource is about 1 KiB).
const MAX_RESPONSE: usize = 64 * 1024;

/// Twilio error codes that blame the recipient's number, with the reason we report.
/// <https://www.twilio.com/docs/api/errors>
const RECIPIENT_ERRORS: &[(u32, &str)] = &[
    (21211, "not a valid phone number"),
    (21217, "not a valid phone number"),
    (21401, "not a valid phone number"),
    (21407, "the number cannot receive SMS"),
    (21601, "the number cannot receive SMS"),
    (21610, "the number has opted out of messages"),
    (21612, "the number cannot be reached"),
    (21614, "not a mobile number"),
];

/// Sends through Twilio (or a gateway speaking its Messages API) with Basic auth.
pub struct TwilioSender {
    http: reqwest::Client,
    messages_url: String,
    account_sid: String,
    auth_token: String,
    sender: Sender,
}

/// Who the message comes from.
enum Sender {
    From(String),
    MessagingService(String),
}

impl std::fmt::Debug for TwilioSender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TwilioSender")
            .field("messages_url", &self.messages_url)
            .finish_non_exhaustive()
    }
}

/// Twilio's error body: `{code, message, more_info, status}`.
#[derive(Deserialize)]
struct TwilioErrorBody {
    code: Option<u32>,
    message: Option<String>,
}

impl TwilioSender {
    /// A sender for `config`; needs `account_sid`, `auth_token` and `from` or
    /// `messaging_service_sid`.
    pub fn new(config: &SmsConfig) -> Result<Self, SmsError> {
        let account_sid = present(config.account_sid.as_deref())
            .ok_or_else(|| SmsError::Config("account_sid is not set".into()))?;
        if !account_sid.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(SmsError::Config(
                "account_sid must be letters and digits".into(),
            ));
        }
        let auth_token = present(config.auth_token.as_ref().map(|t| t.0.as_str()))
            .ok_or_else(|| SmsError::Config("auth_token is not set".into()))?;
        let sender = match (
            present(config.messaging_service_sid.as_deref()),
            present(config.from.as_deref()),
        ) {
            (Some(service), _) => Sender::MessagingService(service.to_string()),
            (None, Some(from)) => Sender::From(from.to_string()),
            (None, None) => {
                return Err(SmsError::Config("set from or messaging_service_sid".into()));
            }
        };
        let base = config.api_base_url.trim().trim_end_matches('/');
        if !(base.starts_with("https://") || base.starts_with("http://")) {
            return Err(SmsError::Config(
                "api_base_url must be an http(s) URL".into(),
            ));
        }
        let http = outbound_client().map_err(|error| SmsError::Config(error.to_string()))?;
        Ok(Self {
            http,
            messages_url: format!("{base}/2010-04-01/Accounts/{account_sid}/Messages.json"),
            account_sid: account_sid.to_string(),
            auth_token: auth_token.to_string(),
            sender,
        })
    }
}

#[async_trait::async_trait]
impl SmsSender for TwilioSender {
    async fn send(&self, to_e164: &str, body: &str) -> Result<(), SmsError> {
        let mut form = vec![("To", to_e164), ("Body", body)];
        match &self.sender {
            Sender::From(from) => form.push(("From", from)),
            Sender::MessagingService(sid) => form.push(("MessagingServiceSid", sid)),
        }
        let response = self
            .http
            .post(&self.messages_url)
            .basic_auth(&self.account_sid, Some(&self.auth_token))
            .form(&form)
            .send()
            .await
            .map_err(|error| SmsError::Gateway(error.without_url().to_string()))?;
        let status = response.status();
        if status.is_success() {
            return Ok(());
        }
        let bytes = read_capped(response, MAX_RESPONSE)
            .await
            .unwrap_or_default();
        Err(classify_failure(status.as_u16(), &bytes))
    }
}

/// `value` trimmed, unless it is missing or blank.
fn present(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|v| !v.is_empty())
}

/// Maps a refused request to [`SmsError::Recipient`] (the number's fault) or
/// [`SmsError::Gateway`] (ours or the gateway's).
fn classify_failure(status: u16, body: &[u8]) -> SmsError {
    let parsed: Option<TwilioErrorBody> = serde_json::from_slice(body).ok();
    let code = parsed.as_ref().and_then(|b| b.code);
    if status == 400
        && let Some((_, reason)) = code.and_then(|c| RECIPIENT_ERRORS.iter().find(|(k, _)| *k == c))
    {
        return SmsError::Recipient((*reason).to_string());
    }
    // Twilio's messages for these codes name no recipient; cut them short anyway.
    let message: String = parsed
        .and_then(|b| b.message)
        .unwrap_or_default()
        .chars()
        .take(200)
        .collect();
    match code {
        Some(code) => SmsError::Gateway(format!("HTTP {status}, code {code}: {message}")),
        None => SmsError::Gateway(format!("HTTP {status}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Redacted;

    #[test]
    fn bad_numbers_are_the_recipients_fault() {
        let body = br#"{"code": 21211, "message": "The 'To' number +1 is not a valid phone number.", "more_info": "https://www.twilio.com/docs/errors/21211", "status": 400}"#;
        assert_eq!(
            classify_failure(400, body),
            SmsError::Recipient("not a valid phone number".into())
        );
        let body = br#"{"code": 21614, "message": "not a mobile number", "status": 400}"#;
        assert_eq!(
            classify_failure(400, body),
            SmsError::Recipient("not a mobile number".into())
        );
    }

    #[test]
    fn everything_else_is_a_gateway_failure() {
        let body = br#"{"code": 20003, "message": "Authenticate", "status": 401}"#;
        assert_eq!(
            classify_failure(401, body),
            SmsError::Gateway("HTTP 401, code 20003: Authenticate".into())
        );
        assert_eq!(
            classify_failure(502, b"<html>bad gateway</html>"),
            SmsError::Gateway("HTTP 502".into())
        );
    }

    #[test]
    fn settings_are_checked_up_front() {
        let full = SmsConfig {
            api_base_url: "https://api.twilio.com/".into(),
            account_sid: Some("AC123".into()),
            auth_token: Some(Redacted("token".into())),
            from: Some("+12015550123".into()),
            messaging_service_sid: None,
        };
        let sender = TwilioSender::new(&full).expect("sender");
        assert_eq!(
            sender.messages_url,
            "https://api.twilio.com/2010-04-01/Accounts/AC123/Messages.json"
        );
        assert!(!format!("{sender:?}").contains("token"));
        for broken in [
            SmsConfig {
                auth_token: None,
                ..full.clone()
            },
            SmsConfig {
                from: None,
                ..full.clone()
            },
            SmsConfig {
                account_sid: Some("AC/../x".into()),
                ..full.clone()
            },
            SmsConfig {
                api_base_url: "ftp://x".into(),
                ..full.clone()
            },
        ] {
            assert!(matches!(
                TwilioSender::new(&broken),
                Err(SmsError::Config(_))
            ));
        }
    }
}
