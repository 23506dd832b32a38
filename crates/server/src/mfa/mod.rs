//! Second factors (`docs/server.md` "MFA"): TOTP, SMS and passkeys, verified into a short-lived
//! MFA token bound to the user and the session, which the wallet frame spends where the guard
//! ([`guard`]) asks for it (export, recovery, and with transaction protection each signature).
//!
//! Verification routes and enrolment routes that hand out or need a token are frame-only: the
//! token never reaches a host page. Every count (failures, TOTP steps, token uses) is one
//! conditional write (`crate::db::mfa`).

pub mod attempts;
pub mod guard;
// pub mod routes;
pub mod sms;
pub mod token;
pub mod totp;

use symbolon_protocol::ServerErrorCode;
// TEMP until the protocol constants land on main (contract-12: same names and values).
/// Seconds an MFA token lives.
pub const MFA_TOKEN_TTL_S: u64 = 300;
/// Failed verifications per user per [`MFA_LOCKOUT_S`].
pub const MFA_MAX_FAILED_VERIFICATIONS: u32 = 5;
/// The failure window.
pub const MFA_LOCKOUT_S: u64 = 900;
/// Seconds a pending TOTP secret waits for its first code.
pub const TOTP_PENDING_TTL_S: u64 = 600;
use symbolon_protocol::user::MfaMethod;

use crate::db::apps::AppRecord;
use crate::http::error::AppError;
use crate::state::AppState;

/// `[mfa]` of an app's settings.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MfaSettings {
    /// The second factors users may enrol (`totp`, `sms`, `passkey`); empty: MFA off.
    pub methods: Vec<String>,
    /// Each signature needs a fresh MFA token too (for users with a second factor).
    pub protect_transactions: bool,
}

impl MfaSettings {
    /// Known methods only, each once.
    pub fn check(&self) -> Result<(), String> {
        for (i, method) in self.methods.iter().enumerate() {
            if MfaKind::parse(method).is_none() {
                return Err(format!(
                    "mfa.methods: unknown method {method:?} (totp, sms, passkey)"
                ));
            }
            if self.methods[..i].contains(method) {
                return Err(format!("mfa.methods: {method:?} is listed twice"));
            }
        }
        Ok(())
    }
}

/// A second factor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MfaKind {
    /// Authenticator app.
    Totp,
    /// Code by SMS to the enrolled number.
    Sms,
    /// A passkey enrolled in MFA.
    Passkey,
}

impl MfaKind {
    /// Every kind, as app settings and the wire name them.
    pub const ALL: [Self; 3] = [Self::Totp, Self::Sms, Self::Passkey];

    /// The wire and storage name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Totp => "totp",
            Self::Sms => "sms",
            Self::Passkey => "passkey",
        }
    }

    /// The kind named `name`, if any.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == name)
    }

    /// Refuses enrolling a method the app does not offer (`[mfa] methods`).
    pub fn offered_by(self, app: &AppRecord) -> Result<(), AppError> {
        if app.settings.mfa.methods.iter().any(|m| m == self.as_str()) {
            Ok(())
        } else {
            Err(AppError::new(
                ServerErrorCode::FeatureNotEnabled,
                format!(
                    "This app does not offer {} as a second factor",
                    self.as_str()
                ),
            ))
        }
    }
}

/// The user's enrolled methods in wire form (`User.mfa_methods`).
pub async fn wire_methods(state: &AppState, user_id: &str) -> Result<Vec<MfaMethod>, AppError> {
    let methods = state.db.mfa_methods(user_id).await?;
    Ok(methods
        .into_iter()
        .filter_map(|m| {
            let verified_at = m.verified_at;
            Some(match MfaKind::parse(&m.method)? {
                MfaKind::Totp => MfaMethod::Totp { verified_at },
                MfaKind::Sms => MfaMethod::Sms { verified_at },
                MfaKind::Passkey => MfaMethod::Passkey { verified_at },
            })
        })
        .collect())
}

/// The method is not enrolled (400 `missing_mfa_enrollment`).
pub fn not_enrolled(kind: MfaKind) -> AppError {
    AppError::new(
        ServerErrorCode::MissingMfaEnrollment,
        format!("No {} second factor is enrolled", kind.as_str()),
    )
    .with_status(axum::http::StatusCode::BAD_REQUEST)
}
