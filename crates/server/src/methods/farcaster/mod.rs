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

pub mod registry;
pub mod relay;
pub mod signer;
pub mod siwf;

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::http::StatusCode;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use serde_json::json;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::HEADER_FARCASTER_CHANNEL_TOKEN as CHANNEL_TOKEN_HEADER;
use symbolon_protocol::farcaster::{
    FarcasterAuthenticateRequest, FarcasterChannelState, FarcasterInitRequest,
    FarcasterInitResponse, FarcasterLinkRequest, FarcasterStatusResponse, FarcasterTransferRequest,
    FarcasterUnlinkRequest, FarcasterV2AuthenticateRequest, FarcasterV2InitResponse,
};
use symbolon_protocol::user::User;
use symbolon_wallet_core::{Address, PrivateKey, decode_hex};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use self::relay::{ChannelRequest, ChannelStatus, RelayError};
use self::siwf::check_message;
use super::{current_user, link_to, sign_in};
use crate::accounts::{self, LoginMethod, VerifiedIdentity};
use crate::app_secrets::SealedSecret;
use crate::db::farcaster::FarcasterNonce;
use crate::digest::sha256_hex;
use crate::http::app_context::AppContext;
use crate::http::auth::{LoginCaller, SignedIn};
use crate::http::client_ip::ClientIp;
use crate::http::error::AppError;
use crate::http::json_body::JsonBody;
use crate::random::random_id;
use crate::state::AppState;

/// The linked-account type; its subject is the fid in decimal.
pub const FARCASTER: &str = "farcaster";
/// Seconds a channel or Mini App nonce may be used (the client polls for 300 s, spec §9).
pub const NONCE_TTL_S: i64 = 600;

/// Where an app's Farcaster sign-ins are checked, and who requests its signers. The defaults
/// are Farcaster's own: the public relay, the `IdRegistry` on Optimism and Warpcast's API.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FarcasterSettings {
    /// The Farcaster Auth relay.
    pub relay_url: String,
    /// JSON-RPC endpoint of the chain the ID registry lives on.
    pub rpc_url: String,
    /// The ID registry contract (`custodyOf(uint256)`).
    pub id_registry_address: String,
    /// The Farcaster client API that takes signed key requests (`/v2/signed-key-requests`).
    pub signer_api_url: String,
    /// The app's own fid, which requests signers; without it signers are off.
    pub signer_request_fid: Option<u64>,
    /// The custody private key (`0x…`) of `signer_request_fid`, which signs the requests.
    /// A secret, stored sealed ([`crate::app_secrets`]): only the operator's CLI writes it.
    pub signer_request_key: Option<SealedSecret>,
}

impl Default for FarcasterSettings {
    fn default() -> Self {
        Self {
            relay_url: "https://relay.farcaster.xyz".into(),
            rpc_url: "https://mainnet.optimism.io".into(),
            id_registry_address: "0x00000000Fc6c5F01Fc30151999387Bb99A9f489b".into(),
            signer_api_url: "https://api.warpcast.com".into(),
            signer_request_fid: None,
            signer_request_key: None,
        }
    }
}

impl FarcasterSettings {
    /// Refuses what would only fail at sign-in time: URLs that are not `http(s)`, a registry
    /// that is not an address, a signer requester without a usable custody key.
    pub fn check(&self) -> Result<(), String> {
        for (name, value) in [
            ("relay_url", &self.relay_url),
            ("rpc_url", &self.rpc_url),
            ("signer_api_url", &self.signer_api_url),
        ] {
            let scheme = url::Url::parse(value).map(|u| u.scheme().to_string());
            if !matches!(scheme.as_deref(), Ok("https" | "http")) {
                return Err(format!("farcaster.{name}: {value:?} is not an http(s) URL"));
            }
        }
        if Address::parse(&self.id_registry_address).is_err() {
            return Err("farcaster.id_registry_address is not an address".into());
        }
        let key_ok = self
            .signer_request_key
            .as_ref()
            .and_then(SealedSecret::plain)
            .and_then(|k| decode_hex(k.trim()).ok())
            .is_some_and(|bytes| PrivateKey::from_bytes(&bytes).is_ok());
        match (self.signer_request_fid, &self.signer_request_key) {
            (Some(_), _) if !key_ok => {
                Err("farcaster.signer_request_key must be the custody key (0x + 64 hex) of signer_request_fid".into())
            }
            (None, Some(_)) => Err("farcaster.signer_request_key needs signer_request_fid".into()),
            _ => Ok(()),
        }
    }
}

/// Opens a relay channel for the app's origin.
pub async fn init(
    State(state): State<AppState>,
    caller: LoginCaller,
    client_ip: ClientIp,
    JsonBody(_body): JsonBody<FarcasterInitRequest>,
) -> Result<Json<FarcasterInitResponse>, AppError> {
    let (origin, domain) = site(&caller.ctx)?;
    let app = &caller.ctx.app;
    accounts::require_method(app, LoginMethod::Farcaster)?;
    let now = limit(&state, &state.ip_limits.farcaster, &client_ip).await?;
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
    state.db.insert_farcaster_nonce(&row, now).await?;
    Ok(Json(FarcasterInitResponse {
        channel_token: channel.channel_token,
        connect_uri: channel.url,
        nonce,
    }))
}

/// The channel's state, from the relay (only for channels this app opened).
pub async fn status(
    State(state): State<AppState>,
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
    let now = state.clock.now();
    let known = state
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
    State(state): State<AppState>,
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
    let identity = verify(&state, &caller.ctx, &client_ip, proof).await?;
    sign_in(&state, &caller, &identity, body.mode).await
}

