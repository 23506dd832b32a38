//! What second factors read. The guard ([`MfaGuard`]) is what the wallet holds to ask for an MFA
//! token; the MFA routes ([`MfaDeps`]) also deliver codes and notices, open TOTP secrets, and use
//! the code engine and passkey ceremonies of the login methods and the account rules (unlink).

use std::sync::Arc;

use axum::extract::FromRef;

use crate::accounts::AccountDeps;
use crate::app_secrets::AppSecrets;
use crate::clock::Clock;
use crate::db::Db;
use crate::mail::Mailer;
use crate::methods::deps::{CodeDeps, PasskeyCeremonyDeps};
use crate::sms::SmsSender;
use crate::state::AppState;

/// What the wallet's MFA guard reads (`super::guard`): MFA methods and tokens, and "now".
#[derive(Clone)]
pub struct MfaGuard {
    /// MFA methods and tokens.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
}

impl FromRef<AppState> for MfaGuard {
    fn from_ref(state: &AppState) -> Self {
        Self {
            db: state.db.clone(),
            clock: state.clock.clone(),
        }
    }
}

/// The MFA routes' slice (`super::routes` and the methods they call).
#[derive(Clone)]
pub struct MfaDeps {
    /// MFA methods, tokens, failures; the user answered.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
    /// Mails change notices.
    pub mailer: Arc<dyn Mailer>,
    /// Texts codes and change notices.
    pub sms: Arc<dyn SmsSender>,
    /// Seals and opens TOTP secrets.
    pub app_secrets: Arc<AppSecrets>,
    /// The code engine, for MFA by SMS.
    pub codes: CodeDeps,
    /// Passkey ceremonies, for MFA by passkey.
    pub passkeys: PasskeyCeremonyDeps,
    /// The account rules (unlinking a passkey from the frame).
    pub accounts: AccountDeps,
}

impl FromRef<AppState> for MfaDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            db: state.db.clone(),
            clock: state.clock.clone(),
            mailer: Arc::clone(&state.mailer),
            sms: Arc::clone(&state.sms),
            app_secrets: Arc::clone(&state.app_secrets),
            codes: CodeDeps::from_ref(state),
            passkeys: PasskeyCeremonyDeps::from_ref(state),
            accounts: AccountDeps::from_ref(state),
        }
    }
}
