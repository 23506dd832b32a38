//! External wallets (spec §7): Sign-In With Ethereum (EIP-4361) at `/siwe/*` and Sign-In With
//! Solana at `/siws/*`.
//!
//! The flow: `init` with the wallet's address gives a single-use nonce bound to it; the client
//! writes the message (domain = the page's host, URI = the page's origin, the statement
//! [`crate::constants::SIWE_STATEMENT`], that nonce), the wallet signs it, and `authenticate` or
//! `link` sends both. SIWE signatures are hex (`0x` + r‖s‖v for an EOA, or whatever a contract
//! wallet returns: EIP-1271, EIP-6492); SIWS signatures are the 64 ed25519 bytes in base64 (or
//! base58).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::session::AuthMode;

/// `POST /siwe/init` and `POST /siws/init`: a nonce for one sign-in message of `address`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SiweInitRequest {
    /// `0x` + 40 hex (SIWE, any case) or a base58 public key (SIWS).
    pub address: String,
    /// Captcha token, when the app uses a captcha.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub token: Option<String>,
}

/// The answer to [`SiweInitRequest`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SiweInitResponse {
    /// Goes into the message's `Nonce:` line; valid once, for this address, until `expires_at`.
    pub nonce: String,
    /// The address as the server will compare it (checksummed for Ethereum).
    pub address: String,
    /// RFC 3339 time after which the nonce is refused.
    pub expires_at: String,
}

/// `POST /siwe/authenticate`: log in (or sign up) with a signed EIP-4361 message — the link body
/// and the sign-up mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SiweAuthenticateRequest {
    /// The signed message, its signature and the wallet's connection.
    #[serde(flatten)]
    #[ts(flatten)]
    pub signed: SiweLinkRequest,
    /// Whether sign-up is allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mode: Option<AuthMode>,
}

/// `POST /siwe/link`: link the wallet of a signed EIP-4361 message to the signed-in user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SiweLinkRequest {
    /// The EIP-4361 message exactly as signed.
    pub message: String,
    /// `0x` hex signature (EOA: 65 bytes r‖s‖v; contract wallets: EIP-1271 or EIP-6492 bytes).
    pub signature: String,
    /// `eip155:<id>` (or the decimal id); must be the message's `Chain ID`.
    #[serde(rename = "chainId", default, skip_serializing_if = "Option::is_none")]
    #[ts(rename = "chainId", optional)]
    pub chain_id: Option<String>,
    /// How the wallet is connected (`walletClientType`, `connectorType`).
    #[serde(flatten)]
    #[ts(flatten)]
    pub wallet: ExternalWalletMetadata,
}

/// `POST /siwe/link_smart_wallet`: link a smart (contract) wallet, proven by an EIP-4361 message
/// it signed (EIP-1271, or EIP-6492 before it is deployed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SiweLinkSmartWalletRequest {
    /// The EIP-4361 message exactly as signed; its address is the smart wallet's.
    pub message: String,
    /// `0x` hex signature.
    pub signature: String,
    /// The smart wallet's kind (`kernel`, `safe`, `light_account`, `biconomy`, `coinbase_smart_wallet`, …).
    pub smart_wallet_type: String,
    /// Its implementation version, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub smart_wallet_version: Option<String>,
}

/// `POST /siwe/unlink` and `POST /siws/unlink`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SiweUnlinkRequest {
    /// The wallet to unlink.
    pub address: String,
}

/// What the client knew of a wallet when it connected it (spec §3 `externalWalletMetadata`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExternalWalletMetadata {
    /// The wallet's client.
    #[serde(
        rename = "walletClientType",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    #[ts(rename = "walletClientType", optional)]
    pub wallet_client_type: Option<String>,
    /// The connector.
    #[serde(
        rename = "connectorType",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    #[ts(rename = "connectorType", optional)]
    pub connector_type: Option<String>,
}

/// `POST /siwe/transfer` and `POST /siws/transfer` (spec §7 "wallet {nonce, address, metadata}"):
/// move the wallet from its owner to the caller with the nonce of `account_transfer_required`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SiweTransferRequest {
    /// The nonce of the `account_transfer_required` refusal.
    pub nonce: String,
    /// The wallet's address.
    pub address: String,
    /// How it is connected now (replaces what its former owner had).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub metadata: Option<ExternalWalletMetadata>,
}

/// How a SIWS proof was signed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum SiwsMessageType {
    /// The message text signed with `signMessage` (the only kind this server accepts).
    #[default]
    Plain,
    /// The message in a memo transaction (hardware wallets that cannot sign messages).
    Transaction,
}

/// `POST /siws/authenticate`: log in (or sign up) with a signed Sign-In With Solana message — the
/// link body and the sign-up mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SiwsAuthenticateRequest {
    /// The signed message, its signature and the wallet's connection.
    #[serde(flatten)]
    #[ts(flatten)]
    pub signed: SiwsLinkRequest,
    /// Whether sign-up is allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mode: Option<AuthMode>,
}

/// `POST /siws/link`: link the Solana wallet of a signed SIWS message to the signed-in user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SiwsLinkRequest {
    /// The SIWS message exactly as signed.
    pub message: String,
    /// The 64-byte ed25519 signature, base64 (or base58).
    pub signature: String,
    /// `plain` (default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub message_type: Option<SiwsMessageType>,
    /// How the wallet is connected (`walletClientType`, `connectorType`).
    #[serde(flatten)]
    #[ts(flatten)]
    pub wallet: ExternalWalletMetadata,
}
