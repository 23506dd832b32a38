//! The wallet rules, without HTTP: what each share endpoint checks, stores and releases.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use symbolon_protocol::user::{ChainType, LinkedAccount, RecoveryMethod};
use symbolon_protocol::wallet::{
    CreateEmbeddedWalletRequest, CreateEmbeddedWalletResponse, KeyMaterialIntent,
    KeyMaterialRequest, KeyMaterialResponse, ReplaceSharesRequest, ReplaceSharesResponse,
    WalletChallengePurpose, WalletChallengeRequest, WalletChallengeResponse,
};
use symbolon_wallet_core::ShareKind;
use symbolon_wallet_core::chains::ethereum::Address;

use super::audit::audit;
use super::chains::ethereum::parse_address;
use super::chains::supported_chain;
use super::challenges::{consume_challenge, issue_challenge};
use super::deps::WalletDeps;
use super::limits::{CHALLENGE_LIMIT, KEY_MATERIAL_LIMIT, within_limit};
use super::proofs::{
    WalletProof, device_signed, unlock_message, wallet_proof_message, wallet_signed,
};
use super::recovery;
use super::recovery::automatic::Release;
use super::refusals::{already_exists, not_found, proof_refused, sign_in_again};
use super::shares::{parse_share, required_device_key, required_share, seal_pair};
use crate::db::DbError;
use crate::db::wallets::EmbeddedWalletRecord;
use crate::error::AppError;
use crate::mfa::guard::{self, Operation};
use crate::random::random_id;
use crate::users::view::user_view;
use crate::web::auth::recently_signed_in;
use crate::web::frame_caller::FrameCaller;
use crate::webhooks::events;
use symbolon_protocol::webhooks::WebhookEventType;

/// A single-use nonce for one signed call of this session (`docs/wallet.md` "Proofs").
pub async fn challenge(
    deps: &WalletDeps,
    caller: &FrameCaller,
    body: WalletChallengeRequest,
) -> Result<WalletChallengeResponse, AppError> {
    supported_chain(body.chain_type)?;
    within_limit(deps, caller, CHALLENGE_LIMIT).await?;
    issue_challenge(deps, caller, body.purpose).await
}

