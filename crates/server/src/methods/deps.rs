//! The slices of the state the login methods share. Every method hands its proven identity to the
//! account rules and a new session ([`LoginDeps`]); the code methods share the code engine
//! ([`CodeDeps`], which MFA by SMS uses too) and passkeys their ceremonies ([`PasskeyCeremonyDeps`],
//! which MFA by passkey uses too). Each method declares its own slice, holding these, in its
//! folder's `deps.rs`; a handler takes it as `State<…Deps>`.

use std::sync::Arc;

use axum::extract::FromRef;

use crate::accounts::AccountDeps;
use crate::clock::Clock;
use crate::db::Db;
use crate::db::otp::OtpLimits;
use crate::otp::OtpSecret;
use crate::rate_limit::IpLimits;
use crate::sessions::deps::SessionIssuer;
use crate::state::AppState;

/// What a proven identity is handed to (`super::sign_in`, `super::link_to`,
/// `super::current_user`): the account rules, a new session, the user as answered.
#[derive(Clone)]
pub struct LoginDeps {
    /// The account rules.
    pub accounts: AccountDeps,
    /// Starts the session of a sign-in.
    pub sessions: SessionIssuer,
    /// The user answered after a link or unlink.
    pub db: Db,
    /// When a fresh proof was made.
    pub clock: Clock,
}

impl FromRef<AppState> for LoginDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            accounts: AccountDeps::from_ref(state),
            sessions: SessionIssuer::from_ref(state),
            db: state.db.clone(),
            clock: state.clock.clone(),
        }
    }
}

/// One-time codes (`super::code`): their rows, their HMAC key and limits, the per-network budget.
#[derive(Clone)]
pub struct CodeDeps {
    /// Code rows.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
    /// Per-network budgets.
    pub ip_limits: Arc<IpLimits>,
    /// HMAC key of stored codes.
    pub otp_secret: Arc<OtpSecret>,
    /// The limits code rows enforce per address.
    pub otp_limits: OtpLimits,
}

impl FromRef<AppState> for CodeDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            db: state.db.clone(),
            clock: state.clock.clone(),
            ip_limits: Arc::clone(&state.ip_limits),
            otp_secret: Arc::clone(&state.otp_secret),
            otp_limits: state.otp_limits,
        }
    }
}

/// WebAuthn ceremonies (`super::passkey::ceremony`): challenges and stored passkeys.
#[derive(Clone)]
pub struct PasskeyCeremonyDeps {
    /// Challenges and passkeys.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
}

impl FromRef<AppState> for PasskeyCeremonyDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            db: state.db.clone(),
            clock: state.clock.clone(),
        }
    }
}
