//! What the policies read: the store, "now", the key quorums that own policies and the
//! aggregations their `reference` conditions name. The app secret is checked by the request layer.

use axum::extract::FromRef;

use crate::aggregations::deps::AggregationDeps;
use crate::clock::Clock;
use crate::db::Db;
use crate::key_quorums::deps::KeyQuorumDeps;
use crate::state::AppState;

/// The policies' slice of the state.
#[derive(Clone)]
pub struct PolicyDeps {
    /// The policies.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
    /// The owners of policies.
    pub quorums: KeyQuorumDeps,
    /// The aggregations conditions name.
    pub aggregations: AggregationDeps,
}

impl FromRef<AppState> for PolicyDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            db: state.db.clone(),
            clock: state.clock.clone(),
            quorums: KeyQuorumDeps::from_ref(state),
            aggregations: AggregationDeps::from_ref(state),
        }
    }
}
