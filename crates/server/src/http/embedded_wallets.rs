//! The wallet frame's share endpoints (`docs/wallet.md`): a challenge for signed calls,
//! register a wallet with its root shares, read the root shares back, replace them after a
//! re-split.
//!
//! The server never sees the entropy or a device share: it stores the auth and recovery shares
//! of the user's root entropy, each sealed under its own key and bound to the root (index 0)
//! wallet's address and the user, and the frame's device public key beside the auth share.
//!
//! A bearer token alone releases nothing: the auth share needs the device key's signature of a
//! fresh nonce; the recovery share needs a session that signed in within the last 10 minutes
//! with a fresh proof and has not recovered yet; registering or replacing shares needs the wallet
//! key's signature, and registering the root wallet a fresh sign-in too.
//! Every release and refusal is logged under the `symbolon::audit` target.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::user::{ChainType, LinkedAccount, RecoveryMethod};
use symbolon_protocol::wallet::{
    CreateEmbeddedWalletRequest, CreateEmbeddedWalletResponse, KeyMaterialIntent,
    KeyMaterialRequest, KeyMaterialResponse, ReplaceSharesRequest, ReplaceSharesResponse,
    WalletChallengePurpose, WalletChallengeRequest, WalletChallengeResponse,
};
use symbolon_wallet_core::{Address, Share, ShareKind};

use super::auth::recently_signed_in;
use super::error::AppError;
use super::frame_caller::FrameCaller;
use super::json_body::JsonBody;
use super::path_param::PathParam;
use super::user_view::user_view;
use crate::db::DbError;
use crate::db::wallets::{
    EmbeddedWalletRecord, RecoveryGrant, RootShareEnvelopes, WalletChallengeRecord, WalletLimit,
};
use crate::mfa::guard::{self, Operation};
use crate::random::{random_id, random_token};
use crate::state::AppState;
use crate::wallets::VaultError;
use crate::wallets::proofs::{
    WalletProof, device_signed, nonce_hash, parse_device_public_key, unlock_message,
    wallet_proof_message, wallet_signed,
};

/// Seconds a challenge nonce stays valid.
pub const CHALLENGE_TTL_S: i64 = 120;
/// A session may get the recovery share only this many seconds after its sign-in, and may
/// replace the shares only this long after getting it.
pub const RECOVERY_WINDOW_S: i64 = 600;
/// Recoveries per user per day.
const RECOVERY_CAP: WalletLimit = WalletLimit {
    action: "recovery",
    max: 3,
    window: 86_400,
};
/// `key_material` calls per user per 10 minutes.
const KEY_MATERIAL_LIMIT: WalletLimit = WalletLimit {
    action: "key_material",
    max: 30,
    window: 600,
};
/// Challenges per user per 10 minutes.
const CHALLENGE_LIMIT: WalletLimit = WalletLimit {
    action: "challenge",
    max: 60,
    window: 600,
};

/// Logs one wallet-secret event under `symbolon::audit` (never a share or a signature).
fn audit(caller: &FrameCaller, address: &str, action: &str, outcome: &str) {
    let ip = caller.client_ip.ip();
    tracing::info!(
        target: "symbolon::audit",
        app = %caller.app.id,
        user = %caller.user.id,
        session = %caller.claims.sid,
        ip = %ip,
        address = %address,
        action,
        outcome,
        "wallet audit"
    );
}

/// A refusal of a wallet proof or device signature (403: the token is fine, the proof is not).
fn proof_refused(message: &str) -> AppError {
    AppError::new(ServerErrorCode::InvalidCredentials, message).with_status(StatusCode::FORBIDDEN)
}

/// The step-up refusal: only a fresh sign-in gets the recovery share. `invalid_credentials`,
/// not `missing_or_invalid_mfa`: no MFA code helps here, so the client must not prompt for one.
fn sign_in_again() -> AppError {
    proof_refused("Sign in again to recover your wallet on this device")
}

