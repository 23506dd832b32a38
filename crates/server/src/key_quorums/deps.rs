//! What the key quorums read: the store and "now". The app secret is checked by the request layer.

use axum::extract::FromRef;

use crate::clock::Clock;
use crate::db::Db;
use crate::state::AppState;

/// The key quorums' slice of the state.
#[derive(Clone)]
pub struct KeyQuorumDeps {
    /// The quorums (and the policies they own).
    pub db: Db,
    /// "Now".
    pub clock: Clock,
}

impl FromRef<AppState> for KeyQuorumDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            db: state.db.clone(),
            clock: state.clock.clone(),
        }
    }
}
