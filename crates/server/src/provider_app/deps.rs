//! What the cross-app provider reads: apps, codes and tokens, "now", and the server's public URL
//! (the callback and its pages' directory).

use std::sync::Arc;

use axum::extract::FromRef;

use crate::clock::Clock;
use crate::config::Config;
use crate::db::Db;
use crate::state::AppState;

/// The provider's slice (`super::routes`, `super::page` and the request checks).
#[derive(Clone)]
pub struct ProviderAppDeps {
    /// Apps, authorization codes, provider tokens, wallets.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
    /// The public URL and the built pages.
    pub config: Arc<Config>,
}

impl FromRef<AppState> for ProviderAppDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            db: state.db.clone(),
            clock: state.clock.clone(),
            config: Arc::clone(&state.config),
        }
    }
}
