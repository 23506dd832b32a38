//! Sign In With Farcaster (spec §4, §7): `POST /farcaster/{init, authenticate, link, unlink,
//! transfer}`, `GET /farcaster/status`, and the Mini App calls `POST /api/v2/farcaster/{init,
//! authenticate}`.
//!
//! v1 opens a channel on a Farcaster Auth relay ([`relay`]) with our nonce; the Farcaster app
//! approves it and the relay hands back a SIWE message signed by the fid's custody key. v2 hands
//! the nonce to a Mini App host, which signs the same kind of message. Either way the message is
//! checked offline ([`siwf`]: domain, time, `farcaster://fid/<fid>`, signer), the signer must be
//! `custodyOf(fid)` in the ID registry ([`registry`]), and the nonce is used up by one
//! conditional DELETE. The proven identity is a `farcaster` account whose subject is the fid.

pub mod deps;
pub mod registry;
pub mod relay;
pub mod routes;
pub mod signer;
pub mod siwf;

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::HEADER_FARCASTER_CHANNEL_TOKEN as CHANNEL_TOKEN_HEADER;
use symbolon_protocol::farcaster::{
    FarcasterAuthenticateRequest, FarcasterChannelState, FarcasterInitRequest,
    FarcasterInitResponse, FarcasterLinkRequest, FarcasterStatusResponse, FarcasterTransferRequest,
    FarcasterUnlinkRequest, FarcasterV2AuthenticateRequest, FarcasterV2InitResponse,
};
use symbolon_protocol::user::User;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use self::relay::{ChannelRequest, ChannelStatus, RelayError};
use self::siwf::check_message;
use super::{current_user, link_to, sign_in};
use crate::accounts::{self, VerifiedIdentity};
use crate::app_settings::login_methods::LoginMethod;
use crate::db::account_details::FarcasterDetails;
use crate::db::farcaster::FarcasterNonce;
use crate::digest::sha256_hex;
use crate::error::{AppError, Status};
use crate::methods::farcaster::deps::FarcasterDeps;
use crate::random::random_id;
use crate::web::app_context::AppContext;
use crate::web::auth::{LoginCaller, SignedIn};
use crate::web::client_ip::ClientIp;
use crate::web::json_body::JsonBody;

/// The linked-account type; its subject is the fid in decimal.
pub const FARCASTER: &str = "farcaster";
/// Seconds a channel or Mini App nonce may be used (the client polls for 300 s, spec §9).
pub const NONCE_TTL_S: i64 = 600;

/// Opens a relay channel for the app's origin.
pub async fn init(
    State(deps): State<FarcasterDeps>,
    caller: LoginCaller,
    client_ip: ClientIp,
    JsonBody(_body): JsonBody<FarcasterInitRequest>,
) -> Result<Json<FarcasterInitResponse>, AppError> {
    let (origin, domain) = site(&caller.ctx)?;
    let app = &caller.ctx.app;
    let now = limit(&deps, &client_ip).await?;
    let nonce = random_id(32)?;
    let expires_at = now + NONCE_TTL_S;
    let request = ChannelRequest {
        siwe_uri: &origin,
        domain: &domain,
        nonce: &nonce,
        expiration_time: &rfc3339(expires_at)?,
    };
    let channel = relay::create_channel(&app.settings.farcaster.relay_url, &request)
        .await
        .map_err(relay_failure)?;
    if channel.nonce != nonce {
        return Err(relay_failure(RelayError::Refused {
            status: 200,
            detail: "the channel carries another nonce".into(),
        }));
    }
    let token_hash = sha256_hex(channel.channel_token.as_bytes());
    let row = FarcasterNonce {
        nonce: &nonce,
        app_id: &app.id,
        channel_token_hash: Some(&token_hash),
        domain: &domain,
        expires_at,
    };
    deps.db.insert_farcaster_nonce(&row, now).await?;
    Ok(Json(FarcasterInitResponse {
        channel_token: channel.channel_token,
        connect_uri: channel.url,
        nonce,
    }))
}

