//! The signer's refusals: a spec error code (spec §8) and a message for people, sent to the main
//! server as `{error, code}`, which answers its caller with the same code.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::errors::ErrorResponse;

use crate::authorization::AuthorizationError;

/// A refusal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code:?}: {message}")]
pub struct SignerError {
    /// The spec code.
    pub code: ServerErrorCode,
    /// For people.
    pub message: String,
}

impl SignerError {
    /// A refusal with `code`.
    pub fn new(code: ServerErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }

    /// `invalid_data`.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(ServerErrorCode::InvalidData, message)
    }

    /// `invalid_credentials`: the request is not authorized.
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(ServerErrorCode::InvalidCredentials, message)
    }

    /// `internal_error`, logged; the message says nothing of the cause.
    pub fn internal(cause: &dyn std::error::Error) -> Self {
        tracing::error!(error = %cause, "signer internal error");
        Self::new(ServerErrorCode::InternalError, "The signer failed")
    }

    fn status(&self) -> StatusCode {
        match self.code {
            ServerErrorCode::InvalidCredentials => StatusCode::UNAUTHORIZED,
            ServerErrorCode::PolicyViolation => StatusCode::FORBIDDEN,
            ServerErrorCode::InternalError => StatusCode::INTERNAL_SERVER_ERROR,
            _ => StatusCode::BAD_REQUEST,
        }
    }
}

impl From<AuthorizationError> for SignerError {
    fn from(error: AuthorizationError) -> Self {
        match error {
            AuthorizationError::Expiry(message) => Self::invalid(message),
            AuthorizationError::Signatures(message) => Self::unauthorized(message),
            error @ AuthorizationError::Canonical(_) => Self::invalid(error.to_string()),
        }
    }
}

impl From<sqlx::Error> for SignerError {
    fn from(error: sqlx::Error) -> Self {
        Self::internal(&error)
    }
}

impl IntoResponse for SignerError {
    fn into_response(self) -> Response {
        let body = ErrorResponse {
            error: self.message.clone(),
            code: self.code,
            data: None,
        };
        (self.status(), Json(body)).into_response()
    }
}
