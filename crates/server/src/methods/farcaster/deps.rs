//! What farcaster sign-in reads: its slice of the state, declared with the method.

use std::sync::Arc;

use axum::extract::FromRef;

use crate::app_secrets::AppSecrets;
use crate::clock::Clock;
use crate::db::Db;
use crate::methods::deps::LoginDeps;
use crate::rate_limit::IpLimits;
use crate::state::AppState;

/// Sign In With Farcaster and Farcaster signers.
#[derive(Clone)]
pub struct FarcasterDeps {
    /// Sign-in and link.
    pub login: LoginDeps,
    /// Nonces and signer requests.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
    /// Per-network budgets.
    pub ip_limits: Arc<IpLimits>,
    /// Opens the app's signer-request key.
    pub app_secrets: Arc<AppSecrets>,
}

impl FromRef<AppState> for FarcasterDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            login: LoginDeps::from_ref(state),
            db: state.db.clone(),
            clock: state.clock.clone(),
            ip_limits: Arc::clone(&state.ip_limits),
            app_secrets: Arc::clone(&state.app_secrets),
        }
    }
}
