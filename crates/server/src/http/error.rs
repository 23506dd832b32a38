//! The one place statuses are chosen: an [`AppError`]'s code (or its [`Status`] override) becomes
//! the HTTP status of a `{error, code}` answer; axum's own rejections become `invalid_data`.

use axum::Json;
use axum::extract::rejection::{BytesRejection, JsonRejection, PathRejection};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use symbolon_protocol::{ErrorResponse, ServerErrorCode};

pub use crate::error::{AppError, Status};

/// The HTTP status of a code.
pub fn status_of(code: ServerErrorCode) -> StatusCode {
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

/// The HTTP status of an override.
fn http_status(status: Status) -> StatusCode {
    match status {
        Status::BadRequest => StatusCode::BAD_REQUEST,
        Status::Forbidden => StatusCode::FORBIDDEN,
        Status::RequestTimeout => StatusCode::REQUEST_TIMEOUT,
        Status::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        Status::BadGateway => StatusCode::BAD_GATEWAY,
        Status::ServiceUnavailable => StatusCode::SERVICE_UNAVAILABLE,
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self
            .status
            .map_or_else(|| status_of(self.code), http_status);
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
        StatusCode::PAYLOAD_TOO_LARGE => error.with_status(Status::PayloadTooLarge),
        _ => error,
    }
}
