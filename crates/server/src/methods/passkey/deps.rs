//! What passkey sign-in reads: its slice of the state, declared with the method.

use std::sync::Arc;

use axum::extract::FromRef;

use crate::clock::Clock;
use crate::db::Db;
use crate::methods::deps::{LoginDeps, PasskeyCeremonyDeps};
use crate::rate_limit::IpLimits;
use crate::state::AppState;

/// Passkeys.
#[derive(Clone)]
pub struct PasskeyDeps {
    /// Sign-in and link.
    pub login: LoginDeps,
    /// Challenges and assertions.
    pub ceremonies: PasskeyCeremonyDeps,
    /// The user's passkeys.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
    /// Per-network budgets.
    pub ip_limits: Arc<IpLimits>,
}

impl FromRef<AppState> for PasskeyDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            login: LoginDeps::from_ref(state),
            ceremonies: PasskeyCeremonyDeps::from_ref(state),
            db: state.db.clone(),
            clock: state.clock.clone(),
            ip_limits: Arc::clone(&state.ip_limits),
        }
    }
}
