//! Embedded wallets a host's back end pregenerates for its users (`wallets` of `POST /v1/users`,
//! `POST /v1/users/{user_id}/wallets`): the request checked here, the wallets made by
//! [`crate::wallets::pregenerate`]. No HTTP here.

use symbolon_protocol::server_api::WalletCreationInput;

use super::deps::ServerApiDeps;
use crate::db::apps::AppRecord;
use crate::error::AppError;
use crate::wallets::pregenerate::{MAX_PREGENERATED, pregenerate_ethereum};

/// The refusal of an empty `wallets` on the pregenerate route.
pub const NO_WALLETS: &str = "wallets must hold at least one wallet";

/// How many Ethereum wallets `wallets` asks for, once every entry is one this server makes:
/// refused (400, nothing made) for another chain or a feature not served yet, never dropped.
pub fn ethereum_wallets_wanted(wallets: &[WalletCreationInput]) -> Result<u32, AppError> {
    let mut count = 0u32;
    for wallet in wallets {
        match wallet.chain_type.trim() {
            "ethereum" => count += 1,
            "solana" => {
                return Err(AppError::invalid_data(
                    "Solana embedded wallets are not supported yet; pregenerate ethereum wallets",
                ));
            }
            other => {
                return Err(AppError::invalid_data(format!(
                    "chain_type {other:?} is not supported; pregenerate ethereum wallets"
                )));
            }
        }
        if wallet.create_smart_wallet == Some(true) {
            return Err(AppError::invalid_data(
                "create_smart_wallet is not supported yet",
            ));
        }
        if wallet
            .additional_signers
            .as_ref()
            .is_some_and(|s| !s.is_empty())
            || wallet.policy_ids.as_ref().is_some_and(|p| !p.is_empty())
        {
            return Err(AppError::invalid_data(
                "additional_signers and policy_ids are not supported yet",
            ));
        }
        if wallet.external_id.is_some() {
            return Err(AppError::invalid_data("external_id is not supported yet"));
        }
    }
    if count > MAX_PREGENERATED {
        return Err(AppError::invalid_data(format!(
            "At most {MAX_PREGENERATED} ethereum wallets may be pregenerated"
        )));
    }
    Ok(count)
}

/// Makes `count` wallets for the app's user `user_id` (a no-op for 0).
pub async fn pregenerate_for(
    deps: &ServerApiDeps,
    app: &AppRecord,
    user_id: &str,
    count: u32,
) -> Result<(), AppError> {
    if count > 0 {
        pregenerate_ethereum(&deps.wallets, &app.id, user_id, count).await?;
    }
    Ok(())
}
