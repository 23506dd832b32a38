//! The wallet frame's share endpoints (`docs/wallet.md`): register a wallet with its root
//! shares, read the root shares back, replace them after a re-split.
//!
//! The server never sees the entropy or a device share: it stores the auth and recovery shares
//! of the user's root entropy, each sealed under its own key and bound to the root (index 0)
//! wallet's address and the user.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::user::{ChainType, LinkedAccount, RecoveryMethod};
use symbolon_protocol::wallet::{
    CreateEmbeddedWalletRequest, CreateEmbeddedWalletResponse, KeyMaterialRequest,
    KeyMaterialResponse, ReplaceSharesRequest, ReplaceSharesResponse,
};
use symbolon_wallet_core::{Address, Share, ShareKind};

use super::error::AppError;
use super::frame_caller::FrameCaller;
use super::json_body::JsonBody;
use super::user_view::user_view;
use crate::db::DbError;
use crate::db::wallets::{EmbeddedWalletRecord, RootShareEnvelopes};
use crate::random::random_id;
use crate::state::AppState;
use crate::wallets::VaultError;

/// Registers the wallet the frame derived at `wallet_index`. Index 0 brings the root shares;
/// later indexes are derived from the same entropy and bring none.
pub async fn create(
    State(state): State<AppState>,
    caller: FrameCaller,
    JsonBody(body): JsonBody<CreateEmbeddedWalletRequest>,
) -> Result<Json<CreateEmbeddedWalletResponse>, AppError> {
    let chain = supported_chain(body.chain_type)?;
    let recovery_method = body.recovery_method.unwrap_or(RecoveryMethod::Privy);
    if recovery_method != RecoveryMethod::Privy {
        return Err(AppError::new(
            ServerErrorCode::DisallowedRecoveryMethod,
            format!(
                "Recovery method {} is not supported; use privy",
                recovery_method.as_str()
            ),
        ));
    }
    let address = parse_address(&body.address)?;
    let user_id = caller.user.id.as_str();
    let existing = state.db.embedded_wallets(user_id, chain.as_str()).await?;
    if existing.iter().any(|w| w.wallet_index == body.wallet_index) {
        return Err(already_exists(format!(
            "An embedded wallet already exists at index {}",
            body.wallet_index
        )));
    }
    if state
        .db
        .find_embedded_wallet(&caller.app.id, &address.to_checksum())
        .await?
        .is_some()
    {
        return Err(already_exists(
            "A wallet with this address already exists".into(),
        ));
    }

    let root_shares = if body.wallet_index == 0 {
        let auth = required_share(body.auth_share.as_deref(), "auth_share", ShareKind::Auth)?;
        let recovery = required_share(
            body.recovery_share.as_deref(),
            "recovery_share",
            ShareKind::Recovery,
        )?;
        Some(seal_pair(&state, &auth, &recovery, address, user_id)?)
    } else {
        if body.auth_share.is_some() || body.recovery_share.is_some() {
            return Err(AppError::invalid_data(
                "Shares are only sent for wallet index 0; later wallets reuse them",
            ));
        }
        if existing.is_empty() {
            return Err(AppError::invalid_data(
                "Create the wallet at index 0 before adding more",
            ));
        }
        let next = existing.len();
        if usize::try_from(body.wallet_index).ok() != Some(next) {
            return Err(AppError::invalid_data(format!(
                "The next wallet index is {next}"
            )));
        }
        None
    };

    let record = EmbeddedWalletRecord {
        id: random_id(25)?,
        app_id: caller.app.id.clone(),
        user_id: user_id.to_string(),
        address: address.to_checksum(),
        chain_type: chain.as_str().into(),
        wallet_index: body.wallet_index,
        recovery_method: recovery_method.as_str().into(),
        imported: false,
        created_at: state.clock.now(),
    };
    match state
        .db
        .create_embedded_wallet(&record, root_shares.as_ref())
        .await
    {
        Ok(()) => {}
        // A concurrent create took the index or the address first.
        Err(DbError::Conflict) => {
            return Err(already_exists(
                "An embedded wallet already exists at this index or address".into(),
            ));
        }
        Err(other) => return Err(other.into()),
    }
    tracing::info!(app = %record.app_id, index = record.wallet_index, "embedded wallet created");

    let user = user_view(&state, &caller.user).await?;
    let wallet = wallet_account(&user.linked_accounts, &record.id)
        .ok_or_else(|| AppError::internal(&MissingAfterInsert))?;
    Ok(Json(CreateEmbeddedWalletResponse { user, wallet }))
}

/// The user's root auth and recovery shares, for any of the user's wallets.
pub async fn key_material(
    State(state): State<AppState>,
    caller: FrameCaller,
    Path(address): Path<String>,
    JsonBody(body): JsonBody<KeyMaterialRequest>,
) -> Result<Json<KeyMaterialResponse>, AppError> {
    let chain = supported_chain(body.chain_type)?;
    let wallet = owned_wallet(&state, &caller, &address, chain).await?;
    let (root, envelopes) = root_of(&state, &caller, chain).await?;
    let user_id = caller.user.id.as_str();
    let vault = &state.share_vault;
    let auth = vault
        .open(ShareKind::Auth, &envelopes.auth, root, user_id)
        .map_err(|e| AppError::internal(&e))?;
    let recovery_method =
        RecoveryMethod::parse(&wallet.recovery_method).unwrap_or(RecoveryMethod::Privy);
    // Only automatic recovery releases the recovery share; others never open it.
    let recovery_share = match recovery_method {
        RecoveryMethod::Privy => {
            let recovery = vault
                .open(ShareKind::Recovery, &envelopes.recovery, root, user_id)
                .map_err(|e| AppError::internal(&e))?;
            Some(STANDARD.encode(recovery.as_bytes()))
        }
        _ => None,
    };
    tracing::info!(app = %caller.app.id, index = wallet.wallet_index, "wallet key material released");
    Ok(Json(KeyMaterialResponse {
        address: wallet.address,
        chain_type: chain,
        wallet_index: wallet.wallet_index,
        recovery_method,
        auth_share: STANDARD.encode(auth.as_bytes()),
        recovery_share,
    }))
}

