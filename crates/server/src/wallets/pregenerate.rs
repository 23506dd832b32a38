//! Wallets the server makes for a user before their first sign-in (`POST /v1/users` with
//! `wallets`, `POST /v1/users/{user_id}/wallets`), so a host can send funds to an address its user
//! will own.
//!
//! The server draws fresh entropy, splits it 2-of-3 like the frame does, seals the auth and
//! recovery shares exactly as a frame-made wallet's, and forgets the entropy and the device share
//! at once (zeroized on drop). No device key is registered, so on the user's first sign-in their
//! frame finds no device share and recovers the wallet (auth + recovery share, which needs a fresh
//! sign-in), re-splits it and registers its own device key: from then on the wallet is like any
//! other. Until then, whoever holds the share-sealing keys and the database could rebuild the key
//! (`docs/security.md` "Pregenerated wallets").

use symbolon_protocol::user::{ChainType, RecoveryMethod};
use symbolon_wallet_core::chains::ethereum::derive_wallet_key;
use symbolon_wallet_core::{Entropy, WalletError, split_entropy};

use super::deps::ServerWalletDeps;
use super::refusals::already_exists;
use super::shares::seal_pair;
use crate::db::DbError;
use crate::db::wallets::EmbeddedWalletRecord;
use crate::error::AppError;
use crate::random::random_id;
use crate::webhooks::events;

/// Most wallets one request makes (indexes `0..MAX_PREGENERATED` of one entropy).
pub const MAX_PREGENERATED: u32 = 5;

/// The refusal for a user who has an embedded wallet of the chain already: later wallets are
/// derived from the user's entropy, which only their frame may rebuild once they signed in.
pub const HAS_WALLET: &str =
    "This user has an Ethereum embedded wallet already; more are added from their device";

/// Makes `count` Ethereum wallets (indexes `0..count` of fresh entropy) for `user_id` of `app_id`.
/// Refused when the user has one already; two concurrent calls make one set (the index is unique).
pub async fn pregenerate_ethereum(
    deps: &ServerWalletDeps,
    app_id: &str,
    user_id: &str,
    count: u32,
) -> Result<Vec<EmbeddedWalletRecord>, AppError> {
    let chain = ChainType::Ethereum;
    if !deps
        .db
        .embedded_wallets(user_id, chain.as_str())
        .await?
        .is_empty()
    {
        return Err(already_exists(HAS_WALLET.into()));
    }
    let now = deps.clock.now();
    let (records, sealed) = {
        // Entropy and shares live only in this block; both zeroize on drop.
        let entropy = Entropy::generate().map_err(|e| wallet_failure(&e))?;
        let shares = split_entropy(&entropy).map_err(|e| wallet_failure(&e))?;
        let mut records = Vec::new();
        for index in 0..count {
            let key = derive_wallet_key(&entropy, index).map_err(|e| wallet_failure(&e))?;
            records.push(EmbeddedWalletRecord {
                id: random_id(25)?,
                app_id: app_id.to_string(),
                user_id: user_id.to_string(),
                address: key.address().to_checksum(),
                chain_type: chain.as_str().into(),
                wallet_index: index,
                recovery_method: RecoveryMethod::Privy.as_str().into(),
                imported: false,
                created_at: now,
            });
        }
        let root = derive_wallet_key(&entropy, 0)
            .map_err(|e| wallet_failure(&e))?
            .address();
        let sealed = seal_pair(
            &deps.share_vault,
            &shares.auth,
            &shares.recovery,
            root,
            user_id,
            None,
        )?;
        (records, sealed)
    };
    for record in &records {
        let root_shares = (record.wallet_index == 0).then_some(&sealed);
        let created = [events::wallet_created(record)?];
        match deps
            .db
            .create_embedded_wallet(record, root_shares, &created)
            .await
        {
            Ok(()) => {}
            // A concurrent pregeneration (or the user's frame) took index 0 first.
            Err(DbError::Conflict { .. }) => return Err(already_exists(HAS_WALLET.into())),
            Err(other) => return Err(other.into()),
        }
    }
    tracing::info!(
        target: "symbolon::audit",
        app = %app_id,
        user = %user_id,
        address = %records.first().map(|r| r.address.as_str()).unwrap_or_default(),
        count,
        action = "pregenerate",
        outcome = "stored",
        "wallet"
    );
    Ok(records)
}

fn wallet_failure(error: &WalletError) -> AppError {
    AppError::internal(error)
}
