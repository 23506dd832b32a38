//! Second factors (`docs/server.md` "MFA"): TOTP, SMS and passkeys, verified into a short-lived
//! MFA token bound to the user and the session, which the wallet frame spends where the guard
//! ([`guard`]) asks for it (export, recovery, and with transaction protection each signature).
//!
//! Verification routes and enrolment routes that hand out or need a token are frame-only: the
//! token never reaches a host page. Every count (failures, TOTP steps, token uses) is one
//! conditional write (`crate::db::mfa`).

pub mod attempts;
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
            if MfaMethodType::parse(method).is_none() {
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

/// The user's enrolled methods in wire form (`User.mfa_methods`).
pub async fn wire_methods(state: &AppState, user_id: &str) -> Result<Vec<MfaMethod>, AppError> {
    let methods = state.db.mfa_methods(user_id).await?;
    Ok(methods
        .into_iter()
        .filter_map(|m| {
            let verified_at = m.verified_at;
            Some(match MfaMethodType::parse(&m.method)? {
                MfaMethodType::Totp => MfaMethod::Totp { verified_at },
                MfaMethodType::Sms => MfaMethod::Sms { verified_at },
                MfaMethodType::Passkey => MfaMethod::Passkey { verified_at },
            })
        })
        .collect())
}

/// The method is not enrolled (400 `missing_mfa_enrollment`).
pub fn not_enrolled(kind: MfaMethodType) -> AppError {
    AppError::new(
        ServerErrorCode::MissingMfaEnrollment,
        format!("No {} second factor is enrolled", kind.as_str()),
    )
    .with_status(axum::http::StatusCode::BAD_REQUEST)
}

#[cfg(test)]
mod tests {
    use super::MfaSettings;

    #[test]
    fn settings_name_known_methods_once() {
        let settings = |methods: &[&str]| MfaSettings {
            methods: methods.iter().map(|m| m.to_string()).collect(),
            protect_transactions: true,
        };
        assert!(settings(&["totp", "sms", "passkey"]).check().is_ok());
        assert!(settings(&[]).check().is_ok());
        let unknown = settings(&["totp", "email"])
            .check()
            .expect_err("email is no second factor");
        assert!(unknown.contains("\"email\""), "{unknown}");
        assert!(settings(&["sms", "sms"]).check().is_err());
        let parsed: MfaSettings =
            toml::from_str("methods = [\"totp\"]\nprotect_transactions = true").expect("toml");
        assert_eq!(parsed, settings(&["totp"]));
    }
}