/// Registers the wallet the frame derived at `wallet_index`. Index 0 brings the root shares
/// and the device public key; later indexes are derived from the same entropy and bring none.
/// Either way the wallet's own key signs a `create` proof (later indexes: the root key too),
/// so no one registers an address they do not hold or shares the key did not vouch for.
pub async fn create(
    deps: &WalletDeps,
    caller: &FrameCaller,
    body: CreateEmbeddedWalletRequest,
) -> Result<CreateEmbeddedWalletResponse, AppError> {
    let chain = supported_chain(body.chain_type)?;
    let recovery_method = recovery::on_create(body.recovery_method)?;
    let address = parse_address(&body.address)?;
    let user_id = caller.user.id.as_str();
    let existing = deps.db.embedded_wallets(user_id, chain.as_str()).await?;
    if existing.iter().any(|w| w.wallet_index == body.wallet_index) {
        return Err(already_exists(format!(
            "An embedded wallet already exists at index {}",
            body.wallet_index
        )));
    }
    if deps
        .db
        .find_embedded_wallet(&caller.app.id, &address.to_checksum())
        .await?
        .is_some()
    {
        return Err(already_exists(
            "A wallet with this address already exists".into(),
        ));
    }

    // The root wallet's key is whatever entropy the caller brings, and the user's frame adopts it:
    // only a freshly signed-in session may register it, never a token of any age (a thief would
    // plant a key they know as the victim's own wallet).
    if body.wallet_index == 0
        && !recently_signed_in(&deps.db, &deps.clock, &caller.claims.sid).await?
    {
        audit(
            caller,
            &address.to_checksum(),
            "create",
            "refused_stale_session",
        );
        return Err(proof_refused("Sign in again to create your wallet"));
    }

    // (shares, device key) for index 0; the root address for later indexes.
    let (root_parts, root_address) = if body.wallet_index == 0 {
        let auth = required_share(body.auth_share.as_deref(), "auth_share", ShareKind::Auth)?;
        let recovery = required_share(
            body.recovery_share.as_deref(),
            "recovery_share",
            ShareKind::Recovery,
        )?;
        let device_key = required_device_key(body.device_public_key.as_deref())?;
        (Some((auth, recovery, device_key)), None)
    } else {
        if body.auth_share.is_some() || body.recovery_share.is_some() {
            return Err(AppError::invalid_data(
                "Shares are only sent for wallet index 0; later wallets reuse them",
            ));
        }
        if body.device_public_key.is_some() {
            return Err(AppError::invalid_data(
                "device_public_key is only sent for wallet index 0",
            ));
        }
        let Some(root) = existing.iter().find(|w| w.wallet_index == 0) else {
            return Err(AppError::invalid_data(
                "Create the wallet at index 0 before adding more",
            ));
        };
        let next = existing.len();
        if usize::try_from(body.wallet_index).ok() != Some(next) {
            return Err(AppError::invalid_data(format!(
                "The next wallet index is {next}"
            )));
        }
        let root = Address::parse(&root.address).map_err(|e| AppError::internal(&e))?;
        (None, Some(root))
    };

    // Proof of possession: the key at `wallet_index` (and for later indexes the root key) signs
    // the message naming this app, user, address, index, shares and device key.
    let checksum = address.to_checksum();
    let nonce = consume_challenge(
        deps,
        caller,
        body.nonce.as_deref(),
        WalletChallengePurpose::Create,
        (&checksum, "create"),
    )
    .await?;
    let message = wallet_proof_message(
        &caller.app.id,
        user_id,
        &WalletProof {
            purpose: WalletChallengePurpose::Create.as_str(),
            address: &address,
            wallet_index: body.wallet_index,
            shares: root_parts.as_ref().map(|(a, r, _)| (a, r)),
            device_public_key: root_parts.as_ref().map(|(_, _, d)| d.as_str()),
        },
        &nonce,
    );
    let signed_by = |signature: Option<&str>, signer: &Address| {
        signature.is_some_and(|s| wallet_signed(&message, s, signer))
    };
    let proven = signed_by(body.signature.as_deref(), &address)
        && root_address
            .as_ref()
            .is_none_or(|root| signed_by(body.root_signature.as_deref(), root));
    if !proven {
        audit(caller, &checksum, "create", "refused_proof");
        return Err(proof_refused(
            "The wallet proof is not signed by this wallet's key",
        ));
    }

    let root_shares = match &root_parts {
        Some((auth, recovery, device_key)) => Some(seal_pair(
            &deps.share_vault,
            auth,
            recovery,
            address,
            user_id,
            Some(device_key.clone()),
        )?),
        None => None,
    };
    let record = EmbeddedWalletRecord {
        id: random_id(25)?,
        app_id: caller.app.id.clone(),
        user_id: user_id.to_string(),
        address: checksum,
        chain_type: chain.as_str().into(),
        wallet_index: body.wallet_index,
        recovery_method: recovery_method.as_str().into(),
        imported: false,
        created_at: deps.clock.now(),
    };
    match deps
        .db
        .create_embedded_wallet(
            &record,
            root_shares.as_ref(),
            &[events::wallet_created(&record)?],
        )
        .await
    {
        Ok(()) => {}
        // A concurrent create took the index or the address first.
        Err(DbError::Conflict { .. }) => {
            return Err(already_exists(
                "An embedded wallet already exists at this index or address".into(),
            ));
        }
        Err(other) => return Err(other.into()),
    }
    audit(caller, &record.address, "create", "stored");

    let user = user_view(&deps.db, &caller.user).await?;
    let wallet = wallet_account(&user.linked_accounts, &record.id)
        .ok_or_else(|| AppError::internal(&MissingAfterInsert))?;
    Ok(CreateEmbeddedWalletResponse { user, wallet })
}