/// Counts one call against `limit`; `too_many_requests` past it.
async fn within_limit(
    state: &AppState,
    caller: &FrameCaller,
    limit: WalletLimit,
) -> Result<(), AppError> {
    let now = state.clock.now();
    if state
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

/// Consumes the caller's `purpose` challenge `nonce` (single use, this session only); a refusal
/// (missing, expired, used, or a storage failure) is audited as `refused_challenge` of `action`
/// on `address`.
async fn consume_challenge(
    state: &AppState,
    caller: &FrameCaller,
    nonce: Option<&str>,
    purpose: WalletChallengePurpose,
    (address, action): (&str, &str),
) -> Result<String, AppError> {
    let consumed = take_challenge(state, caller, nonce, purpose).await;
    if consumed.is_err() {
        audit(caller, address, action, "refused_challenge");
    }
    consumed
}

/// [`consume_challenge`] without the audit.
async fn take_challenge(
    state: &AppState,
    caller: &FrameCaller,
    nonce: Option<&str>,
    purpose: WalletChallengePurpose,
) -> Result<String, AppError> {
    let nonce = nonce
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .ok_or_else(|| proof_refused("A signed challenge is required"))?;
    let consumed = state
        .db
        .consume_wallet_challenge(
            &nonce_hash(nonce),
            &caller.user.id,
            &caller.claims.sid,
            purpose.as_str(),
            state.clock.now(),
        )
        .await?;
    if consumed {
        Ok(nonce.to_string())
    } else {
        Err(proof_refused("The challenge expired or was already used"))
    }
}

/// A single-use nonce for one signed call of this session (`docs/wallet.md` "Proofs").
pub async fn challenge(
    State(state): State<AppState>,
    caller: FrameCaller,
    JsonBody(body): JsonBody<WalletChallengeRequest>,
) -> Result<Json<WalletChallengeResponse>, AppError> {
    supported_chain(body.chain_type)?;
    within_limit(&state, &caller, CHALLENGE_LIMIT).await?;
    let nonce = random_token()?;
    let now = state.clock.now();
    let expires_at = now + CHALLENGE_TTL_S;
    state
        .db
        .insert_wallet_challenge(
            &WalletChallengeRecord {
                nonce_hash: nonce_hash(&nonce),
                user_id: caller.user.id.clone(),
                session_id: caller.claims.sid.clone(),
                purpose: body.purpose.as_str().into(),
                expires_at,
            },
            now,
        )
        .await?;
    Ok(Json(WalletChallengeResponse { nonce, expires_at }))
}

/// Registers the wallet the frame derived at `wallet_index`. Index 0 brings the root shares
/// and the device public key; later indexes are derived from the same entropy and bring none.
/// Either way the wallet's own key signs a `create` proof (later indexes: the root key too),
/// so no one registers an address they do not hold or shares the key did not vouch for.
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

    // The root wallet's key is whatever entropy the caller brings, and the user's frame adopts it:
    // only a freshly signed-in session may register it, never a token of any age (a thief would
    // plant a key they know as the victim's own wallet).
    if body.wallet_index == 0 && !recently_signed_in(&state, &caller.claims.sid).await? {
        audit(
            &caller,
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
        &state,
        &caller,
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
        audit(&caller, &checksum, "create", "refused_proof");
        return Err(proof_refused(
            "The wallet proof is not signed by this wallet's key",
        ));
    }

    let root_shares = match &root_parts {
        Some((auth, recovery, device_key)) => Some(seal_pair(
            &state,
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
        created_at: state.clock.now(),
    };
    match state
        .db
        .create_embedded_wallet(&record, root_shares.as_ref())
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
    audit(&caller, &record.address, "create", "stored");

    let user = user_view(&state, &caller.user).await?;
    let wallet = wallet_account(&user.linked_accounts, &record.id)
        .ok_or_else(|| AppError::internal(&MissingAfterInsert))?;
    Ok(Json(CreateEmbeddedWalletResponse { user, wallet }))
}

/// The user's root auth share for any of the user's wallets, to the device whose key signed a
/// fresh `key_material` challenge; with `recovery: true` also the recovery share, to a session
/// that signed in within [`RECOVERY_WINDOW_S`] and has not recovered before. For a user with a
/// second factor, export and recovery (and with transaction protection, signing) also need a
/// fresh MFA token of this session ([`guard`]).
pub async fn key_material(
    State(state): State<AppState>,
    caller: FrameCaller,
    PathParam(address): PathParam<String>,
    JsonBody(body): JsonBody<KeyMaterialRequest>,
) -> Result<Json<KeyMaterialResponse>, AppError> {
    let chain = supported_chain(body.chain_type)?;
    let wallet = owned_wallet(&state, &caller, &address, chain).await?;
    let address = wallet.address.clone();
    let recovery_wanted = body.recovery == Some(true);
    let action = if recovery_wanted {
        "key_material_recovery"
    } else {
        "key_material"
    };
    if let Err(limited) = within_limit(&state, &caller, KEY_MATERIAL_LIMIT).await {
        audit(&caller, &address, action, "refused_rate_limit");
        return Err(limited);
    }
    // MFA (docs/wallet.md "MFA"): refused here, before any nonce or recovery allowance is spent;
    // the token is used up only once every other check passed.
    let operation = match (recovery_wanted, body.intent.unwrap_or_default()) {
        (true, _) => Operation::Recovery,
        (false, KeyMaterialIntent::Export) => Operation::Export,
        (false, KeyMaterialIntent::Sign) => Operation::Sign,
    };
    let mfa = match guard::check(&state, &caller, operation, body.mfa_token.as_deref()).await {
        Ok(cleared) => cleared,
        Err(refused) => {
            audit(&caller, &address, action, "refused_mfa");
            return Err(refused);
        }
    };
    let root = root_address(&state, &caller, chain).await?;
    let user_id = caller.user.id.as_str();
    let (auth_envelope, device_public_key) = state
        .db
        .auth_share_envelope(user_id, chain.as_str())
        .await?
        .ok_or_else(not_found)?;
    let recovery_method =
        RecoveryMethod::parse(&wallet.recovery_method).unwrap_or(RecoveryMethod::Privy);
    let vault = &state.share_vault;

    let recovery_share = if recovery_wanted {
        if recovery_method != RecoveryMethod::Privy {
            audit(&caller, &address, action, "refused_recovery_method");
            return Err(AppError::new(
                ServerErrorCode::DisallowedRecoveryMethod,
                format!(
                    "Recovery method {} is not automatic",
                    recovery_method.as_str()
                ),
            ));
        }
        let now = state.clock.now();
        let grant = state
            .db
            .take_recovery(
                user_id,
                &caller.claims.sid,
                now - RECOVERY_WINDOW_S,
                RECOVERY_CAP,
                now,
            )
            .await?;
        match grant {
            RecoveryGrant::Granted => {}
            RecoveryGrant::SessionNotFresh => {
                audit(&caller, &address, action, "refused_stale_session");
                return Err(sign_in_again());
            }
            RecoveryGrant::CapReached => {
                audit(&caller, &address, action, "refused_recovery_cap");
                return Err(AppError::rate_limited(
                    u64::try_from(RECOVERY_CAP.window).unwrap_or(86_400),
                ));
            }
        }
        let recovery_envelope = state
            .db
            .recovery_share_envelope(user_id, chain.as_str())
            .await?
            .ok_or_else(not_found)?;
        let recovery = vault
            .open(ShareKind::Recovery, &recovery_envelope, root, user_id)
            .map_err(|e| AppError::internal(&e))?;
        Some(STANDARD.encode(recovery.as_bytes()))
    } else {
        let nonce = consume_challenge(
            &state,
            &caller,
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
            audit(&caller, &address, action, "refused_device_signature");
            return Err(proof_refused(
                "This device is not registered for the wallet; recover it",
            ));
        }
        None
    };
    if let Err(refused) = mfa.consume(&state, &caller).await {
        audit(&caller, &address, action, "refused_mfa");
        return Err(refused);
    }
    let auth = vault
        .open(ShareKind::Auth, &auth_envelope, root, user_id)
        .map_err(|e| AppError::internal(&e))?;
    let outcome = if recovery_share.is_some() {
        "released_auth_and_recovery"
    } else {
        "released_auth"
    };
    audit(&caller, &address, action, outcome);
    Ok(Json(KeyMaterialResponse {
        address: wallet.address,
        chain_type: chain,
        wallet_index: wallet.wallet_index,
        recovery_method,
        auth_share: STANDARD.encode(auth.as_bytes()),
        recovery_share,
        single_use: mfa.single_use,
    }))
}

/// Replaces both root shares and the device key at once (after the frame recovered the wallet
/// on a new device and re-split it), keeping the old ones in `wallet_share_history`. Only a
/// session that got the recovery share in the last [`RECOVERY_WINDOW_S`] may, with the root
/// key's signature over the new shares and device key.
pub async fn replace_shares(
    State(state): State<AppState>,
    caller: FrameCaller,
    PathParam(address): PathParam<String>,
    JsonBody(body): JsonBody<ReplaceSharesRequest>,
) -> Result<Json<ReplaceSharesResponse>, AppError> {
    let chain = supported_chain(body.chain_type)?;
    let wallet = owned_wallet(&state, &caller, &address, chain).await?;
    let auth = parse_share(&body.auth_share, "auth_share", ShareKind::Auth)?;
    let recovery = parse_share(&body.recovery_share, "recovery_share", ShareKind::Recovery)?;
    let device_key = required_device_key(body.device_public_key.as_deref())?;
    let root = root_address(&state, &caller, chain).await?;
    let user_id = caller.user.id.as_str();
    let now = state.clock.now();
    let recovered_at = state.db.session_recovered_at(&caller.claims.sid).await?;
    if recovered_at.is_none_or(|at| now - at > RECOVERY_WINDOW_S) {
        audit(
            &caller,
            &wallet.address,
            "replace_shares",
            "refused_stale_session",
        );
        return Err(sign_in_again());
    }
    let nonce = consume_challenge(
        &state,
        &caller,
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
        audit(&caller, &wallet.address, "replace_shares", "refused_proof");
        return Err(proof_refused(
            "The wallet proof is not signed by this wallet's key",
        ));
    }
    let sealed = seal_pair(&state, &auth, &recovery, root, user_id, Some(device_key))?;
    if !state
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
    audit(&caller, &wallet.address, "replace_shares", "replaced");
    Ok(Json(ReplaceSharesResponse {
        address: wallet.address,
    }))
}

/// The device public key of a request that registers shares (base64 uncompressed P-256 point,
/// returned trimmed as it is stored and signed).
fn required_device_key(text: Option<&str>) -> Result<String, AppError> {
    let text = text
        .map(str::trim)
        .ok_or_else(|| AppError::invalid_data("device_public_key is required with shares"))?;
    if parse_device_public_key(text).is_none() {
        return Err(AppError::invalid_data(
            "device_public_key must be base64 of an uncompressed P-256 public key",
        ));
    }
    Ok(text.to_string())
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
    device_public_key: Option<String>,
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
        device_public_key,
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

/// The root (index 0) wallet's address, which the share envelopes are bound to.
async fn root_address(
    state: &AppState,
    caller: &FrameCaller,
    chain: ChainType,
) -> Result<Address, AppError> {
    let wallets = state
        .db
        .embedded_wallets(&caller.user.id, chain.as_str())
        .await?;
    let root = wallets
        .iter()
        .find(|w| w.wallet_index == 0)
        .ok_or_else(not_found)?;
    Address::parse(&root.address).map_err(|e| AppError::internal(&e))
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
