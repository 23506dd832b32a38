//! Sign-In With Solana (spec §7): `POST /siws/{init, authenticate, link, unlink, transfer}`.
//!
//! The same flow and nonce rules as SIWE ([`super::siwe`]); the message is the Solana layout
//! ([`message`]) and the signature an ed25519 one by the address itself. The proven identity is
//! a `wallet` account (`chain_type: solana`) whose subject is the base58 address.

pub mod message;
pub mod routes;

use axum::Json;
use axum::extract::State;
use axum::response::Response;
use symbolon_protocol::siwe::{
    ExternalWalletMetadata, SiweInitRequest, SiweInitResponse, SiweTransferRequest,
    SiweUnlinkRequest, SiwsAuthenticateRequest, SiwsLinkRequest, SiwsMessageType,
};
use symbolon_protocol::user::{ChainType, User};

use self::message::check_siws;
use super::{
    check_metadata, issue_nonce, normalize_solana, take_nonce, transfer_wallet, unlink_wallet,
    wallet_identity,
};
use crate::accounts::VerifiedIdentity;
use crate::error::AppError;
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
    let address = normalize_solana(&body.address)
        .ok_or_else(|| AppError::invalid_data("Invalid Solana address"))?;
    let issued = issue_nonce(&deps, &caller.ctx, &client_ip, ChainType::Solana, address).await?;
    Ok(Json(issued))
}

/// Signs in (or up) with a signed message.
pub async fn authenticate(
    State(deps): State<WalletLoginDeps>,
    caller: LoginCaller,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<SiwsAuthenticateRequest>,
) -> Result<Response, AppError> {
    let identity = proven_identity(&deps, &caller.ctx, &client_ip, &body.signed).await?;
    sign_in(&deps.login, &caller, &identity, body.mode).await
}

/// Links the signed message's wallet to the signed-in user.
pub async fn link(
    State(deps): State<WalletLoginDeps>,
    signed_in: SignedIn,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<SiwsLinkRequest>,
) -> Result<Json<User>, AppError> {
    let identity = proven_identity(&deps, &signed_in.ctx, &client_ip, &body).await?;
    link_to(&deps.login, &signed_in, &identity).await
}

/// The wallet identity a signed message proves (login and link share it).
async fn proven_identity(
    deps: &WalletLoginDeps,
    ctx: &AppContext,
    client_ip: &ClientIp,
    signed: &SiwsLinkRequest,
) -> Result<VerifiedIdentity, AppError> {
    let metadata = &signed.wallet;
    let proof = Proof {
        message: &signed.message,
        signature: &signed.signature,
        message_type: signed.message_type,
        metadata,
    };
    verify(deps, ctx, client_ip, proof).await
}

/// Unlinks a Solana wallet; never the last way in.
pub async fn unlink(
    State(deps): State<WalletLoginDeps>,
    signed_in: SignedIn,
    JsonBody(body): JsonBody<SiweUnlinkRequest>,
) -> Result<Json<User>, AppError> {
    unlink_wallet(&deps, &signed_in, normalize_solana(&body.address)).await
}

/// Moves a Solana wallet from its owner to the caller, with the nonce of
/// `account_transfer_required`.
pub async fn transfer(
    State(deps): State<WalletLoginDeps>,
    signed_in: SignedIn,
    JsonBody(body): JsonBody<SiweTransferRequest>,
) -> Result<Json<User>, AppError> {
    let address = normalize_solana(&body.address);
    let metadata = body.metadata.as_ref();
    transfer_wallet(
        &deps,
        &signed_in,
        ChainType::Solana,
        address,
        &body.nonce,
        metadata,
    )
    .await
}

/// What a client sends to prove a Solana wallet.
#[derive(Debug, Clone, Copy)]
struct Proof<'a> {
    message: &'a str,
    signature: &'a str,
    message_type: Option<SiwsMessageType>,
    metadata: &'a ExternalWalletMetadata,
}

/// Checks the message, the signature and the nonce (used up last); returns the identity.
async fn verify(
    deps: &WalletLoginDeps,
    ctx: &AppContext,
    client_ip: &ClientIp,
    proof: Proof<'_>,
) -> Result<VerifiedIdentity, AppError> {
    let (origin, domain) = ctx.site()?;
    let app = &ctx.app;
    check_metadata(proof.metadata)?;
    if proof.message_type.unwrap_or_default() != SiwsMessageType::Plain {
        return Err(AppError::invalid_data(
            "Only plain Sign-In With Solana messages are accepted",
        ));
    }
    let now = deps.clock.now();
    client_ip.spend(&deps.ip_limits, now).await?;
    let checked = check_siws(proof.message, proof.signature, &origin, &domain, now)?;
    take_nonce(
        deps,
        &app.id,
        ChainType::Solana,
        &checked.address,
        &checked.nonce,
        now,
    )
    .await?;
    wallet_identity(ChainType::Solana, checked.address, proof.metadata)
}
