//! The client's errors.

use symbolon_protocol::ServerErrorCode;

/// An error code of the server's `{error, code}` body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorCode {
    /// A code this crate's protocol version knows.
    Known(ServerErrorCode),
    /// A code it does not know (a newer server), as sent.
    Other(String),
}

impl ErrorCode {
    /// Parses a wire code.
    pub fn parse(code: &str) -> Self {
        serde_json::from_value(serde_json::Value::String(code.to_string()))
            .map_or_else(|_| Self::Other(code.to_string()), Self::Known)
    }

    /// The wire string, e.g. `"not_found"`.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Known(code) => code.as_str(),
            Self::Other(code) => code,
        }
    }
}

/// What went wrong.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The server answered with an error.
    #[error("HTTP {status} {}: {message}", code.as_str())]
    Api {
        /// The HTTP status.
        status: u16,
        /// The machine-readable code.
        code: ErrorCode,
        /// The message.
        message: String,
    },
    /// The request did not get an answer (connection, timeout, TLS), or the answer was not the
    /// expected JSON.
    #[error("transport: {0}")]
    Transport(String),
    /// A token was refused.
    #[error("invalid token: {0}")]
    InvalidToken(String),
    /// A webhook was refused: not signed by the endpoint's secret, stale, or not JSON.
    #[error("invalid webhook: {0}")]
    InvalidWebhook(String),
    /// The options are unusable (bad URL, client build failure).
    #[error("configuration: {0}")]
    Config(String),
}

impl Error {
    /// Whether the server answered `404` (no such user, or a lookup found nobody).
    pub fn is_not_found(&self) -> bool {
        matches!(self, Self::Api { status: 404, .. })
    }

    /// The error code, for an API error.
    pub fn code(&self) -> Option<&ErrorCode> {
        match self {
            Self::Api { code, .. } => Some(code),
            _ => None,
        }
    }
}

/// Results of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_parse_known_or_keep_the_string() {
        assert_eq!(
            ErrorCode::parse("invalid_credentials"),
            ErrorCode::Known(ServerErrorCode::InvalidCredentials)
        );
        assert_eq!(
            ErrorCode::parse("brand_new"),
            ErrorCode::Other("brand_new".into())
        );
        assert_eq!(ErrorCode::parse("not_found").as_str(), "not_found");
    }
}
