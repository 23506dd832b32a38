//! Sign In With Farcaster (spec §4, §7): a relay channel the Farcaster app approves (v1), or a
//! server nonce a Mini App signs (v2); the signed message is SIWE (EIP-4361) with the resource
//! `farcaster://fid/<fid>`, signed by the fid's custody address. Plus Farcaster signers (§3).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::session::AuthMode;

/// `POST /farcaster/init`: open a relay channel.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FarcasterInitRequest {
    /// Captcha token, when the app uses a captcha.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub token: Option<String>,
}

/// The channel: show `connect_uri` as a QR code / deep link, then poll `/farcaster/status` with the token.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FarcasterInitResponse {
    /// Secret of the channel; the `farcaster-channel-token` header of `/farcaster/status`.
    pub channel_token: String,
    /// `farcaster://connect?channelToken=…` for the Farcaster app.
    pub connect_uri: String,
    /// The nonce the signed message must carry.
    pub nonce: String,
}

/// The state of a relay channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum FarcasterChannelState {
    /// Not approved yet.
    Pending,
    /// Approved: the signed message is there.
    Completed,
}

/// `GET /farcaster/status` (header `farcaster-channel-token`): the channel as the relay sees it.
/// Everything but `state` is present once it is `completed`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FarcasterStatusResponse {
    /// `pending` or `completed`.
    pub state: FarcasterChannelState,
    /// The channel's nonce.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub nonce: Option<String>,
    /// The SIWE message the custody address signed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub message: Option<String>,
    /// 65-byte `0x…` signature of `message` (EIP-191).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub signature: Option<String>,
    /// The Farcaster id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub fid: Option<u64>,
    /// Farcaster username.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub username: Option<String>,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub display_name: Option<String>,
    /// Profile text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub bio: Option<String>,
    /// Profile picture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub pfp_url: Option<String>,
}

/// `POST /farcaster/authenticate`: sign in with the completed channel's signed message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FarcasterAuthenticateRequest {
    /// The channel of `/farcaster/init`.
    pub channel_token: String,
    /// The SIWE message.
    pub message: String,
    /// Its signature by the fid's custody address.
    pub signature: String,
    /// The Farcaster id the message names.
    #[ts(type = "number")]
    pub fid: u64,
    /// Whether sign-up is allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mode: Option<AuthMode>,
}

/// `POST /farcaster/link`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FarcasterLinkRequest {
    /// The channel of `/farcaster/init`.
    pub channel_token: String,
    /// The SIWE message.
    pub message: String,
    /// Its signature by the fid's custody address.
    pub signature: String,
    /// The Farcaster id the message names.
    #[ts(type = "number")]
    pub fid: u64,
}

/// `POST /farcaster/unlink`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FarcasterUnlinkRequest {
    /// The linked Farcaster id.
    #[ts(type = "number")]
    pub fid: u64,
}

/// `POST /farcaster/transfer`: move a Farcaster account from its owner to the caller.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FarcasterTransferRequest {
    /// The nonce of the `account_transfer_required` refusal.
    pub nonce: String,
    /// The Farcaster id to move.
    #[ts(type = "number")]
    pub farcaster_id: u64,
    /// The embedded wallet of the account's owner, when the client knows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub farcaster_embedded_address: Option<String>,
}

/// `POST /api/v2/farcaster/init` (Mini Apps): a nonce for the Mini App host to sign in with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FarcasterV2InitResponse {
    /// The nonce the signed message must carry (single use).
    pub nonce: String,
    /// When the nonce stops being accepted, RFC 3339 (the message's `expirationTime` may be
    /// set to it).
    pub expires_at: String,
}

/// `POST /api/v2/farcaster/authenticate`: sign in with the Mini App host's signed message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FarcasterV2AuthenticateRequest {
    /// The SIWE message (its nonce from `/api/v2/farcaster/init`).
    pub message: String,
    /// Its signature by the fid's custody address.
    pub signature: String,
    /// The Farcaster id the message names.
    #[ts(type = "number")]
    pub fid: u64,
    /// Whether sign-up is allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mode: Option<AuthMode>,
}

/// `POST /farcaster/signer/status` (and `/farcaster/signer/init`): the signer of this key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FarcasterSignerRequest {
    /// The signer's Ed25519 public key, `0x…` hex.
    pub ed25519_public_key: String,
}

/// Where a Farcaster signer stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum FarcasterSignerStatus {
    /// Waiting for the user to approve it in the Farcaster app.
    PendingApproval,
    /// Approved: it may post for the fid.
    Approved,
    /// Rejected or removed.
    Revoked,
}

/// A Farcaster signer (spec §3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FarcasterSignerResponse {
    /// The signer's Ed25519 public key, `0x…` hex.
    pub public_key: String,
    /// `pending_approval`, `approved` or `revoked`.
    pub status: FarcasterSignerStatus,
    /// Where the user approves it (QR code or mobile link) while it is pending.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub signer_approval_url: Option<String>,
}