/// The channel's state, from the relay (only for channels this app opened).
pub async fn status(
    State(deps): State<FarcasterDeps>,
    caller: LoginCaller,
    headers: HeaderMap,
) -> Result<Json<FarcasterStatusResponse>, AppError> {
    let app = &caller.ctx.app;
    let token = headers
        .get(CHANNEL_TOKEN_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| AppError::invalid_data(format!("Missing {CHANNEL_TOKEN_HEADER} header")))?;
    let now = deps.clock.now();
    let known = deps
        .db
        .farcaster_channel_nonce(&app.id, &sha256_hex(token.as_bytes()), now)
        .await?;
    if known.is_none() {
        return Err(unknown_channel());
    }
    let status = relay::channel_status(&app.settings.farcaster.relay_url, token)
        .await
        .map_err(relay_failure)?;
    Ok(Json(wire_status(status)))
}

/// Signs in (or up) with the completed channel's signed message.
pub async fn authenticate(
    State(deps): State<FarcasterDeps>,
    caller: LoginCaller,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<FarcasterAuthenticateRequest>,
) -> Result<Response, AppError> {
    let proof = Proof {
        channel_token: Some(&body.channel_token),
        message: &body.message,
        signature: &body.signature,
        fid: body.fid,
    };
    let identity = verify(&deps, &caller.ctx, &client_ip, proof).await?;
    sign_in(&deps.login, &caller, &identity, body.mode).await
}

/// Links the Farcaster account of the completed channel to the signed-in user.
pub async fn link(
    State(deps): State<FarcasterDeps>,
    signed_in: SignedIn,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<FarcasterLinkRequest>,
) -> Result<Json<User>, AppError> {
    let proof = Proof {
        channel_token: Some(&body.channel_token),
        message: &body.message,
        signature: &body.signature,
        fid: body.fid,
    };
    let identity = verify(&deps, &signed_in.ctx, &client_ip, proof).await?;
    link_to(&deps.login, &signed_in, &identity).await
}

/// Unlinks the fid; never the user's last way in.
pub async fn unlink(
    State(deps): State<FarcasterDeps>,
    signed_in: SignedIn,
    JsonBody(body): JsonBody<FarcasterUnlinkRequest>,
) -> Result<Json<User>, AppError> {
    accounts::unlink(
        &deps.login.accounts,
        &signed_in.user,
        FARCASTER,
        &body.fid.to_string(),
    )
    .await?;
    current_user(&deps.login, &signed_in).await
}

/// Moves the fid from its owner to the caller, with the nonce of `account_transfer_required`.
pub async fn transfer(
    State(deps): State<FarcasterDeps>,
    signed_in: SignedIn,
    JsonBody(body): JsonBody<FarcasterTransferRequest>,
) -> Result<Json<User>, AppError> {
    let app = &signed_in.ctx.app;
    let fid = body.farcaster_id.to_string();
    accounts::transfer(
        &deps.login.accounts,
        app,
        &signed_in.user,
        &body.nonce,
        FARCASTER,
        &fid,
    )
    .await?;
    current_user(&deps.login, &signed_in).await
}

/// v2 (Mini Apps): a nonce for the host to put in the message it signs.
pub async fn init_v2(
    State(deps): State<FarcasterDeps>,
    caller: LoginCaller,
    client_ip: ClientIp,
) -> Result<Json<FarcasterV2InitResponse>, AppError> {
    let (_, domain) = site(&caller.ctx)?;
    let app = &caller.ctx.app;
    let now = limit(&deps, &client_ip).await?;
    let nonce = random_id(32)?;
    let expires_at = now + NONCE_TTL_S;
    let row = FarcasterNonce {
        nonce: &nonce,
        app_id: &app.id,
        channel_token_hash: None,
        domain: &domain,
        expires_at,
    };
    deps.db.insert_farcaster_nonce(&row, now).await?;
    Ok(Json(FarcasterV2InitResponse {
        nonce,
        expires_at: rfc3339(expires_at)?,
    }))
}

/// v2 (Mini Apps): signs in (or up) with the message the host signed over our nonce.
pub async fn authenticate_v2(
    State(deps): State<FarcasterDeps>,
    caller: LoginCaller,
    client_ip: ClientIp,
    JsonBody(body): JsonBody<FarcasterV2AuthenticateRequest>,
) -> Result<Response, AppError> {
    let proof = Proof {
        channel_token: None,
        message: &body.message,
        signature: &body.signature,
        fid: body.fid,
    };
    let identity = verify(&deps, &caller.ctx, &client_ip, proof).await?;
    sign_in(&deps.login, &caller, &identity, body.mode).await
}

