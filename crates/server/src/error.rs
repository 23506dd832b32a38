//! The error every capability answers with: a spec code (`{error, code}` on the wire) and a
//! readable message. No HTTP here: the edge (`http::error`) picks the status from the code, so a
//! capability can be used without axum.

use symbolon_protocol::ServerErrorCode;

/// A status other than the code's usual one, for the few answers whose context changes it; the
/// edge maps each to its HTTP status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// 400.
    BadRequest,
    /// 403.
    Forbidden,
    /// 408: the request body did not arrive in time.
    RequestTimeout,
    /// 413: the body is over the size limit.
    PayloadTooLarge,
    /// 502: a third party this request depends on failed.
    BadGateway,
    /// 503: the server could not answer in time.
    ServiceUnavailable,
}

/// An error answered to the client. Internal details are logged, never returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppError {
    /// Stable code.
    pub code: ServerErrorCode,
    /// Readable message.
    pub message: String,
    /// Seconds for `Retry-After` (rate limits).
    pub retry_after: Option<u64>,
    /// A status other than the code's usual one (see [`Self::with_status`]).
    pub status: Option<Status>,
    /// Details for the client (the nonce of `account_transfer_required`).
    pub data: Option<serde_json::Value>,
}

impl AppError {
    /// An error with `code` and `message`.
    pub fn new(code: ServerErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            retry_after: None,
            status: None,
            data: None,
        }
    }

    /// Adds details the client acts on.
    pub fn with_data(mut self, data: serde_json::Value) -> Self {
        self.data = Some(data);
        self
    }

    /// Answers with `status` instead of the code's usual one: `not_supported` is 405 for a wrong
    /// method but 400 for a value this server does not support yet.
    pub fn with_status(mut self, status: Status) -> Self {
        self.status = Some(status);
        self
    }

    /// `too_many_requests` with `Retry-After`.
    pub fn rate_limited(retry_after: u64) -> Self {
        Self {
            code: ServerErrorCode::TooManyRequests,
            message: format!("Too many requests. Try again in {retry_after} seconds."),
            retry_after: Some(retry_after),
            status: None,
            data: None,
        }
    }

    /// `missing_or_invalid_token`.
    pub fn invalid_token(message: impl Into<String>) -> Self {
        Self::new(ServerErrorCode::MissingOrInvalidToken, message)
    }

    /// `invalid_data`.
    pub fn invalid_data(message: impl Into<String>) -> Self {
        Self::new(ServerErrorCode::InvalidData, message)
    }

    /// `internal_error`; logs `cause` (which must not contain secrets).
    pub fn internal(cause: &dyn std::error::Error) -> Self {
        tracing::error!(error = %cause, "internal error");
        Self::new(ServerErrorCode::InternalError, "Internal server error")
    }
}
