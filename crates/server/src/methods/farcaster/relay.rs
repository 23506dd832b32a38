//! The Farcaster Auth relay's HTTP API (FIP-11 "Sign In With Farcaster"; the public relay is
//! `https://relay.farcaster.xyz`): `POST /v1/channel` opens a channel the Farcaster app approves,
//! `GET /v1/channel/status` (Bearer channel token) answers 202 while pending and 200 with the
//! signed message once completed. `tools/stack/src/farcasterRelay.mjs` plays it on loopback.

use serde::{Deserialize, Serialize};

use crate::outbound_http::{OutboundHttpError, outbound_client, read_capped};

/// The largest relay answer read (a completed channel is ~2 KB).
const MAX_BODY: usize = 64 * 1024;

/// Why the relay could not be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RelayError {
    /// Not reachable, timed out, or answered too much.
    #[error("relay unreachable: {0}")]
    Transport(#[from] OutboundHttpError),
    /// An answer this adapter cannot read, or an error status.
    #[error("relay answered {status}: {detail}")]
    Refused {
        /// HTTP status.
        status: u16,
        /// What was wrong.
        detail: String,
    },
    /// The relay does not know the channel (expired there).
    #[error("unknown channel")]
    UnknownChannel,
}

/// `POST /v1/channel`'s body.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChannelRequest<'a> {
    /// The URI the message names (the app's origin).
    pub siwe_uri: &'a str,
    /// The domain the message names.
    pub domain: &'a str,
    /// Our nonce, so the message carries it.
    pub nonce: &'a str,
    /// RFC 3339; the message's `Expiration Time`.
    pub expiration_time: &'a str,
}

/// An opened channel.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Channel {
    /// The channel's secret.
    pub channel_token: String,
    /// `farcaster://connect?channelToken=…`.
    pub url: String,
    /// The nonce the relay will have signed (ours).
    pub nonce: String,
}

/// `GET /v1/channel/status`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChannelStatus {
    /// `pending` or `completed`.
    pub state: String,
    /// The channel's nonce.
    pub nonce: Option<String>,
    /// The signed SIWE message.
    pub message: Option<String>,
    /// Its signature.
    pub signature: Option<String>,
    /// The signer's fid.
    pub fid: Option<u64>,
    /// Farcaster username.
    pub username: Option<String>,
    /// Display name.
    pub display_name: Option<String>,
    /// Profile text.
    pub bio: Option<String>,
    /// Profile picture.
    pub pfp_url: Option<String>,
}

/// Opens a channel on the relay at `base`.
pub async fn create_channel(
    base: &str,
    request: &ChannelRequest<'_>,
) -> Result<Channel, RelayError> {
    let response = outbound_client()?
        .post(format!("{}/v1/channel", base.trim_end_matches('/')))
        .json(request)
        .send()
        .await
        .map_err(transport)?;
    read_json(response).await
}

/// The channel's state on the relay at `base`.
pub async fn channel_status(base: &str, channel_token: &str) -> Result<ChannelStatus, RelayError> {
    let response = outbound_client()?
        .get(format!("{}/v1/channel/status", base.trim_end_matches('/')))
        .bearer_auth(channel_token)
        .send()
        .await
        .map_err(transport)?;
    if matches!(response.status().as_u16(), 401 | 404) {
        return Err(RelayError::UnknownChannel);
    }
    read_json(response).await
}

fn transport(error: reqwest::Error) -> RelayError {
    RelayError::Transport(OutboundHttpError::Transport(
        error.without_url().to_string(),
    ))
}

async fn read_json<T: serde::de::DeserializeOwned>(
    response: reqwest::Response,
) -> Result<T, RelayError> {
    let status = response.status().as_u16();
    let body = read_capped(response, MAX_BODY).await?;
    if !(200..300).contains(&status) {
        return Err(RelayError::Refused {
            status,
            detail: String::from_utf8_lossy(&body).chars().take(200).collect(),
        });
    }
    serde_json::from_slice(&body).map_err(|error| RelayError::Refused {
        status,
        detail: error.to_string(),
    })
}
