//! What wallet sign-in reads: its slice of the state, declared with the method.

use std::sync::Arc;

use axum::extract::FromRef;

use crate::clock::Clock;
use crate::db::Db;
use crate::methods::deps::LoginDeps;
use crate::rate_limit::IpLimits;
use crate::state::AppState;

/// External wallets, SIWE and SIWS.
#[derive(Clone)]
pub struct WalletLoginDeps {
    /// Sign-in and link.
    pub login: LoginDeps,
    /// Nonces.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
    /// Per-network budgets.
    pub ip_limits: Arc<IpLimits>,
}

impl FromRef<AppState> for WalletLoginDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            login: LoginDeps::from_ref(state),
            db: state.db.clone(),
            clock: state.clock.clone(),
            ip_limits: Arc::clone(&state.ip_limits),
        }
    }
}
