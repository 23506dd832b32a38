//! The sender of a server without an SMS gateway.

use super::{SmsError, SmsSender};

/// Refuses every message with [`SmsError::NotConfigured`].
#[derive(Debug, Clone, Copy, Default)]
pub struct DisabledSender;

#[async_trait::async_trait]
impl SmsSender for DisabledSender {
    async fn send(&self, _to_e164: &str, _body: &str) -> Result<(), SmsError> {
        Err(SmsError::NotConfigured)
    }
}
