//! Error codes (spec §8). Every error crossing a boundary carries one of these stable codes.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The body of every error response: `{"error": "<message>", "code": "<code>"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorResponse {
    /// A message a person can read.
    pub error: String,
    /// The stable machine-readable code.
    pub code: ServerErrorCode,
    /// Details some refusals carry: `account_transfer_required` has an
    /// [`AccountTransferData`](crate::accounts::AccountTransferData).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub data: Option<serde_json::Value>,
}

/// Server error codes (spec §8). The wire string is the snake_case variant name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ServerErrorCode {
    /// The OAuth provider reports the account as suspended.
    OauthAccountSuspended,
    /// `privy-app-id` is missing or names no app.
    MissingOrInvalidPrivyAppId,
    /// `privy-client-id` names no client of the app.
    MissingOrInvalidPrivyClientId,
    /// The access or refresh token is missing, malformed, expired, revoked or for another app.
    MissingOrInvalidToken,
    /// The operation needs MFA but the user has none enrolled.
    MissingMfaEnrollment,
    /// The operation needs a fresh MFA verification.
    MissingOrInvalidMfa,
    /// The MFA token is expired or wrong.
    ExpiredOrInvalidMfaToken,
    /// The request body or a parameter is malformed.
    InvalidData,
    /// A code, signature or credential was wrong.
    InvalidCredentials,
    /// The captcha token was refused.
    InvalidCaptcha,
    /// The account is already linked to another user.
    LinkedToAnotherUser,
    /// The app's allowlist refused this user.
    AllowlistRejected,
    /// Embedded wallets cannot be unlinked.
    CannotUnlinkEmbeddedWallet,
    /// The user's only account cannot be unlinked.
    CannotUnlinkSoleAccount,
    /// The user already has the maximum accounts of this type.
    CannotLinkMoreOfType,
    /// No such linked account.
    LinkedAccountNotFound,
    /// Rate limited; see `Retry-After`.
    TooManyRequests,
    /// A concurrent change conflicted; retrying may succeed.
    ResourceConflict,
    /// The request's `Origin` is not allowed for the app.
    InvalidOrigin,
    /// The request has no `Origin` where one is required.
    MissingOrigin,
    /// A single-use token was used again.
    TokenAlreadyUsed,
    /// The session is already logged out.
    AlreadyLoggedOut,
    /// The operation is not supported here.
    NotSupported,
    /// The app reached its user limit.
    MaxAccountsReached,
    /// The device was revoked.
    DeviceRevoked,
    /// The app does not allow this login method.
    DisallowedLoginMethod,
    /// The app refuses plus-addressed emails.
    DisallowedPlusEmail,
    /// The app does not allow this recovery method.
    DisallowedRecoveryMethod,
    /// A password cannot be set here.
    CannotSetPassword,
    /// The PKCE verifier does not match the challenge.
    InvalidPkceParameters,
    /// No such user (and sign-up was not requested).
    UserDoesNotExist,
    /// The resource already exists.
    ResourceAlreadyExists,
    /// The account must be transferred from another user first.
    AccountTransferRequired,
    /// The user has not delegated this wallet.
    UserHasNotDelegatedWallet,
    /// The app has not enabled this feature.
    FeatureNotEnabled,
    /// The wallet cannot pay for the transaction.
    InsufficientFunds,
    /// The chain refused the transaction.
    TransactionBroadcastFailure,
    /// A policy refused the request.
    PolicyViolation,
    /// The app does not accept new users.
    SignupDisabled,
    /// No such route or resource.
    NotFound,
    /// An unexpected failure on the server; details are in its log, not the response.
    InternalError,
}

impl ServerErrorCode {
    /// The wire string, e.g. `"missing_or_invalid_token"`.
    pub fn as_str(self) -> &'static str {
        ALL_SERVER_CODES
            .iter()
            .find(|(code, _)| *code == self)
            .map_or("internal_error", |(_, wire)| wire)
    }
}

