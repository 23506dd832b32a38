//! What webhooks read: the store, "now", the sealer of endpoint secrets and the outbound client.

use std::sync::Arc;

use axum::extract::FromRef;

use crate::app_secrets::AppSecrets;
use crate::clock::Clock;
use crate::db::Db;
use crate::state::AppState;

/// The webhooks' slice of the state.
#[derive(Clone)]
pub struct WebhookDeps {
    /// Endpoints, the outbox, and the users events render.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
    /// Seals and opens endpoint signing secrets.
    pub app_secrets: Arc<AppSecrets>,
    /// Sends deliveries (no redirects, short timeouts).
    pub outbound: reqwest::Client,
}

impl FromRef<AppState> for WebhookDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            db: state.db.clone(),
            clock: state.clock.clone(),
            app_secrets: Arc::clone(&state.app_secrets),
            outbound: state.outbound.clone(),
        }
    }
}
