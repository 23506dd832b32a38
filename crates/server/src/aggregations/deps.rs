//! What the aggregations read: the store and "now". The app secret is checked by the request
//! layer.

use axum::extract::FromRef;

use crate::clock::Clock;
use crate::db::Db;
use crate::state::AppState;

/// The aggregations' slice of the state.
#[derive(Clone)]
pub struct AggregationDeps {
    /// The aggregations (and the policies that name them).
    pub db: Db,
    /// "Now".
    pub clock: Clock,
}

impl FromRef<AppState> for AggregationDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            db: state.db.clone(),
            clock: state.clock.clone(),
        }
    }
}
