//! The wallet API for host back ends (`/v1/wallets`): the vendor's wire, so `@privy-io/node`'s
//! `wallets()` works unchanged. Signing goes through the signer for delegated wallets only
//! (docs/delegation.md).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A key quorum allowed to sign for a wallet (a delegation's signer).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WalletAdditionalSigner {
    /// The key quorum.
    pub signer_id: String,
    /// Policies that replace the wallet's for this signer (the consented ones are sealed; empty).
    pub override_policy_ids: Vec<String>,
}

/// A wallet as `GET /v1/wallets/{wallet_id}` answers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ServerWallet {
    /// Its id (the linked account's).
    pub id: String,
    /// Its address.
    pub address: String,
    /// `ethereum`.
    pub chain_type: String,
    /// Unix milliseconds.
    #[ts(type = "number")]
    pub created_at: i64,
    /// Never exported through this API.
    #[ts(type = "number | null")]
    pub exported_at: Option<i64>,
    /// When imported (never, so far).
    #[ts(type = "number | null")]
    pub imported_at: Option<i64>,
    /// The user's wallets have no key-quorum owner.
    pub owner_id: Option<String>,
    /// Wallet-level policies (none: each signer's consented policies apply).
    pub policy_ids: Vec<String>,
    /// The signers the user delegated it to.
    pub additional_signers: Vec<WalletAdditionalSigner>,
    /// The user who owns it (ours; the vendor names the owner by `owner_id`).
    pub user_id: String,
    /// Whether the user delegated it.
    pub delegated: bool,
}

/// `GET /v1/wallets`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WalletListResponse {
    /// A page of wallets, by id.
    pub data: Vec<ServerWallet>,
    /// The cursor of the next page (none: the last).
    pub next_cursor: Option<String>,
}

/// The answer of `POST /v1/wallets/{wallet_id}/rpc` and `/raw_sign`: `{method, data}` as the SDK
/// parses it (`data.signature`, `data.signed_transaction`, `data.hash`, …).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WalletRpcResponse {
    /// The method.
    pub method: String,
    /// What it made.
    #[ts(type = "Record<string, unknown>")]
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub data: serde_json::Value,
}
