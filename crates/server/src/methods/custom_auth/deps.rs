//! What custom auth sign-in reads: its slice of the state, declared with the method.

use std::sync::Arc;

use axum::extract::FromRef;

use crate::clock::Clock;
use crate::jwt_verifier::JwksCache;
use crate::methods::deps::LoginDeps;
use crate::rate_limit::IpLimits;
use crate::state::AppState;

/// The host app's own JWTs.
#[derive(Clone)]
pub struct CustomAuthDeps {
    /// Sign-in and link.
    pub login: LoginDeps,
    /// "Now".
    pub clock: Clock,
    /// Per-network budgets.
    pub ip_limits: Arc<IpLimits>,
    /// The hosts' keys.
    pub jwks_cache: Arc<JwksCache>,
}

impl FromRef<AppState> for CustomAuthDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            login: LoginDeps::from_ref(state),
            clock: state.clock.clone(),
            ip_limits: Arc::clone(&state.ip_limits),
            jwks_cache: Arc::clone(&state.jwks_cache),
        }
    }
}
