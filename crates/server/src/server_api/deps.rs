//! What the `/v1` API reads: the store, "now", the account rules (unlink goes through them);
//! and, for the app's settings, its sealed secrets and the token keys.
//! The app secret itself is checked by the request layer (`crate::web::back_end`).

use std::sync::Arc;

use axum::extract::FromRef;

use crate::app_secrets::AppSecrets;
use crate::tokens::TokenIssuer;

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

/// What the app's settings (`GET /v1/apps/{app_id}`) read besides the app itself.
#[derive(Clone)]
pub struct AppSettingsDeps {
    /// Opens the app's sealed settings (the Telegram bot token shown as the bot's name).
    pub app_secrets: Arc<AppSecrets>,
    /// The token keys: the settings show the verification key.
    pub tokens: TokenIssuer,
}

impl FromRef<AppState> for AppSettingsDeps {
    fn from_ref(state: &AppState) -> Self {
        Self {
            app_secrets: Arc::clone(&state.app_secrets),
            tokens: state.tokens.clone(),
        }
    }
}
