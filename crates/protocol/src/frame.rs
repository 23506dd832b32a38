//! The host ↔ wallet frame messages (`docs/wallet.md` "Frame messages"): the events and shapes the
//! published react-auth 3.x client posts to its frame, which our own client posts too. The frame
//! page and `packages/core` both take these types from the generated TypeScript, so the protocol
//! is written once.
//!
//! Requests are `{id, event, data}`; answers `{id, event, data}` or `{id, event, error}`. Field
//! names are camelCase, as the published client sends them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::user::{ChainType, RecoveryMethod, User};

/// The events a host posts to the wallet frame and the export page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub enum FrameEvent {
    /// Readiness poll; answered `{}` once the wasm is loaded.
    #[serde(rename = "privy:iframe:ready")]
    IframeReady,
    /// [`WalletCreateData`] → [`WalletCreatedAnswer`].
    #[serde(rename = "privy:wallet:create")]
    WalletCreate,
    /// [`WalletsAddData`] → [`WalletCreatedAnswer`].
    #[serde(rename = "privy:wallets:add")]
    WalletsAdd,
    /// [`EntropyData`] → [`EntropyAnswer`], or the error `wallet_not_on_device`.
    #[serde(rename = "privy:wallets:connect")]
    WalletsConnect,
    /// [`EntropyData`] → [`EntropyAnswer`].
    #[serde(rename = "privy:wallets:recover")]
    WalletsRecover,
    /// [`WalletsRpcData`] → [`RpcAnswer`].
    #[serde(rename = "privy:wallets:rpc")]
    WalletsRpc,
    /// The export page only: [`WalletExportData`] → `{}`.
    #[serde(rename = "privy:wallet:export")]
    WalletExport,
    /// Keeps an MFA token in the frame → `{}`.
    #[serde(rename = "privy:mfa:verify")]
    MfaVerify,
    /// Starts an MFA enrolment (TOTP answers `{secret, authUrl}`).
    #[serde(rename = "privy:mfa:init-enrollment")]
    MfaInitEnrollment,
    /// Completes an MFA enrolment → [`FrameUserAnswer`].
    #[serde(rename = "privy:mfa:submit-enrollment")]
    MfaSubmitEnrollment,
    /// Removes an MFA method → [`FrameUserAnswer`].
    #[serde(rename = "privy:mfa:unenroll")]
    MfaUnenroll,
    /// Sign-out: [`MfaClearData`] → `{}`; the frame frees its keys and MFA token.
    #[serde(rename = "privy:mfa:clear")]
    MfaClear,
    /// Unlinks a passkey (and its MFA enrolment) → [`FrameUserAnswer`].
    #[serde(rename = "privy:auth:unlink-passkey")]
    AuthUnlinkPasskey,
    /// Delegates wallets to the app's signers:
    /// [`crate::delegation::DelegatedActionsConsentData`] →
    /// [`crate::delegation::DelegatedActionsConsentAnswer`].
    #[serde(rename = "privy:delegated-actions:consent")]
    DelegatedActionsConsent,
}

/// How `entropyId` names a wallet's entropy: by the address of its index 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub enum EntropyIdVerifier {
    /// `entropyId` is the Ethereum address of index 0.
    #[serde(rename = "ethereum-address-verifier")]
    EthereumAddress,
}

/// `privy:wallet:create`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WalletCreateData {
    pub access_token: String,
    /// Only `ethereum`; absent means `ethereum`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub chain_type: Option<ChainType>,
    /// Only `privy`; absent means `privy`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub recovery_method: Option<RecoveryMethod>,
}

/// `privy:wallets:connect` and `privy:wallets:recover`: the wallet's entropy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EntropyData {
    pub access_token: String,
    /// The address of the wallet's index 0.
    pub entropy_id: String,
    pub entropy_id_verifier: EntropyIdVerifier,
}

/// `privy:wallets:add`: index `hdWalletIndex` (≥ 1) of the entropy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WalletsAddData {
    pub access_token: String,
    pub chain_type: ChainType,
    pub entropy_id: String,
    pub entropy_id_verifier: EntropyIdVerifier,
    pub hd_wallet_index: u32,
}