/// The user's root auth share for any of the user's wallets, to the device whose key signed a
/// fresh `key_material` challenge; with `recovery: true` also the recovery share, to a session
/// that signed in within [`RECOVERY_WINDOW_S`](super::recovery::automatic::RECOVERY_WINDOW_S) and has not recovered before. For a user with a
/// second factor, export and recovery (and with transaction protection, signing) also need a
/// fresh MFA token of this session ([`guard`]).
pub async fn key_material(
    deps: &WalletDeps,
    caller: &FrameCaller,
    address: &str,
    body: KeyMaterialRequest,
) -> Result<KeyMaterialResponse, AppError> {
    let chain = supported_chain(body.chain_type)?;
    let wallet = owned_wallet(deps, caller, address, chain).await?;
    let address = wallet.address.clone();
    let recovery_wanted = body.recovery == Some(true);
    let action = if recovery_wanted {
        "key_material_recovery"
    } else {
        "key_material"
    };
    if let Err(limited) = within_limit(deps, caller, KEY_MATERIAL_LIMIT).await {
        audit(caller, &address, action, "refused_rate_limit");
        return Err(limited);
    }
    // MFA (docs/wallet.md "MFA"): refused here, before any nonce or recovery allowance is spent;
    // the token is used up only once every other check passed.
    let operation = match (recovery_wanted, body.intent.unwrap_or_default()) {
        (true, _) => Operation::Recovery,
        (false, KeyMaterialIntent::Export) => Operation::Export,
        (false, KeyMaterialIntent::Sign) => Operation::Sign,
    };
    let mfa = match guard::check(&deps.mfa, caller, operation, body.mfa_token.as_deref()).await {
        Ok(cleared) => cleared,
        Err(refused) => {
            audit(caller, &address, action, "refused_mfa");
            return Err(refused);
        }
    };
    let root = root_address(deps, caller, chain).await?;
    let user_id = caller.user.id.as_str();
    let (auth_envelope, device_public_key) = deps
        .db
        .auth_share_envelope(user_id, chain.as_str())
        .await?
        .ok_or_else(not_found)?;
    let recovery_method =
        RecoveryMethod::parse(&wallet.recovery_method).unwrap_or(RecoveryMethod::Privy);
    let vault = &deps.share_vault;

    let recovery_share = if recovery_wanted {
        let share = recovery::automatic::release(
            deps,
            caller,
            Release {
                wallet_id: &wallet.id,
                address: &address,
                method: recovery_method,
                root,
                chain,
                action,
            },
        )
        .await?;
        Some(STANDARD.encode(share.as_bytes()))
    } else {
        let nonce = consume_challenge(
            deps,
            caller,
            body.nonce.as_deref(),
            WalletChallengePurpose::KeyMaterial,
            (&address, action),
        )
        .await?;
        let wallet_address = parse_address(&address)?;
        let message = unlock_message(&caller.app.id, user_id, &wallet_address, &nonce);
        let signed = match (&device_public_key, &body.device_signature) {
            (Some(key), Some(signature)) => device_signed(key, &message, signature),
            _ => false,
        };
        if !signed {
            audit(caller, &address, action, "refused_device_signature");
            return Err(proof_refused(
                "This device is not registered for the wallet; recover it",
            ));
        }
        None
    };
    if let Err(refused) = mfa.consume(&deps.mfa, caller).await {
        audit(caller, &address, action, "refused_mfa");
        return Err(refused);
    }
    if operation == Operation::Export {
        // Recorded before the share leaves: no export the host back end cannot hear about.
        let exported = events::wallet_used(
            WebhookEventType::WalletPrivateKeyExport,
            &caller.app.id,
            user_id,
            &wallet.id,
            &address,
        )?;
        deps.db.record_events(&[exported], deps.clock.now()).await?;
    }
    let auth = vault
        .open(ShareKind::Auth, &auth_envelope, root, user_id)
        .map_err(|e| AppError::internal(&e))?;
    let outcome = if recovery_share.is_some() {
        "released_auth_and_recovery"
    } else {
        "released_auth"
    };
    audit(caller, &address, action, outcome);
    Ok(KeyMaterialResponse {
        address: wallet.address,
        chain_type: chain,
        wallet_index: wallet.wallet_index,
        recovery_method,
        auth_share: STANDARD.encode(auth.as_bytes()),
        recovery_share,
        single_use: mfa.single_use,
    })
}