/// What a client sends to prove a fid.
#[derive(Debug, Clone, Copy)]
struct Proof<'a> {
    /// The relay channel (v1); `None` for a Mini App nonce (v2).
    channel_token: Option<&'a str>,
    message: &'a str,
    signature: &'a str,
    fid: u64,
}

/// Checks the signed message, the custody address and the nonce (used up last, so only a proof
/// that holds spends it), and returns the `farcaster` identity.
async fn verify(
    deps: &FarcasterDeps,
    ctx: &AppContext,
    client_ip: &ClientIp,
    proof: Proof<'_>,
) -> Result<VerifiedIdentity, AppError> {
    let (_, domain) = site(ctx)?;
    let app = &ctx.app;
    let now = limit(deps, client_ip).await?;
    let checked = check_message(proof.message, proof.signature, proof.fid, &domain, now)
        .map_err(|reason| AppError::new(ServerErrorCode::InvalidCredentials, reason.to_string()))?;
    let settings = &app.settings.farcaster;
    let custody = registry::custody_of(&settings.rpc_url, &settings.id_registry_address, proof.fid)
        .await
        .map_err(|error| {
            tracing::warn!(%error, "Farcaster ID registry read failed");
            upstream("The Farcaster ID registry could not be read")
        })?;
    if custody != Some(checked.signer) {
        return Err(AppError::new(
            ServerErrorCode::InvalidCredentials,
            "The message was not signed by the custody address of this Farcaster id",
        ));
    }
    // The relay's profile of the signer, when it reports this very message (best effort).
    let profile = match proof.channel_token {
        Some(token) => relay::channel_status(&settings.relay_url, token)
            .await
            .ok()
            .filter(|s| s.message.as_deref() == Some(proof.message) && s.fid == Some(proof.fid)),
        None => None,
    }
    .unwrap_or_default();
    let token_hash = proof.channel_token.map(|t| sha256_hex(t.as_bytes()));
    if !deps
        .db
        .take_farcaster_nonce(&app.id, &checked.nonce, &domain, token_hash.as_deref(), now)
        .await?
    {
        return Err(AppError::new(
            ServerErrorCode::InvalidCredentials,
            "This sign-in request expired or was already used",
        ));
    }
    let details = FarcasterDetails {
        owner_address: checked.signer.to_checksum(),
        username: profile.username,
        display_name: profile.display_name,
        bio: profile.bio,
        profile_picture_url: profile.pfp_url,
        ..FarcasterDetails::default()
    };
    Ok(VerifiedIdentity::with_details(
        LoginMethod::Farcaster,
        FARCASTER,
        proof.fid.to_string(),
        &details,
    )?)
}

/// The request's origin (`siweUri`) and its host (the SIWE `domain`).
fn site(ctx: &AppContext) -> Result<(String, String), AppError> {
    ctx.site()
}

/// Counts the call against the client IP's budget and returns now.
async fn limit(deps: &FarcasterDeps, client_ip: &ClientIp) -> Result<i64, AppError> {
    let now = deps.clock.now();
    client_ip.spend(&deps.ip_limits, now).await?;
    Ok(now)
}

fn rfc3339(unix: i64) -> Result<String, AppError> {
    OffsetDateTime::from_unix_timestamp(unix)
        .ok()
        .and_then(|t| t.format(&Rfc3339).ok())
        .ok_or_else(|| AppError::invalid_data("Invalid time"))
}

fn wire_status(status: ChannelStatus) -> FarcasterStatusResponse {
    let state = if status.state == "completed" {
        FarcasterChannelState::Completed
    } else {
        FarcasterChannelState::Pending
    };
    FarcasterStatusResponse {
        state,
        nonce: status.nonce,
        message: status.message,
        signature: status.signature,
        fid: status.fid,
        username: status.username,
        display_name: status.display_name,
        bio: status.bio,
        pfp_url: status.pfp_url,
    }
}

fn unknown_channel() -> AppError {
    AppError::new(
        ServerErrorCode::InvalidCredentials,
        "Unknown or expired Farcaster channel",
    )
}

fn upstream(message: &str) -> AppError {
    AppError::new(ServerErrorCode::InternalError, message).with_status(Status::BadGateway)
}

fn relay_failure(error: RelayError) -> AppError {
    match error {
        RelayError::UnknownChannel => unknown_channel(),
        other => {
            tracing::warn!(error = %other, "Farcaster relay failed");
            upstream("The Farcaster relay could not be reached")
        }
    }
}
