//! Outgoing mail: a [`Mailer`] trait, the SMTP adapter and the login-code message.

mod login_code;
mod smtp;

pub use login_code::login_code_email;

use crate::error::AppError;
pub use smtp::SmtpMailer;

/// Sending failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MailError {
    /// The configuration (or the message built from it) is unusable.
    #[error("invalid mail settings: {0}")]
    Invalid(String),
    /// The recipient address is unusable.
    #[error("invalid recipient: {0}")]
    Recipient(String),
    /// The relay refused or could not be reached.
    #[error("smtp delivery failed: {0}")]
    Transport(String),
}

/// One email with a plain-text and an HTML body.
#[derive(Clone, PartialEq, Eq)]
pub struct OutgoingEmail {
    /// Recipient address.
    pub to: String,
    /// Subject line.
    pub subject: String,
    /// Plain-text body.
    pub text: String,
    /// HTML body.
    pub html: String,
}

impl std::fmt::Debug for OutgoingEmail {
    // Subject and bodies contain the login code; keep them out of logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OutgoingEmail").finish_non_exhaustive()
    }
}

/// Something that delivers email.
#[async_trait::async_trait]
pub trait Mailer: Send + Sync {
    /// Delivers `email`, returning once the relay accepted it.
    async fn send(&self, email: OutgoingEmail) -> Result<(), MailError>;
}

impl From<MailError> for AppError {
    fn from(error: MailError) -> Self {
        match error {
            // The recipient is unusable: bad input, not a server fault.
            MailError::Recipient(reason) => {
                tracing::info!(%reason, "mail recipient refused");
                Self::invalid_data("Invalid email address")
            }
            other => Self::internal(&other),
        }
    }
}