/// Replaces both root shares and the device key at once (after the frame recovered the wallet
/// on a new device and re-split it), keeping the old ones in `wallet_share_history`. Only a
/// session that got the recovery share in the last [`RECOVERY_WINDOW_S`](super::recovery::automatic::RECOVERY_WINDOW_S) may, with the root
/// key's signature over the new shares and device key.
pub async fn replace_shares(
    deps: &WalletDeps,
    caller: &FrameCaller,
    address: &str,
    body: ReplaceSharesRequest,
) -> Result<ReplaceSharesResponse, AppError> {
    let chain = supported_chain(body.chain_type)?;
    let wallet = owned_wallet(deps, caller, address, chain).await?;
    let auth = parse_share(&body.auth_share, "auth_share", ShareKind::Auth)?;
    let recovery = parse_share(&body.recovery_share, "recovery_share", ShareKind::Recovery)?;
    let device_key = required_device_key(body.device_public_key.as_deref())?;
    let root = root_address(deps, caller, chain).await?;
    let user_id = caller.user.id.as_str();
    let now = deps.clock.now();
    if !recovery::automatic::recovered_lately(deps, caller, now).await? {
        audit(
            caller,
            &wallet.address,
            "replace_shares",
            "refused_stale_session",
        );
        return Err(sign_in_again());
    }
    let nonce = consume_challenge(
        deps,
        caller,
        body.nonce.as_deref(),
        WalletChallengePurpose::ReplaceShares,
        (&wallet.address, "replace_shares"),
    )
    .await?;
    let message = wallet_proof_message(
        &caller.app.id,
        user_id,
        &WalletProof {
            purpose: WalletChallengePurpose::ReplaceShares.as_str(),
            address: &root,
            wallet_index: 0,
            shares: Some((&auth, &recovery)),
            device_public_key: Some(&device_key),
        },
        &nonce,
    );
    if !body
        .signature
        .as_deref()
        .is_some_and(|s| wallet_signed(&message, s, &root))
    {
        audit(caller, &wallet.address, "replace_shares", "refused_proof");
        return Err(proof_refused(
            "The wallet proof is not signed by this wallet's key",
        ));
    }
    let sealed = seal_pair(
        &deps.share_vault,
        &auth,
        &recovery,
        root,
        user_id,
        Some(device_key),
    )?;
    if !deps
        .db
        .replace_root_shares(
            user_id,
            chain.as_str(),
            &sealed,
            &random_id(25)?,
            &caller.claims.sid,
            now,
        )
        .await?
    {
        return Err(not_found());
    }
    audit(caller, &wallet.address, "replace_shares", "replaced");
    Ok(ReplaceSharesResponse {
        address: wallet.address,
    })
}

/// The caller's wallet at `address`; anyone else's, or none, is `linked_account_not_found`.
async fn owned_wallet(
    deps: &WalletDeps,
    caller: &FrameCaller,
    address: &str,
    chain: ChainType,
) -> Result<EmbeddedWalletRecord, AppError> {
    let address = parse_address(address)?;
    deps.db
        .find_embedded_wallet(&caller.app.id, &address.to_checksum())
        .await?
        .filter(|w| w.user_id == caller.user.id && w.chain_type == chain.as_str())
        .ok_or_else(not_found)
}

/// The root (index 0) wallet's address, which the share envelopes are bound to.
async fn root_address(
    deps: &WalletDeps,
    caller: &FrameCaller,
    chain: ChainType,
) -> Result<Address, AppError> {
    let wallets = deps
        .db
        .embedded_wallets(&caller.user.id, chain.as_str())
        .await?;
    let root = wallets
        .iter()
        .find(|w| w.wallet_index == 0)
        .ok_or_else(not_found)?;
    Address::parse(&root.address).map_err(|e| AppError::internal(&e))
}

/// A wallet just stored is missing from the user's accounts (should not happen).
#[derive(Debug, thiserror::Error)]
#[error("created embedded wallet missing from linked accounts")]
struct MissingAfterInsert;

/// The wallet with this id among the user's wire accounts.
fn wallet_account(user_accounts: &[LinkedAccount], id: &str) -> Option<LinkedAccount> {
    user_accounts
        .iter()
        .find(|account| matches!(account, LinkedAccount::Wallet(w) if w.id.as_deref() == Some(id)))
        .cloned()
}
