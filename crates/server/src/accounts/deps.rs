//! What the account rules read: the store and "now". The login methods and MFA hold this slice
//! in theirs and hand it to [`super::login`], [`super::link`], [`super::unlink`] and the rest.

use axum::extract::FromRef;

use crate::clock::Clock;
use crate::db::Db;
use crate::state::AppState;

/// The account rules' slice of the state.
#[derive(Clone)]
pub struct AccountDeps {
    /// Users, linked accounts, transfer offers.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
}

impl FromRef<AppState> for AccountDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            db: state.db.clone(),
            clock: state.clock.clone(),
        }
    }
}
