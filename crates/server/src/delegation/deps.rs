//! What delegation reads: the store, "now", the signer, the policies' slice (the app's key quorums
//! and policies the terms name) and the MFA guard (a consent is guarded like an export).

use axum::extract::FromRef;

use crate::clock::Clock;
use crate::db::Db;
use crate::mfa::deps::MfaGuard;
use crate::policies::deps::PolicyDeps;
use crate::signer_client::SignerClient;
use crate::state::AppState;

/// Delegation's slice of the state.
#[derive(Clone)]
pub struct DelegationDeps {
    /// Wallets and their delegations.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
    /// The signer (none: delegated actions are off).
    pub signer: Option<SignerClient>,
    /// The app's policies and key quorums.
    pub policies: PolicyDeps,
    /// A consent is guarded like an export: with MFA enrolled, it needs a fresh MFA token.
    pub mfa: MfaGuard,
}

impl FromRef<AppState> for DelegationDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            db: state.db.clone(),
            clock: state.clock.clone(),
            signer: state.signer.clone(),
            policies: PolicyDeps::from_ref(state),
            mfa: MfaGuard::from_ref(state),
        }
    }
}
