//! Embedded-wallet calls between the wallet frame and the server (`docs/wallet.md`).
//!
//! Shares travel as standard base64 of their 17 bytes (identifier byte, then 16 share bytes).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::user::{ChainType, LinkedAccount, RecoveryMethod, User};

/// `POST /embedded_wallets`: register a wallet the frame derived.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreateEmbeddedWalletRequest {
    /// Only `ethereum` for now.
    pub chain_type: ChainType,
    /// `0x` + 40 hex characters; stored checksummed.
    pub address: String,
    /// 0 for the first wallet, then the next free index.
    pub wallet_index: u32,
    /// Only `privy` for now; absent means `privy`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub recovery_method: Option<RecoveryMethod>,
    /// The auth share (base64); required for index 0, absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub auth_share: Option<String>,
    /// The recovery share (base64); required for index 0, absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub recovery_share: Option<String>,
    /// The frame's device public key (base64 of the 65-byte uncompressed P-256 point);
    /// required for index 0, absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub device_public_key: Option<String>,
    /// A `create` challenge nonce from `POST /embedded_wallets/challenge`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub nonce: Option<String>,
    /// `personal_sign` (`0x` r‖s‖v) of the wallet proof message by the key at `wallet_index`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub signature: Option<String>,
    /// For `wallet_index` > 0: the same message signed by the root (index 0) key, so only the
    /// holder of the root entropy adds wallets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub root_signature: Option<String>,
}

/// The answer to [`CreateEmbeddedWalletRequest`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreateEmbeddedWalletResponse {
    /// The user, with the new wallet among `linked_accounts`.
    pub user: User,
    /// The new wallet as a linked account (`type: "wallet"`, as in `user.linked_accounts`).
    pub wallet: LinkedAccount,
}

/// What a wallet challenge will be used for; a nonce only serves its own purpose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum WalletChallengePurpose {
    /// A device-signed `key_material` unlock (auth share only).
    KeyMaterial,
    /// `POST /embedded_wallets` (proof of the new wallet's key).
    Create,
    /// `POST /embedded_wallets/{address}/shares` (proof of the root key).
    ReplaceShares,
}

impl WalletChallengePurpose {
    /// The wire name, as signed in proof messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::KeyMaterial => "key_material",
            Self::Create => "create",
            Self::ReplaceShares => "replace_shares",
        }
    }
}

/// `POST /embedded_wallets/challenge`: a single-use nonce for one signed wallet call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WalletChallengeRequest {
    /// The wallet's chain type.
    pub chain_type: ChainType,
    /// The call the nonce is for.
    pub purpose: WalletChallengePurpose,
}

/// The answer to [`WalletChallengeRequest`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WalletChallengeResponse {
    /// Random, base64url; valid once, for this session and purpose.
    pub nonce: String,
    /// Unix seconds after which the nonce is refused.
    pub expires_at: i64,
}

/// `POST /embedded_wallets/{address}/recovery/key_material`.
///
/// Without `recovery`, `nonce` and `device_signature` are required and only the auth share is
/// released. With `recovery: true`, both shares are released only to a session that signed in
/// within the last 10 minutes and has not recovered before (`docs/wallet.md`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KeyMaterialRequest {
    /// The wallet's chain type.
    pub chain_type: ChainType,
    /// A `key_material` challenge nonce.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub nonce: Option<String>,
    /// The device key's ECDSA P-256/SHA-256 signature (base64 of raw r‖s, 64 bytes) of the
    /// unlock message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub device_signature: Option<String>,
    /// Ask for the recovery share too (new device); needs a fresh sign-in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub recovery: Option<bool>,
    /// What the key is for (default `sign`); `export` needs MFA when the user has it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub intent: Option<KeyMaterialIntent>,
    /// A fresh MFA token from `/mfa/verify`, used up by this release.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mfa_token: Option<String>,
}

/// Why the frame unlocks a wallet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum KeyMaterialIntent {
    /// Sign a message or a transaction.
    #[default]
    Sign,
    /// Show the private key to the user.
    Export,
}

/// The user's root shares, for the frame to rebuild the entropy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KeyMaterialResponse {
    /// The wallet asked for (checksummed).
    pub address: String,
    /// Its chain type.
    pub chain_type: ChainType,
    /// Its index.
    pub wallet_index: u32,
    /// How its recovery share is kept.
    pub recovery_method: RecoveryMethod,
    /// The root auth share (base64).
    pub auth_share: String,
    /// The root recovery share (base64); `null` unless `recovery` was asked for, granted and
    /// the method is `privy`.
    pub recovery_share: Option<String>,
    /// The release was for one operation (transaction protection): the frame forgets the key
    /// after it.
    #[serde(default)]
    pub single_use: bool,
}

/// `POST /embedded_wallets/{address}/shares`: replace the stored root shares after a re-split.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReplaceSharesRequest {
    /// The wallet's chain type.
    pub chain_type: ChainType,
    /// The new auth share (base64).
    pub auth_share: String,
    /// The new recovery share (base64).
    pub recovery_share: String,
    /// This device's new public key (base64, 65-byte uncompressed P-256 point).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub device_public_key: Option<String>,
    /// A `replace_shares` challenge nonce.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub nonce: Option<String>,
    /// `personal_sign` of the proof message by the root (index 0) key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub signature: Option<String>,
}

/// The answer to [`ReplaceSharesRequest`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReplaceSharesResponse {
    /// The wallet named in the path (checksummed).
    pub address: String,
}
