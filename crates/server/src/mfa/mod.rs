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
use crate::db::mfa::MfaChange;
use crate::db::webhooks::NewEvent;
use crate::error::{AppError, Status};
use crate::webhooks::events;

/// What `change` reports to the app's webhooks: `mfa.enabled` for an enrolment, `mfa.disabled`
/// for a removal, nothing when it only authorises.
pub fn change_events(
    app_id: &str,
    user_id: &str,
    change: &MfaChange<'_>,
) -> Result<Vec<NewEvent>, AppError> {
    let enabled = match change {
        MfaChange::EnrollTotp { .. } | MfaChange::EnrollSms { .. } | MfaChange::EnrollPasskey => {
            true
        }
        MfaChange::Unenroll { .. } => false,
        MfaChange::Authorize { .. } => return Ok(Vec::new()),
    };
    let Some(method) = MfaMethodType::parse(change.method()) else {
        return Ok(Vec::new());
    };
    Ok(vec![events::mfa_changed(enabled, app_id, user_id, method)?])
}

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
