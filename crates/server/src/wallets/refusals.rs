//! The refusals the wallet rules share.

use symbolon_protocol::ServerErrorCode;

use crate::error::{AppError, Status};

/// A refusal of a wallet proof or device signature (403: the token is fine, the proof is not).
pub fn proof_refused(message: &str) -> AppError {
    AppError::new(ServerErrorCode::InvalidCredentials, message).with_status(Status::Forbidden)
}

/// The step-up refusal: only a fresh sign-in gets the recovery share. `invalid_credentials`,
/// not `missing_or_invalid_mfa`: no MFA code helps here, so the client must not prompt for one.
pub fn sign_in_again() -> AppError {
    proof_refused("Sign in again to recover your wallet on this device")
}

/// No such wallet of this user (`linked_account_not_found`).
pub fn not_found() -> AppError {
    AppError::new(
        ServerErrorCode::LinkedAccountNotFound,
        "No embedded wallet with this address belongs to the user",
    )
}

/// The index or address is taken (`resource_already_exists`).
pub fn already_exists(message: String) -> AppError {
    AppError::new(ServerErrorCode::ResourceAlreadyExists, message)
}
