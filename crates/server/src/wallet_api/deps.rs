//! What the wallet API reads: the store, "now" and the signer. The app secret is checked by the
//! request layer.

use axum::extract::FromRef;

use crate::clock::Clock;
use crate::db::Db;
use crate::signer_client::SignerClient;
use crate::state::AppState;

/// The wallet API's slice of the state.
#[derive(Clone)]
pub struct WalletApiDeps {
    /// Wallets and delegations.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
    /// The signer (none: delegated actions are off).
    pub signer: Option<SignerClient>,
}

impl FromRef<AppState> for WalletApiDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            db: state.db.clone(),
            clock: state.clock.clone(),
            signer: state.signer.clone(),
        }
    }
}