/// An EIP-1193 request the frame signs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct FrameRpcRequest {
    /// `personal_sign`, `eth_signTypedData_v4` or `eth_signTransaction`.
    pub method: String,
    #[ts(type = "unknown[]")]
    pub params: Vec<serde_json::Value>,
}

/// `privy:wallets:rpc`: sign with index `hdWalletIndex` of the entropy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WalletsRpcData {
    pub access_token: String,
    pub entropy_id: String,
    pub entropy_id_verifier: EntropyIdVerifier,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub chain_type: Option<ChainType>,
    pub hd_wallet_index: u32,
    /// The app a cross-app request is for (the published client sends it; not used).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub requester_app_id: Option<String>,
    pub request: FrameRpcRequest,
}

/// What any wallet event may carry besides its data: a second factor the frame verifies first
/// (how the published client retries after `missing_or_invalid_mfa`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct InlineMfa {
    /// `totp`, `sms` or `passkey`.
    pub mfa_method: String,
    /// A 6-digit code, or the passkey assertion.
    #[ts(type = "unknown")]
    pub mfa_code: serde_json::Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub relying_party: Option<String>,
}

/// `privy:mfa:clear` at sign-out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MfaClearData {
    /// The user signing out (the frame frees every user's keys either way).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub user_id: Option<String>,
}

/// `privy:wallet:export` to the export page, which knows its wallet from its URL.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WalletExportData {
    pub access_token: String,
}

/// `privy:wallet:create` and `privy:wallets:add` answer this.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WalletCreatedAnswer {
    pub address: String,
    pub wallet_index: u32,
    pub user: User,
}

/// `privy:wallets:connect` and `privy:wallets:recover` answer this.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EntropyAnswer {
    /// The checksummed address of index 0.
    pub entropy_id: String,
}

/// A signature or a signed raw transaction (hex).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct RpcResponse {
    pub method: String,
    pub data: String,
}

/// `privy:wallets:rpc` answers this.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct RpcAnswer {
    pub response: RpcResponse,
}

/// `privy:mfa:submit-enrollment`, `privy:mfa:unenroll` and `privy:auth:unlink-passkey` answer this.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct FrameUserAnswer {
    pub user: User,
}

/// The `type` of a frame's error answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum FrameErrorType {
    EmbeddedWalletCreationError,
    EmbeddedWalletRecoveryError,
    EmbeddedWalletRequestError,
    AttemptedRpcCallBeforeLoggedIn,
    InvalidInput,
    StorageError,
    /// `privy:wallets:connect`: no usable device share here; the host recovers.
    WalletNotOnDevice,
    /// The host prompts for a second factor and retries.
    MissingOrInvalidMfa,
    MfaVerificationMaxAttemptsReached,
    MissingMfaEnrollment,
    /// A wallet of a kind the event does not serve (delegation: only Ethereum embedded wallets).
    UnsupportedWalletType,
}

/// An error answer's body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FrameErrorBody {
    #[serde(rename = "type")]
    pub error_type: FrameErrorType,
    pub message: String,
    /// Seconds until an MFA lock-out ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub retry_after_seconds: Option<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_and_fields_have_the_published_clients_names() -> Result<(), serde_json::Error> {
        assert_eq!(
            serde_json::to_value(FrameEvent::WalletsRpc)?,
            "privy:wallets:rpc"
        );
        let rpc: WalletsRpcData = serde_json::from_value(serde_json::json!({
            "accessToken": "t",
            "entropyId": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
            "entropyIdVerifier": "ethereum-address-verifier",
            "chainType": "ethereum",
            "hdWalletIndex": 1,
            "requesterAppId": null,
            "request": {"method": "personal_sign", "params": ["hi", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"]}
        }))?;
        assert_eq!(rpc.hd_wallet_index, 1);
        let error = FrameErrorBody {
            error_type: FrameErrorType::WalletNotOnDevice,
            message: "m".into(),
            retry_after_seconds: None,
        };
        assert_eq!(
            serde_json::to_value(error)?,
            serde_json::json!({"type": "wallet_not_on_device", "message": "m"})
        );
        Ok(())
    }
}
