//! Embedded-wallet calls between the wallet frame and the server (`docs/wallet.md`).
//!
//! Shares travel as standard base64 of their 17 bytes (identifier byte, then 16 share bytes).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::user::{ChainType, LinkedAccount, RecoveryMethod, User};

/// `POST /embedded_wallets`: register a wallet the frame derived.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
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
}

/// The answer to [`CreateEmbeddedWalletRequest`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct CreateEmbeddedWalletResponse {
    /// The user, with the new wallet among `linked_accounts`.
    pub user: User,
    /// The new wallet as a linked account (`type: "wallet"`, as in `user.linked_accounts`).
    pub wallet: LinkedAccount,
}

/// `POST /embedded_wallets/{address}/recovery/key_material`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct KeyMaterialRequest {
    /// The wallet's chain type.
    pub chain_type: ChainType,
}

/// The user's root shares, for the frame to rebuild the entropy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
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
    /// The root recovery share (base64); `null` unless the method is `privy`.
    pub recovery_share: Option<String>,
}

/// `POST /embedded_wallets/{address}/shares`: replace the stored root shares after a re-split.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ReplaceSharesRequest {
    /// The wallet's chain type.
    pub chain_type: ChainType,
    /// The new auth share (base64).
    pub auth_share: String,
    /// The new recovery share (base64).
    pub recovery_share: String,
}

/// The answer to [`ReplaceSharesRequest`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ReplaceSharesResponse {
    /// The wallet named in the path (checksummed).
    pub address: String,
}

/// `POST /siwe/unlink`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct SiweUnlinkRequest {
    /// The wallet to unlink.
    pub address: String,
}
