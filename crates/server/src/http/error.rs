//! The one error type of the HTTP edge: `{error, code}` with a status chosen by code.

use axum::Json;
use axum::extract::rejection::{BytesRejection, JsonRejection, PathRejection};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use symbolon_protocol::{ErrorResponse, ServerErrorCode};

use crate::db::DbError;
use crate::mail::MailError;
use crate::random::RandomError;
use crate::sms::SmsError;
use crate::tokens::TokenError;

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
    pub status: Option<StatusCode>,
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
    pub fn with_status(mut self, status: StatusCode) -> Self {
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

    /// The HTTP status of a code; the one place statuses are chosen.
    pub fn status(code: ServerErrorCode) -> StatusCode {
        use ServerErrorCode as C;
        match code {
            C::InvalidData
            | C::MissingOrInvalidPrivyAppId
            | C::MissingOrInvalidPrivyClientId
            | C::InvalidPkceParameters
            | C::UserDoesNotExist
            | C::CannotSetPassword
            | C::InsufficientFunds
            | C::TransactionBroadcastFailure
            // docs/wallet.md: 400 for the wallet frame and host.
            | C::ResourceAlreadyExists
            | C::DisallowedRecoveryMethod
            | C::CannotUnlinkEmbeddedWallet => StatusCode::BAD_REQUEST,
            C::MissingOrInvalidToken
            | C::InvalidCredentials
            | C::InvalidCaptcha
            | C::MissingOrInvalidMfa
            | C::ExpiredOrInvalidMfaToken
            | C::TokenAlreadyUsed
            | C::AlreadyLoggedOut
            | C::DeviceRevoked => StatusCode::UNAUTHORIZED,
            C::InvalidOrigin
            | C::MissingOrigin
            | C::DisallowedPlusEmail
            | C::DisallowedLoginMethod
            | C::AllowlistRejected
            | C::OauthAccountSuspended
            | C::MissingMfaEnrollment
            | C::FeatureNotEnabled
            | C::PolicyViolation
            | C::SignupDisabled
            | C::MaxAccountsReached
            | C::UserHasNotDelegatedWallet
            | C::AccountTransferRequired => StatusCode::FORBIDDEN,
            C::NotFound | C::LinkedAccountNotFound => StatusCode::NOT_FOUND,
            C::NotSupported => StatusCode::METHOD_NOT_ALLOWED,
            // Only a conflict that a retry may resolve gets 409 (clients retry 409).
            C::ResourceConflict => StatusCode::CONFLICT,
            C::LinkedToAnotherUser | C::CannotUnlinkSoleAccount | C::CannotLinkMoreOfType => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            C::TooManyRequests => StatusCode::TOO_MANY_REQUESTS,
            C::InternalError => StatusCode::INTERNAL_SERVER_ERROR,
            _ => StatusCode::BAD_REQUEST,
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.status.unwrap_or_else(|| Self::status(self.code));
        let body = ErrorResponse {
            error: self.message,
            code: self.code,
            data: self.data,
        };
        let mut response = (status, Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

impl From<JsonRejection> for AppError {
    fn from(rejection: JsonRejection) -> Self {
        too_large(
            rejection.status(),
            Self::invalid_data(rejection.body_text()),
        )
    }
}

impl From<BytesRejection> for AppError {
    fn from(rejection: BytesRejection) -> Self {
        too_large(
            rejection.status(),
            Self::invalid_data(rejection.body_text()),
        )
    }
}

impl From<PathRejection> for AppError {
    fn from(rejection: PathRejection) -> Self {
        Self::invalid_data(rejection.body_text())
    }
}

/// A body over the size limit keeps its 413 (still `invalid_data`); other body errors are 400.
fn too_large(status: StatusCode, error: AppError) -> AppError {
    match status {
        StatusCode::PAYLOAD_TOO_LARGE => error.with_status(status),
        _ => error,
    }
}

impl From<DbError> for AppError {
    fn from(error: DbError) -> Self {
        match error {
            DbError::Conflict { .. } => Self::new(
                ServerErrorCode::ResourceConflict,
                "A concurrent change conflicted; retry",
            ),
            other => Self::internal(&other),
        }
    }
}

impl From<TokenError> for AppError {
    fn from(error: TokenError) -> Self {
        Self::internal(&error)
    }
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

impl From<RandomError> for AppError {
    fn from(error: RandomError) -> Self {
        Self::internal(&error)
    }
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