/// Every server code with its wire string, for generation and exhaustive tests.
pub const ALL_SERVER_CODES: &[(ServerErrorCode, &str)] = &[
    (
        ServerErrorCode::OauthAccountSuspended,
        "oauth_account_suspended",
    ),
    (
        ServerErrorCode::MissingOrInvalidPrivyAppId,
        "missing_or_invalid_privy_app_id",
    ),
    (
        ServerErrorCode::MissingOrInvalidPrivyClientId,
        "missing_or_invalid_privy_client_id",
    ),
    (
        ServerErrorCode::MissingOrInvalidToken,
        "missing_or_invalid_token",
    ),
    (
        ServerErrorCode::MissingMfaEnrollment,
        "missing_mfa_enrollment",
    ),
    (
        ServerErrorCode::MissingOrInvalidMfa,
        "missing_or_invalid_mfa",
    ),
    (
        ServerErrorCode::ExpiredOrInvalidMfaToken,
        "expired_or_invalid_mfa_token",
    ),
    (ServerErrorCode::InvalidData, "invalid_data"),
    (ServerErrorCode::InvalidCredentials, "invalid_credentials"),
    (ServerErrorCode::InvalidCaptcha, "invalid_captcha"),
    (
        ServerErrorCode::LinkedToAnotherUser,
        "linked_to_another_user",
    ),
    (ServerErrorCode::AllowlistRejected, "allowlist_rejected"),
    (
        ServerErrorCode::CannotUnlinkEmbeddedWallet,
        "cannot_unlink_embedded_wallet",
    ),
    (
        ServerErrorCode::CannotUnlinkSoleAccount,
        "cannot_unlink_sole_account",
    ),
    (
        ServerErrorCode::CannotLinkMoreOfType,
        "cannot_link_more_of_type",
    ),
    (
        ServerErrorCode::LinkedAccountNotFound,
        "linked_account_not_found",
    ),
    (ServerErrorCode::TooManyRequests, "too_many_requests"),
    (ServerErrorCode::ResourceConflict, "resource_conflict"),
    (ServerErrorCode::InvalidOrigin, "invalid_origin"),
    (ServerErrorCode::MissingOrigin, "missing_origin"),
    (ServerErrorCode::TokenAlreadyUsed, "token_already_used"),
    (ServerErrorCode::AlreadyLoggedOut, "already_logged_out"),
    (ServerErrorCode::NotSupported, "not_supported"),
    (ServerErrorCode::MaxAccountsReached, "max_accounts_reached"),
    (ServerErrorCode::DeviceRevoked, "device_revoked"),
    (
        ServerErrorCode::DisallowedLoginMethod,
        "disallowed_login_method",
    ),
    (
        ServerErrorCode::DisallowedPlusEmail,
        "disallowed_plus_email",
    ),
    (
        ServerErrorCode::DisallowedRecoveryMethod,
        "disallowed_recovery_method",
    ),
    (ServerErrorCode::CannotSetPassword, "cannot_set_password"),
    (
        ServerErrorCode::InvalidPkceParameters,
        "invalid_pkce_parameters",
    ),
    (ServerErrorCode::UserDoesNotExist, "user_does_not_exist"),
    (
        ServerErrorCode::ResourceAlreadyExists,
        "resource_already_exists",
    ),
    (
        ServerErrorCode::AccountTransferRequired,
        "account_transfer_required",
    ),
    (
        ServerErrorCode::UserHasNotDelegatedWallet,
        "user_has_not_delegated_wallet",
    ),
    (ServerErrorCode::FeatureNotEnabled, "feature_not_enabled"),
    (ServerErrorCode::InsufficientFunds, "insufficient_funds"),
    (
        ServerErrorCode::TransactionBroadcastFailure,
        "transaction_broadcast_failure",
    ),
    (ServerErrorCode::PolicyViolation, "policy_violation"),
    (ServerErrorCode::SignupDisabled, "signup_disabled"),
    (ServerErrorCode::NotFound, "not_found"),
    (ServerErrorCode::InternalError, "internal_error"),
];

