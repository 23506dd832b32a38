//! Second factors (`docs/server.md` "MFA"): TOTP, SMS and passkeys, verified into a short-lived
//! MFA token bound to the user and the session, which the wallet frame spends where the guard
//! ([`guard`]) asks for it (export, recovery, and with transaction protection each signature).
//!
//! Verification routes and enrolment routes that hand out or need a token are frame-only: the
//! token never reaches a host page. Every count (failures, TOTP steps, token uses) is one
//! conditional write (`crate::db::mfa`). What the routes and the guard read is [`deps`].

pub mod attempts;
pub mod deps;
pub mod guard;
pub mod notice;
pub mod passkey;
pub mod routes;
pub mod sms;
pub mod token;
pub mod totp;

use symbolon_protocol::ServerErrorCode;
pub use symbolon_protocol::constants::{
    MFA_MAX_FAILED_VERIFICATIONS, MFA_SIGNING_USES, MFA_SIGNING_WINDOW_S, MFA_TOKEN_TTL_S,
    TOTP_PENDING_TTL_S,
};
pub use symbolon_protocol::mfa::MfaMethodType;

use crate::db::apps::AppRecord;
use crate::error::{AppError, Status};

/// Refuses enrolling a method the app does not offer (`[mfa] methods`).
pub fn offered(app: &AppRecord, method: MfaMethodType) -> Result<(), AppError> {
    if app
        .settings
        .mfa
        .methods
        .iter()
        .any(|m| m == method.as_str())
    {
        Ok(())
    } else {
        Err(AppError::new(
            ServerErrorCode::FeatureNotEnabled,
            format!(
                "This app does not offer {} as a second factor",
                method.as_str()
            ),
        ))
    }
}

/// The method is not enrolled (400 `missing_mfa_enrollment`).
pub fn not_enrolled(kind: MfaMethodType) -> AppError {
    AppError::new(
        ServerErrorCode::MissingMfaEnrollment,
        format!("No {} second factor is enrolled", kind.as_str()),
    )
    .with_status(Status::BadRequest)
}
