//! Outgoing SMS: an [`SmsSender`] trait, the Twilio adapter (Twilio's Messages API, or any
//! gateway speaking it, such as the local catcher `tools/stack/src/smsbox.mjs`), a sender for
//! servers without a gateway, the login-code text and E.164 phone-number normalisation.

mod disabled;
mod login_code;
mod phone;
mod twilio;

use crate::error::AppError;
use std::sync::Arc;
use symbolon_protocol::ServerErrorCode;

pub use disabled::DisabledSender;
pub use login_code::login_code_sms;
pub use phone::{PhoneError, normalize_phone};
pub use twilio::TwilioSender;

use crate::config::SmsConfig;

/// Sending an SMS failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SmsError {
    /// No gateway is configured: this server cannot send SMS (SMS login should be off).
    #[error("no SMS gateway is configured")]
    NotConfigured,
    /// The `[sms]` settings are incomplete or unusable (found at start-up).
    #[error("invalid SMS settings: {0}")]
    Config(String),
    /// The gateway refused the recipient (not a valid or not a mobile number, opted out,
    /// unreachable): the user's number is at fault, not the server.
    #[error("the gateway refused the recipient: {0}")]
    Recipient(String),
    /// The gateway failed, refused our credentials, or could not be reached: a server fault.
    #[error("SMS gateway failure: {0}")]
    Gateway(String),
}

/// Something that delivers SMS.
#[async_trait::async_trait]
pub trait SmsSender: Send + Sync {
    /// Sends `body` to `to_e164` (already normalised by [`normalize_phone`]), returning once the
    /// gateway accepted the message.
    async fn send(&self, to_e164: &str, body: &str) -> Result<(), SmsError>;
}

/// The sender `config` asks for: [`TwilioSender`] when an account SID and an auth token are
/// set, else [`DisabledSender`]. Incomplete settings (a SID without a token, neither `from` nor
/// a messaging service) are an error, so a typo does not silently turn SMS off.
pub fn sms_sender_from_config(config: &SmsConfig) -> Result<Arc<dyn SmsSender>, SmsError> {
    let unset = |value: &Option<String>| value.as_deref().is_none_or(str::is_empty);
    let token_unset = config
        .auth_token
        .as_ref()
        .is_none_or(|token| token.0.is_empty());
    if unset(&config.account_sid) && token_unset {
        return Ok(Arc::new(DisabledSender));
    }
    Ok(Arc::new(TwilioSender::new(config)?))
}

impl From<SmsError> for AppError {
    fn from(error: SmsError) -> Self {
        match error {
            // The gateway refused the number: bad input, not a server fault.
            SmsError::Recipient(reason) => {
                tracing::info!(%reason, "SMS recipient refused");
                Self::invalid_data("Invalid phone number")
            }
            SmsError::NotConfigured => Self::new(
                ServerErrorCode::FeatureNotEnabled,
                "This server has no SMS gateway configured",
            ),
            other => Self::internal(&other),
        }
    }
}
