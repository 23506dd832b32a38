//! Sign-In With Ethereum (EIP-4361; spec §4, §7): `POST /siwe/{init, authenticate, link,
//! unlink, link_smart_wallet, transfer}`.
//!
//! `init` gives a nonce bound to the address; the wallet signs a message naming this site, the
//! fixed statement and that nonce ([`message`]); the signature is an EOA's, or a contract
//! wallet's checked over the chain's RPC ([`contract`]: EIP-1271, EIP-6492); the nonce is used
//! up last by one conditional DELETE. The proven identity is a `wallet` account whose subject
//! is the checksummed address.

pub mod contract;
pub mod message;
pub mod routes;

use axum::Json;
use axum::extract::State;
use axum::response::Response;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::siwe::{
    SiweAuthenticateRequest, SiweInitRequest, SiweInitResponse, SiweLinkRequest,
    SiweLinkSmartWalletRequest, SiweTransferRequest, SiweUnlinkRequest,
};
use symbolon_protocol::user::{ChainType, User};
use symbolon_wallet_core::chains::ethereum::{Address, recover_personal_signer};
use symbolon_wallet_core::decode_hex;

use self::contract::{ChainError, MAX_SIGNATURE_LEN, Signer, is_valid_signature};
use self::message::check_siwe;
use super::{
    check_metadata, ethereum_address, issue_nonce, require_live_nonce, take_nonce, transfer_wallet,
    unlink_wallet, wallet_identity,
};
use crate::accounts::SMART_WALLET;
use crate::accounts::VerifiedIdentity;
use crate::app_settings::login_methods::LoginMethod;
use crate::db::account_details::SmartWalletDetails;
use crate::error::{AppError, Status};
use crate::methods::wallet::deps::WalletLoginDeps;
use crate::methods::{link_to, sign_in};
use crate::web::app_context::AppContext;
use crate::web::auth::{LoginCaller, SignedIn};
use crate::web::client_ip::ClientIp;
use crate::web::json_body::JsonBody;

/// A nonce for one sign-in message of `address`.
pub async fn init(
    State(deps): State<WalletLoginDeps>,
    caller: LoginCaller,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<SiweInitRequest>,
) -> Result<Json<SiweInitResponse>, AppError> {
    let address = ethereum_address(&body.address)
        .ok_or_else(|| AppError::invalid_data("Invalid Ethereum address"))?;
    let issued = issue_nonce(
        &deps,
        &caller.ctx,
        &client_ip,
        ChainType::Ethereum,
        address.to_checksum(),
    )
    .await?;
    Ok(Json(issued))
}

/// Signs in (or up) with a signed message.
pub async fn authenticate(
    State(deps): State<WalletLoginDeps>,
    caller: LoginCaller,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<SiweAuthenticateRequest>,
) -> Result<Response, AppError> {
    let identity = proven_identity(&deps, &caller.ctx, &client_ip, &body.signed).await?;
    sign_in(&deps.login, &caller, &identity, body.mode).await
}

/// Links the signed message's wallet to the signed-in user.
pub async fn link(
    State(deps): State<WalletLoginDeps>,
    signed_in: SignedIn,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<SiweLinkRequest>,
) -> Result<Json<User>, AppError> {
    let identity = proven_identity(&deps, &signed_in.ctx, &client_ip, &body).await?;
    link_to(&deps.login, &signed_in, &identity).await
}

/// The wallet identity a signed message proves (login and link share it).
async fn proven_identity(
    deps: &WalletLoginDeps,
    ctx: &AppContext,
    client_ip: &ClientIp,
    signed: &SiweLinkRequest,
) -> Result<VerifiedIdentity, AppError> {
    let metadata = &signed.wallet;
    check_metadata(metadata)?;
    let proof = Proof {
        message: &signed.message,
        signature: &signed.signature,
        chain_id: signed.chain_id.as_deref(),
        signer: Signer::Any,
    };
    let address = verify(deps, ctx, client_ip, proof).await?;
    wallet_identity(ChainType::Ethereum, address.to_checksum(), metadata)
}

