//! Embedded wallets moved between two Symbolon servers with their users (`symbolon users export
//! --wallets-to`, `symbolon users import`; `docs/server-api.md` "Moving embedded wallets").
//!
//! Out: the root wallet's auth and recovery shares are opened here and sealed to the destination's
//! transfer key (`crate::keys::wallet_transfer`). In: the pair is opened, checked to rebuild every
//! address the export lists for the user (a file that does not fit moves nothing), re-sealed under
//! this server's share keys and stored with no device key, so the user's frame recovers the wallet
//! at their first sign-in here, as for a pregenerated one.

use std::collections::BTreeMap;

use symbolon_protocol::server_api::SealedWalletShares;
use symbolon_protocol::user::{ChainType, RecoveryMethod};
use symbolon_wallet_core::chains::ethereum::{Address, derive_wallet_key};
use symbolon_wallet_core::{Share, ShareKind, combine_shares};

use super::deps::ServerWalletDeps;
use super::refusals::already_exists;
use super::shares::seal_pair;
use crate::db::DbError;
use crate::db::wallets::EmbeddedWalletRecord;
use crate::error::AppError;
use crate::keys::wallet_transfer::{TransferKey, TransferPublicKey, seal_shares};
use crate::random::random_id;
use crate::webhooks::events;

/// The user's root `chain` wallet's shares, sealed to `to` (another server's transfer key).
/// `None` when the user has no such wallet, or its recovery is not the server's (`privy`).
pub async fn seal_for_move(
    deps: &ServerWalletDeps,
    user_id: &str,
    chain: ChainType,
    to: &TransferPublicKey,
) -> Result<Option<SealedWalletShares>, AppError> {
    let wallets = deps.db.embedded_wallets(user_id, chain.as_str()).await?;
    let Some(root) = wallets.iter().find(|w| w.wallet_index == 0) else {
        return Ok(None);
    };
    if root.recovery_method != RecoveryMethod::Privy.as_str() {
        return Ok(None);
    }
    let address = Address::parse(&root.address).map_err(|e| AppError::internal(&e))?;
    let auth = deps.db.auth_share_envelope(user_id, chain.as_str()).await?;
    let recovery = deps
        .db
        .recovery_share_envelope(user_id, chain.as_str())
        .await?;
    let (Some((auth, _)), Some(recovery)) = (auth, recovery) else {
        return Ok(None);
    };
    let vault = &deps.share_vault;
    let open = |kind, envelope: &str| {
        vault
            .open(kind, envelope, address, user_id)
            .map_err(|e| AppError::internal(&e))
    };
    let (auth, recovery) = (
        open(ShareKind::Auth, &auth)?,
        open(ShareKind::Recovery, &recovery)?,
    );
    let sealed = seal_shares(to, user_id, chain, &root.address, &auth, &recovery)
        .map_err(|e| AppError::internal(&e))?;
    tracing::info!(target: "symbolon::audit", user = %user_id, address = %root.address, action = "export_for_move", outcome = "sealed", "wallet");
    Ok(Some(sealed))
}

/// A moved wallet, opened and checked: its shares rebuild every listed address.
pub struct OpenedMove {
    chain: ChainType,
    root: Address,
    /// Index → checksummed address.
    wallets: BTreeMap<u32, String>,
    auth: Share,
    recovery: Share,
}

/// Opens `sealed` and checks that its shares rebuild `wallets` (index → address, from the
/// export's user); the reason as text when they do not.
pub fn open_move(
    transfer: &TransferKey,
    sealed: &SealedWalletShares,
    wallets: &[(u32, String)],
) -> Result<OpenedMove, String> {
    if wallets.is_empty() {
        return Err("the export lists no embedded wallet for the moved shares".into());
    }
    if sealed.chain_type != ChainType::Ethereum {
        return Err("only Ethereum embedded wallets move so far".into());
    }
    let (auth, recovery) = transfer.open(sealed).map_err(|e| e.to_string())?;
    let entropy = combine_shares(&[auth.clone(), recovery.clone()]).map_err(|e| e.message())?;
    let mut checked = BTreeMap::new();
    for (index, listed) in wallets {
        let derived = derive_wallet_key(&entropy, *index)
            .map_err(|e| e.message())?
            .address();
        let listed_address = Address::parse(listed).map_err(|e| e.message())?;
        if derived != listed_address {
            return Err(format!(
                "the moved shares do not rebuild wallet {index} ({listed})"
            ));
        }
        checked.insert(*index, derived.to_checksum());
    }
    let root = derive_wallet_key(&entropy, 0)
        .map_err(|e| e.message())?
        .address();
    if Address::parse(&sealed.root_address).ok() != Some(root) {
        return Err("the moved shares do not rebuild the root wallet".into());
    }
    if checked
        .keys()
        .copied()
        .ne(0..u32::try_from(checked.len()).unwrap_or(u32::MAX))
    {
        return Err("the moved wallets' indexes must run 0, 1, 2, …".into());
    }
    Ok(OpenedMove {
        chain: sealed.chain_type,
        root,
        wallets: checked,
        auth,
        recovery,
    })
}

/// Stores the opened wallets as `user_id`'s of `app_id`, sealed under this server's keys.
pub async fn install_move(
    deps: &ServerWalletDeps,
    app_id: &str,
    user_id: &str,
    opened: &OpenedMove,
) -> Result<(), AppError> {
    let sealed = seal_pair(
        &deps.share_vault,
        &opened.auth,
        &opened.recovery,
        opened.root,
        user_id,
        None,
    )?;
    let now = deps.clock.now();
    for (index, address) in &opened.wallets {
        let record = EmbeddedWalletRecord {
            id: random_id(25)?,
            app_id: app_id.to_string(),
            user_id: user_id.to_string(),
            address: address.clone(),
            chain_type: opened.chain.as_str().into(),
            wallet_index: *index,
            recovery_method: RecoveryMethod::Privy.as_str().into(),
            imported: false,
            created_at: now,
        };
        let root_shares = (*index == 0).then_some(&sealed);
        let created = [events::wallet_created(&record)?];
        match deps
            .db
            .create_embedded_wallet(&record, root_shares, &created)
            .await
        {
            Ok(()) => {}
            Err(DbError::Conflict { .. }) => {
                return Err(already_exists(format!(
                    "The wallet {address} exists on this server already"
                )));
            }
            Err(other) => return Err(other.into()),
        }
    }
    tracing::info!(target: "symbolon::audit", app = %app_id, user = %user_id, address = %opened.root.to_checksum(), action = "move_in", outcome = "stored", "wallet");
    Ok(())
}

/// Whether any of the opened wallets' addresses belongs to someone on this server (checked before
/// the user is created, so a clash leaves nothing half-imported).
pub async fn move_clashes(
    deps: &ServerWalletDeps,
    app_id: &str,
    opened: &OpenedMove,
) -> Result<Option<String>, AppError> {
    for address in opened.wallets.values() {
        if deps
            .db
            .find_embedded_wallet(app_id, address)
            .await?
            .is_some()
        {
            return Ok(Some(address.clone()));
        }
    }
    Ok(None)
}
