//! What sessions read. Starting one ([`SessionIssuer`]) is what every sign-in needs, so the login
//! methods hold that slice; refreshing and logging out ([`SessionDeps`]) read the refresh rotation
//! key too, which nothing else sees.

use std::sync::Arc;

use axum::extract::FromRef;
use zeroize::Zeroizing;

use crate::clock::Clock;
use crate::config::Config;
use crate::db::Db;
use crate::state::AppState;
use crate::tokens::TokenIssuer;

/// Starts sessions and answers them (`super::issue`).
#[derive(Clone)]
pub struct SessionIssuer {
    /// Sessions, refresh tokens, the user answered.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
    /// Signs the access and identity tokens.
    pub tokens: TokenIssuer,
    /// Whether the marker cookie is `Secure`.
    pub config: Arc<Config>,
}

impl FromRef<AppState> for SessionIssuer {
    fn from_ref(state: &AppState) -> Self {
        Self {
            db: state.db.clone(),
            clock: state.clock.clone(),
            tokens: state.tokens.clone(),
            config: Arc::clone(&state.config),
        }
    }
}

/// The session routes' slice (`super::routes`: refresh, logout).
#[derive(Clone)]
pub struct SessionDeps {
    /// Answers a refreshed session as a new one is answered.
    pub issuer: SessionIssuer,
    /// Derives a refresh token's one child.
    pub refresh_rotation_key: Arc<Zeroizing<Vec<u8>>>,
}

impl FromRef<AppState> for SessionDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            issuer: SessionIssuer::from_ref(state),
            refresh_rotation_key: Arc::clone(&state.refresh_rotation_key),
        }
    }
}