/// Replaces both root shares at once (after the frame re-split the entropy for a new device).
pub async fn replace_shares(
    State(state): State<AppState>,
    caller: FrameCaller,
    Path(address): Path<String>,
    JsonBody(body): JsonBody<ReplaceSharesRequest>,
) -> Result<Json<ReplaceSharesResponse>, AppError> {
    let chain = supported_chain(body.chain_type)?;
    let wallet = owned_wallet(&state, &caller, &address, chain).await?;
    let auth = parse_share(&body.auth_share, "auth_share", ShareKind::Auth)?;
    let recovery = parse_share(&body.recovery_share, "recovery_share", ShareKind::Recovery)?;
    let (root, _) = root_of(&state, &caller, chain).await?;
    let user_id = caller.user.id.as_str();
    let sealed = seal_pair(&state, &auth, &recovery, root, user_id)?;
    if !state
        .db
        .replace_root_shares(user_id, chain.as_str(), &sealed, state.clock.now())
        .await?
    {
        return Err(not_found());
    }
    tracing::info!(app = %caller.app.id, "wallet shares replaced");
    Ok(Json(ReplaceSharesResponse {
        address: wallet.address,
    }))
}

/// Only Ethereum wallets exist so far.
fn supported_chain(chain: ChainType) -> Result<ChainType, AppError> {
    match chain {
        ChainType::Ethereum => Ok(chain),
        ChainType::Solana => Err(AppError::new(
            ServerErrorCode::NotSupported,
            "Solana embedded wallets are not supported yet",
        )
        .with_status(StatusCode::BAD_REQUEST)),
    }
}

/// `0x` + 40 hex characters (a mixed-case address must carry a valid EIP-55 checksum).
pub fn parse_address(text: &str) -> Result<Address, AppError> {
    Address::parse(text.trim())
        .map_err(|e| AppError::invalid_data(format!("Invalid wallet address: {e}")))
}

/// A base64 share of `kind` from the request field `field`.
fn parse_share(text: &str, field: &str, kind: ShareKind) -> Result<Share, AppError> {
    let bytes = STANDARD
        .decode(text.trim())
        .map_err(|_| AppError::invalid_data(format!("{field} is not valid base64")))?;
    let share = Share::from_bytes(&bytes).map_err(|_| {
        AppError::invalid_data(format!(
            "{field} must be a 17-byte share (identifier and 16 bytes)"
        ))
    })?;
    if share.kind() != kind {
        return Err(AppError::invalid_data(format!(
            "{field} is a {} share, expected the {} share",
            share.kind().name(),
            kind.name()
        )));
    }
    Ok(share)
}

fn required_share(text: Option<&str>, field: &str, kind: ShareKind) -> Result<Share, AppError> {
    let text = text
        .ok_or_else(|| AppError::invalid_data(format!("{field} is required for wallet index 0")))?;
    parse_share(text, field, kind)
}

fn seal_pair(
    state: &AppState,
    auth: &Share,
    recovery: &Share,
    root: Address,
    user_id: &str,
) -> Result<RootShareEnvelopes, AppError> {
    let seal = |share: &Share| -> Result<String, AppError> {
        state
            .share_vault
            .seal(share, root, user_id)
            .map_err(|e: VaultError| AppError::internal(&e))
    };
    Ok(RootShareEnvelopes {
        auth: seal(auth)?,
        recovery: seal(recovery)?,
    })
}

/// The caller's wallet at `address`; anyone else's, or none, is `linked_account_not_found`.
async fn owned_wallet(
    state: &AppState,
    caller: &FrameCaller,
    address: &str,
    chain: ChainType,
) -> Result<EmbeddedWalletRecord, AppError> {
    let address = parse_address(address)?;
    state
        .db
        .find_embedded_wallet(&caller.app.id, &address.to_checksum())
        .await?
        .filter(|w| w.user_id == caller.user.id && w.chain_type == chain.as_str())
        .ok_or_else(not_found)
}

/// The root (index 0) wallet's address, which the share envelopes are bound to, and the
/// stored envelopes.
async fn root_of(
    state: &AppState,
    caller: &FrameCaller,
    chain: ChainType,
) -> Result<(Address, RootShareEnvelopes), AppError> {
    let wallets = state
        .db
        .embedded_wallets(&caller.user.id, chain.as_str())
        .await?;
    let root = wallets
        .iter()
        .find(|w| w.wallet_index == 0)
        .ok_or_else(not_found)?;
    let address = Address::parse(&root.address).map_err(|e| AppError::internal(&e))?;
    let envelopes = state
        .db
        .root_share_envelopes(&caller.user.id, chain.as_str())
        .await?
        .ok_or_else(not_found)?;
    Ok((address, envelopes))
}

fn not_found() -> AppError {
    AppError::new(
        ServerErrorCode::LinkedAccountNotFound,
        "No embedded wallet with this address belongs to the user",
    )
}

fn already_exists(message: String) -> AppError {
    AppError::new(ServerErrorCode::ResourceAlreadyExists, message)
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