/// Client-side error codes (spec §8), raised by `packages/core` without a server round trip.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ClientErrorCode {
    /// Browser storage is unavailable.
    StorageError,
    /// A wallet call was made before login.
    AttemptedRpcCallBeforeLoggedIn,
    /// The OAuth state returned does not match the stored one.
    PkceStateCodeMismatch,
    /// The wallet frame refused or failed a request.
    EmbeddedWalletRequestError,
    /// The wallet frame failed to create a wallet.
    EmbeddedWalletCreationError,
    /// Wallet recovery failed or timed out.
    EmbeddedWalletRecoveryError,
    /// The recovery method is not supported.
    UnsupportedRecoveryMethod,
    /// No MFA code arrived in time.
    MfaTimeout,
    /// Too many MFA attempts.
    MfaVerificationMaxAttemptsReached,
    /// MFA verification failed.
    MissingOrInvalidMfa,
    /// An argument was invalid.
    InvalidInput,
    /// The wallet type is not supported.
    UnsupportedWalletType,
    /// The user signer failed to sign.
    UserSignerSignError,
    /// The server could not be reached or did not answer in time.
    NetworkError,
    /// The wallet frame has no usable device share of the wallet: recover it
    /// (`privy:wallets:connect`; the published client's frame protocol).
    WalletNotOnDevice,
}

impl ClientErrorCode {
    /// The spec's message for this code, where §8 gives one.
    pub fn default_message(self) -> &'static str {
        match self {
            Self::StorageError => "Unable to access storage",
            Self::AttemptedRpcCallBeforeLoggedIn => "Missing access token",
            Self::PkceStateCodeMismatch => "Unexpected auth flow. This may be a phishing attempt.",
            Self::EmbeddedWalletRequestError => "Embedded wallet request failed",
            Self::EmbeddedWalletCreationError => "Embedded wallet creation failed",
            Self::EmbeddedWalletRecoveryError => "User-owned recovery timed out",
            Self::UnsupportedRecoveryMethod => "Unsupported recovery method",
            Self::MfaTimeout => "Timed out waiting for MFA code",
            Self::MfaVerificationMaxAttemptsReached => "Max MFA verification attempts reached",
            Self::MissingOrInvalidMfa => "MFA verification failed, retry.",
            Self::InvalidInput => "Invalid input",
            Self::UnsupportedWalletType => "Unsupported wallet type",
            Self::UserSignerSignError => "Unable to sign",
            Self::NetworkError => {
                "Unable to reach the server. Check your connection and try again."
            }
            Self::WalletNotOnDevice => "The wallet is not on this device",
        }
    }

    /// Every client code, for generation.
    pub const ALL: &'static [ClientErrorCode] = &[
        Self::StorageError,
        Self::AttemptedRpcCallBeforeLoggedIn,
        Self::PkceStateCodeMismatch,
        Self::EmbeddedWalletRequestError,
        Self::EmbeddedWalletCreationError,
        Self::EmbeddedWalletRecoveryError,
        Self::UnsupportedRecoveryMethod,
        Self::MfaTimeout,
        Self::MfaVerificationMaxAttemptsReached,
        Self::MissingOrInvalidMfa,
        Self::InvalidInput,
        Self::UnsupportedWalletType,
        Self::UserSignerSignError,
        Self::NetworkError,
        Self::WalletNotOnDevice,
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_server_code_serialises_to_its_listed_string() {
        for (code, wire) in ALL_SERVER_CODES {
            assert_eq!(
                serde_json::to_value(code).ok(),
                Some(serde_json::json!(wire))
            );
            assert_eq!(code.as_str(), *wire);
        }
    }

    #[test]
    fn error_body_has_the_wire_shape() {
        let body = ErrorResponse {
            error: "Invalid code".into(),
            code: ServerErrorCode::InvalidCredentials,
            data: None,
        };
        assert_eq!(
            serde_json::to_string(&body).ok().as_deref(),
            Some(r#"{"error":"Invalid code","code":"invalid_credentials"}"#)
        );
    }

    #[test]
    fn spec_client_messages_are_exact() {
        assert_eq!(
            ClientErrorCode::StorageError.default_message(),
            "Unable to access storage"
        );
        assert_eq!(
            ClientErrorCode::AttemptedRpcCallBeforeLoggedIn.default_message(),
            "Missing access token"
        );
        assert_eq!(
            ClientErrorCode::MfaTimeout.default_message(),
            "Timed out waiting for MFA code"
        );
    }
}
