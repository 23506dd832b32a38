//! What guest sign-in reads: its slice of the state, declared with the method.

use std::sync::Arc;

use axum::extract::FromRef;

use crate::clock::Clock;
use crate::methods::deps::LoginDeps;
use crate::rate_limit::IpLimits;
use crate::state::AppState;

/// Guests: a per-network budget before each sign-in.
#[derive(Clone)]
pub struct GuestDeps {
    /// Sign-in.
    pub login: LoginDeps,
    /// "Now".
    pub clock: Clock,
    /// Per-network budgets.
    pub ip_limits: Arc<IpLimits>,
}

impl FromRef<AppState> for GuestDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            login: LoginDeps::from_ref(state),
            clock: state.clock.clone(),
            ip_limits: Arc::clone(&state.ip_limits),
        }
    }
}
