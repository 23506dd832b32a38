//! Automatic recovery (`privy`): the server releases the sealed recovery share to a session that
//! signed in with a fresh proof within [`RECOVERY_WINDOW_S`], at most [`RECOVERY_CAP`] times a
//! day, and lets that session replace the shares within the same window.

use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::user::{ChainType, RecoveryMethod};
use symbolon_wallet_core::chains::ethereum::Address;
use symbolon_wallet_core::{Share, ShareKind};

use crate::db::wallets::{RecoveryGrant, WalletLimit};
use crate::error::AppError;
use crate::wallets::audit::audit;
use crate::wallets::deps::WalletDeps;
use crate::wallets::refusals::{not_found, sign_in_again};
use crate::web::frame_caller::FrameCaller;
use crate::webhooks::events;
use symbolon_protocol::webhooks::WebhookEventType;

/// A session may get the recovery share only this many seconds after its sign-in, and may
/// replace the shares only this long after getting it.
pub const RECOVERY_WINDOW_S: i64 = 600;
/// Recoveries per user per day.
pub const RECOVERY_CAP: WalletLimit = WalletLimit {
    action: "recovery",
    max: 3,
    window: 86_400,
};

/// The wallet whose recovery share is asked for.
#[derive(Debug, Clone, Copy)]
pub struct Release<'a> {
    /// Its id (for `wallet.recovered`).
    pub wallet_id: &'a str,
    /// Its address (for the audit log and `wallet.recovered`).
    pub address: &'a str,
    /// Its recovery method.
    pub method: RecoveryMethod,
    /// The root wallet's address, which the envelope is bound to.
    pub root: Address,
    /// Its chain.
    pub chain: ChainType,
    /// The audited action.
    pub action: &'a str,
}

/// The recovery share, once this session may have it (uses one of the day's recoveries).
pub async fn release(
    deps: &WalletDeps,
    caller: &FrameCaller,
    release: Release<'_>,
) -> Result<Share, AppError> {
    let user_id = caller.user.id.as_str();
    if release.method != RecoveryMethod::Privy {
        audit(
            caller,
            release.address,
            release.action,
            "refused_recovery_method",
        );
        return Err(AppError::new(
            ServerErrorCode::DisallowedRecoveryMethod,
            format!(
                "Recovery method {} is not automatic",
                release.method.as_str()
            ),
        ));
    }
    let now = deps.clock.now();
    let grant = deps
        .db
        .take_recovery(
            user_id,
            &caller.claims.sid,
            now - RECOVERY_WINDOW_S,
            RECOVERY_CAP,
            now,
            &[events::wallet_used(
                WebhookEventType::WalletRecovered,
                &caller.app.id,
                user_id,
                release.wallet_id,
                release.address,
            )?],
        )
        .await?;
    match grant {
        RecoveryGrant::Granted => {}
        RecoveryGrant::SessionNotFresh => {
            audit(
                caller,
                release.address,
                release.action,
                "refused_stale_session",
            );
            return Err(sign_in_again());
        }
        RecoveryGrant::CapReached => {
            audit(
                caller,
                release.address,
                release.action,
                "refused_recovery_cap",
            );
            return Err(AppError::rate_limited(
                u64::try_from(RECOVERY_CAP.window).unwrap_or(86_400),
            ));
        }
    }
    let recovery_envelope = deps
        .db
        .recovery_share_envelope(user_id, release.chain.as_str())
        .await?
        .ok_or_else(not_found)?;
    let recovery = deps
        .share_vault
        .open(
            ShareKind::Recovery,
            &recovery_envelope,
            release.root,
            user_id,
        )
        .map_err(|e| AppError::internal(&e))?;
    Ok(recovery)
}

/// Whether this session got the recovery share within [`RECOVERY_WINDOW_S`] (so it may replace
/// the shares it re-split).
pub async fn recovered_lately(
    deps: &WalletDeps,
    caller: &FrameCaller,
    now: i64,
) -> Result<bool, AppError> {
    let recovered_at = deps.db.session_recovered_at(&caller.claims.sid).await?;
    Ok(recovered_at.is_some_and(|at| now - at <= RECOVERY_WINDOW_S))
}
