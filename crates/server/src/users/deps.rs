//! What the signed-in user's routes read. The wire view ([`super::view`]) reads only the store,
//! so other capabilities hand it their own slice's `db`.

use axum::extract::FromRef;

use crate::clock::Clock;
use crate::db::Db;
use crate::state::AppState;
use crate::tokens::TokenIssuer;

/// The slice of the state `GET /users/me` and `POST /users/me/accept_terms` read.
#[derive(Clone)]
pub struct UserDeps {
    /// Users and their accounts.
    pub db: Db,
    /// Signs the fresh identity token.
    pub tokens: TokenIssuer,
    /// "Now".
    pub clock: Clock,
}

impl FromRef<AppState> for UserDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            db: state.db.clone(),
            tokens: state.tokens.clone(),
            clock: state.clock.clone(),
        }
    }
}