/// Links a smart wallet that signed the message (EIP-1271, or EIP-6492 before deployment): a
/// contract, never an ordinary wallet's (EOA's) own signature, never an embedded wallet.
pub async fn link_smart_wallet(
    State(deps): State<WalletLoginDeps>,
    signed_in: SignedIn,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<SiweLinkSmartWalletRequest>,
) -> Result<Json<User>, AppError> {
    let kind = body.smart_wallet_type.trim();
    let version = body.smart_wallet_version.as_deref().map(str::trim);
    if kind.is_empty() || kind.len() > 64 || version.is_some_and(|v| v.len() > 64) {
        return Err(AppError::invalid_data(
            "smart_wallet_type is required; it and smart_wallet_version are at most 64 characters",
        ));
    }
    let proof = Proof {
        message: &body.message,
        signature: &body.signature,
        chain_id: None,
        signer: Signer::Contract,
    };
    let address = verify(&deps, &signed_in.ctx, &client_ip, proof).await?;
    let details = SmartWalletDetails {
        smart_wallet_type: kind.to_string(),
        smart_wallet_version: version.map(str::to_string),
    };
    let identity = VerifiedIdentity::with_details(
        LoginMethod::Wallet,
        SMART_WALLET,
        address.to_checksum(),
        &details,
    )?;
    link_to(&deps.login, &signed_in, &identity).await
}

/// Unlinks an external wallet; never an embedded one, never the last way in.
pub async fn unlink(
    State(deps): State<WalletLoginDeps>,
    signed_in: SignedIn,
    JsonBody(body): JsonBody<SiweUnlinkRequest>,
) -> Result<Json<User>, AppError> {
    let address = ethereum_address(&body.address).map(|a| a.to_checksum());
    unlink_wallet(&deps, &signed_in, address).await
}

/// Moves a wallet from its owner to the caller, with the nonce of `account_transfer_required`.
pub async fn transfer(
    State(deps): State<WalletLoginDeps>,
    signed_in: SignedIn,
    JsonBody(body): JsonBody<SiweTransferRequest>,
) -> Result<Json<User>, AppError> {
    let address = ethereum_address(&body.address).map(|a| a.to_checksum());
    let metadata = body.metadata.as_ref();
    transfer_wallet(
        &deps,
        &signed_in,
        ChainType::Ethereum,
        address,
        &body.nonce,
        metadata,
    )
    .await
}

/// What a client sends to prove a wallet.
#[derive(Debug, Clone, Copy)]
struct Proof<'a> {
    message: &'a str,
    signature: &'a str,
    chain_id: Option<&'a str>,
    /// `Contract` for `link_smart_wallet`.
    signer: Signer,
}

/// Checks the message, the signature and the nonce (used up last, so only a proof that holds
/// spends it); returns the proven address.
async fn verify(
    deps: &WalletLoginDeps,
    ctx: &AppContext,
    client_ip: &ClientIp,
    proof: Proof<'_>,
) -> Result<Address, AppError> {
    let (origin, domain) = ctx.site()?;
    let app = &ctx.app;
    let now = deps.clock.now();
    client_ip.spend(&deps.ip_limits, now).await?;
    let checked = check_siwe(proof.message, &origin, &domain, proof.chain_id, now)?;
    let signature = decode_hex(proof.signature.trim())
        .ok()
        .filter(|s| !s.is_empty() && s.len() <= MAX_SIGNATURE_LEN)
        .ok_or_else(|| AppError::invalid_data("signature must be 0x-prefixed hex"))?;
    // An ordinary wallet's own signature is no smart wallet's: refused before the nonce and the
    // chain are asked (any other form of it finds no contract to accept it).
    if proof.signer == Signer::Contract
        && recover_personal_signer(proof.message.as_bytes(), &signature)
            .is_ok_and(|signer| signer == checked.address)
    {
        return Err(AppError::invalid_data(
            "This is an ordinary wallet's signature: link_smart_wallet takes a contract wallet's \
             (link an ordinary wallet with /siwe/link)",
        ));
    }
    let address = checked.address.to_checksum();
    let (chain, nonce) = (ChainType::Ethereum, checked.nonce.as_str());
    require_live_nonce(deps, &app.id, chain, &address, nonce, now).await?;
    let rpc_url = app.settings.wallets.rpc_url(checked.chain_id);
    let valid = is_valid_signature(
        proof.message.as_bytes(),
        &signature,
        checked.address,
        checked.chain_id,
        rpc_url,
        proof.signer,
    )
    .await
    .map_err(|error| match error {
        ChainError::NoRpc(chain) => AppError::new(
            ServerErrorCode::InvalidCredentials,
            format!(
                "Invalid signature (contract wallet signatures on chain {chain} cannot be \
                 checked: no RPC endpoint is configured)"
            ),
        ),
        other => {
            tracing::warn!(error = %other, "contract wallet signature check failed");
            AppError::new(
                ServerErrorCode::InternalError,
                "The chain could not be reached",
            )
            .with_status(Status::BadGateway)
        }
    })?;
    if !valid {
        return Err(AppError::new(
            ServerErrorCode::InvalidCredentials,
            "Invalid signature",
        ));
    }
    let address = checked.address.to_checksum();
    take_nonce(
        deps,
        &app.id,
        ChainType::Ethereum,
        &address,
        &checked.nonce,
        now,
    )
    .await?;
    Ok(checked.address)
}
