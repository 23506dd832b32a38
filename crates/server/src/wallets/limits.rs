//! Per-user budgets of the wallet endpoints, each one conditional write (`db::wallets`).

use super::deps::WalletDeps;
use crate::db::wallets::WalletLimit;
use crate::error::AppError;
use crate::web::frame_caller::FrameCaller;

/// `key_material` calls per user per 10 minutes.
pub const KEY_MATERIAL_LIMIT: WalletLimit = WalletLimit {
    action: "key_material",
    max: 30,
    window: 600,
};
/// Challenges per user per 10 minutes.
pub const CHALLENGE_LIMIT: WalletLimit = WalletLimit {
    action: "challenge",
    max: 60,
    window: 600,
};

/// Counts one call against `limit`; `too_many_requests` past it.
pub async fn within_limit(
    deps: &WalletDeps,
    caller: &FrameCaller,
    limit: WalletLimit,
) -> Result<(), AppError> {
    let now = deps.clock.now();
    if deps
        .db
        .hit_wallet_limit(&caller.user.id, limit, now)
        .await?
    {
        Ok(())
    } else {
        Err(AppError::rate_limited(
            u64::try_from(limit.window).unwrap_or(600),
        ))
    }
}
