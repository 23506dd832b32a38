//! What the embedded wallets read: the share endpoints ([`WalletDeps`]) and the wallet frame page
//! ([`FramePageDeps`]). The share endpoints hold the MFA guard's slice to ask for MFA tokens.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use axum::extract::FromRef;

use crate::clock::Clock;
use crate::config::Config;
use crate::db::Db;
use crate::keys::ShareVault;
use crate::keys::wallet_transfer::TransferKey;
use crate::mfa::deps::MfaGuard;
use crate::state::AppState;

/// The share endpoints' slice (`super::service` and what it calls).
#[derive(Clone)]
pub struct WalletDeps {
    /// Wallets, share envelopes, challenges, limits; the user answered.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
    /// Seals and opens the shares.
    pub share_vault: Arc<ShareVault>,
    /// Asks for an MFA token where the user has a second factor.
    pub mfa: MfaGuard,
}

impl FromRef<AppState> for WalletDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            db: state.db.clone(),
            clock: state.clock.clone(),
            share_vault: Arc::clone(&state.share_vault),
            mfa: MfaGuard::from_ref(state),
        }
    }
}

/// What the wallets the server makes or moves in read (`super::pregenerate`, `super::moves`): no
/// MFA guard, no frame; the caller (a host's back end, the operator's command) was checked before.
#[derive(Clone)]
pub struct ServerWalletDeps {
    /// Wallets and their share envelopes.
    pub db: Db,
    /// "Now".
    pub clock: Clock,
    /// Seals the new shares.
    pub share_vault: Arc<ShareVault>,
    /// Opens wallets moved here from another server.
    pub transfer: Arc<TransferKey>,
}

impl FromRef<AppState> for ServerWalletDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            db: state.db.clone(),
            clock: state.clock.clone(),
            share_vault: Arc::clone(&state.share_vault),
            transfer: Arc::clone(&state.wallet_transfer),
        }
    }
}

/// The wallet frame page and its assets (`super::frame_page`).
#[derive(Clone)]
pub struct FramePageDeps {
    /// The app whose frame is served.
    pub db: Db,
    /// The server's origin and where the built frame is.
    pub config: Arc<Config>,
    /// Set once "the wallet frame is not built" has been logged.
    pub frame_missing_logged: Arc<AtomicBool>,
}

impl FromRef<AppState> for FramePageDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            db: state.db.clone(),
            config: Arc::clone(&state.config),
            frame_missing_logged: Arc::clone(&state.frame_missing_logged),
        }
    }
}
