//! What oauth sign-in reads: its slice of the state, declared with the method.

use std::sync::Arc;

use axum::extract::FromRef;

use crate::app_secrets::AppSecrets;
use crate::clock::Clock;
use crate::config::Config;
use crate::db::Db;
use crate::jwt_verifier::JwksCache;
use crate::methods::deps::LoginDeps;
use crate::rate_limit::IpLimits;
use crate::state::AppState;

/// OAuth providers.
#[derive(Clone)]
pub struct OAuthDeps {
    /// Sign-in and link.
    pub login: LoginDeps,
    /// Flows and the codes their callbacks received.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
    /// Per-network budgets.
    pub ip_limits: Arc<IpLimits>,
    /// The server's public URL (the callback).
    pub config: Arc<Config>,
    /// Opens the apps' client secrets.
    pub app_secrets: Arc<AppSecrets>,
    /// Calls the providers.
    pub outbound: reqwest::Client,
    /// The providers' ID-token keys.
    pub jwks_cache: Arc<JwksCache>,
}

impl FromRef<AppState> for OAuthDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            login: LoginDeps::from_ref(state),
            db: state.db.clone(),
            clock: state.clock.clone(),
            ip_limits: Arc::clone(&state.ip_limits),
            config: Arc::clone(&state.config),
            app_secrets: Arc::clone(&state.app_secrets),
            outbound: state.outbound.clone(),
            jwks_cache: Arc::clone(&state.jwks_cache),
        }
    }
}