/// Links the Farcaster account of the completed channel to the signed-in user.
pub async fn link(
    State(state): State<AppState>,
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
    let identity = verify(&state, &signed_in.ctx, &client_ip, proof).await?;
    link_to(&state, &signed_in, &identity).await
}

/// Unlinks the fid; never the user's last way in.
pub async fn unlink(
    State(state): State<AppState>,
    signed_in: SignedIn,
    JsonBody(body): JsonBody<FarcasterUnlinkRequest>,
) -> Result<Json<User>, AppError> {
    signed_in.ctx.require_origin()?;
    accounts::unlink(&state, &signed_in.user, FARCASTER, &body.fid.to_string()).await?;
    current_user(&state, &signed_in).await
}

/// Moves the fid from its owner to the caller, with the nonce of `account_transfer_required`.
pub async fn transfer(
    State(state): State<AppState>,
    signed_in: SignedIn,
    JsonBody(body): JsonBody<FarcasterTransferRequest>,
) -> Result<Json<User>, AppError> {
    signed_in.ctx.require_origin()?;
    let app = &signed_in.ctx.app;
    let fid = body.farcaster_id.to_string();
    accounts::transfer(&state, app, &signed_in.user, &body.nonce, FARCASTER, &fid).await?;
    current_user(&state, &signed_in).await
}

/// v2 (Mini Apps): a nonce for the host to put in the message it signs.
pub async fn init_v2(
    State(state): State<AppState>,
    caller: LoginCaller,
    client_ip: ClientIp,
) -> Result<Json<FarcasterV2InitResponse>, AppError> {
    let (_, domain) = site(&caller.ctx)?;
    let app = &caller.ctx.app;
    accounts::require_method(app, LoginMethod::Farcaster)?;
    let now = limit(&state, &state.ip_limits.farcaster, &client_ip).await?;
    let nonce = random_id(32)?;
    let expires_at = now + NONCE_TTL_S;
    let row = FarcasterNonce {
        nonce: &nonce,
        app_id: &app.id,
        channel_token_hash: None,
        domain: &domain,
        expires_at,
    };
    state.db.insert_farcaster_nonce(&row, now).await?;
    Ok(Json(FarcasterV2InitResponse {
        nonce,
        expires_at: rfc3339(expires_at)?,
    }))
}

/// v2 (Mini Apps): signs in (or up) with the message the host signed over our nonce.
pub async fn authenticate_v2(
    State(state): State<AppState>,
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
    let identity = verify(&state, &caller.ctx, &client_ip, proof).await?;
    sign_in(&state, &caller, &identity, body.mode).await
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
    state: &AppState,
    ctx: &AppContext,
    client_ip: &ClientIp,
    proof: Proof<'_>,
) -> Result<VerifiedIdentity, AppError> {
    let (_, domain) = site(ctx)?;
    let app = &ctx.app;
    accounts::require_method(app, LoginMethod::Farcaster)?;
    let now = limit(state, &state.ip_limits.authenticate, client_ip).await?;
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
    if !state
        .db
        .take_farcaster_nonce(&app.id, &checked.nonce, &domain, token_hash.as_deref(), now)
        .await?
    {
        return Err(AppError::new(
            ServerErrorCode::InvalidCredentials,
            "This sign-in request expired or was already used",
        ));
    }
    let details = json!({
        "owner_address": checked.signer.to_checksum(),
        "username": profile.username,
        "display_name": profile.display_name,
        "bio": profile.bio,
        "profile_picture_url": profile.pfp_url,
    });
    Ok(VerifiedIdentity {
        method: LoginMethod::Farcaster,
        account_type: FARCASTER.into(),
        subject: proof.fid.to_string(),
        details: Some(details),
    })
}

/// The request's origin (`siweUri`) and its host (the SIWE `domain`).
fn site(ctx: &AppContext) -> Result<(String, String), AppError> {
    ctx.site()
}

/// Counts the call against the client IP's budget and returns now.
async fn limit(
    state: &AppState,
    limiter: &crate::rate_limit::BurstLimiter,
    client_ip: &ClientIp,
) -> Result<i64, AppError> {
    let now = state.clock.now();
    client_ip.spend(limiter, now).await?;
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
    AppError::new(ServerErrorCode::InternalError, message).with_status(StatusCode::BAD_GATEWAY)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_check_refuses_what_would_fail_at_sign_in() {
        assert_eq!(FarcasterSettings::default().check(), Ok(()));
        let bad = |f: fn(&mut FarcasterSettings)| {
            let mut s = FarcasterSettings::default();
            f(&mut s);
            s.check().expect_err("refused")
        };
        assert!(bad(|s| s.relay_url = "ftp://relay".into()).contains("relay_url"));
        assert!(bad(|s| s.id_registry_address = "0x12".into()).contains("id_registry_address"));
        assert!(bad(|s| s.signer_request_fid = Some(1)).contains("signer_request_key"));
        assert!(
            bad(|s| s.signer_request_key = Some(format!("0x{}", "11".repeat(32)).into()))
                .contains("needs")
        );
        let mut ok = FarcasterSettings {
            signer_request_fid: Some(1),
            signer_request_key: Some(format!("0x{}", "11".repeat(32)).into()),
            ..FarcasterSettings::default()
        };
        assert_eq!(ok.check(), Ok(()));
        ok.signer_request_key = Some("0x00".into());
        assert!(ok.check().is_err());
    }
}
