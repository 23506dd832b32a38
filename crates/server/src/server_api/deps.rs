//! What the `/v1` API reads: the store, "now", and the account rules (unlink goes through them).
//! The app secret itself is checked by the request layer (`crate::web::back_end`).

use axum::extract::FromRef;

use crate::accounts::deps::AccountDeps;
use crate::clock::Clock;
use crate::db::Db;
use crate::state::AppState;
use crate::wallets::deps::ServerWalletDeps;

/// The `/v1` API's slice of the state.
#[derive(Clone)]
pub struct ServerApiDeps {
    /// Users and their accounts.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
    /// The account rules.
    pub accounts: AccountDeps,
    /// Makes pregenerated wallets.
    pub wallets: ServerWalletDeps,
}

impl FromRef<AppState> for ServerApiDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            db: state.db.clone(),
            clock: state.clock.clone(),
            accounts: AccountDeps::from_ref(state),
            wallets: ServerWalletDeps::from_ref(state),
        }
    }
}
