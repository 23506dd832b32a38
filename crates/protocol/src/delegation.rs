//! Delegated actions (docs/delegation.md): a user lets the app's back end sign with one of their
//! embedded wallets while they are offline, within policies. The wallet frame seals the wallet's key
//! together with what the user consented to (the app's signer keys and the policies, whole) to the
//! **signer**'s public key with HPKE; the server stores only that ciphertext, the signer opens it
//! only to sign a request those keys signed and those policies allow.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::policies::{Aggregation, Policy};

pub use crate::constants::{
    DELEGATION_CONSENT_VERSION, DELEGATION_HPKE_INFO, DELEGATION_HPKE_SUITE,
};

/// HPKE `aad` of a consent, `{app_id}:{address in lower case}`: binds it to its app and wallet,
/// so a ciphertext cannot be moved to another wallet's row.
pub fn delegation_aad(app_id: &str, address: &str) -> String {
    format!("{app_id}:{}", address.to_ascii_lowercase())
}

/// A key quorum the user lets sign for their wallet, with the policies its requests must pass.
/// (The published client's `signers: [{signerId, policyIds}]`.)
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SessionSignerInput {
    /// A key quorum of the app (`/v1/key_quorums`).
    pub signer_id: String,
    /// Policies of the app (`/v1/policies`); every one must allow a request.
    #[serde(default)]
    pub policy_ids: Vec<String>,
}

/// `POST /api/v1/delegated_actions/terms`: what delegating would let whom do. Without `signers`,
/// the app's default delegation (its settings' `[delegation]`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DelegationTermsRequest {
    /// The wallet to delegate (one of the caller's embedded wallets).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub address: Option<String>,
    /// The signers asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub signers: Option<Vec<SessionSignerInput>>,
}

/// A signer as the user consents to it: its keys and its policies, whole (the signer judges by
/// these copies, so a policy changed later needs a new consent).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ConsentedSigner {
    /// The key quorum's id.
    pub signer_id: String,
    /// Its name for people.
    pub display_name: Option<String>,
    /// Base64 DER SPKI P-256 public keys.
    pub public_keys: Vec<String>,
    /// How many of them must sign.
    pub threshold: u32,
    /// The policies, as stored when the user consented.
    pub policies: Vec<Policy>,
    /// The aggregations the policies' `reference` conditions name (`aggregation.{id}`), as stored
    /// when the user consented: the signer sums by these copies.
    #[serde(default)]
    pub aggregations: Vec<Aggregation>,
}

/// The answer of `POST /api/v1/delegated_actions/terms`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DelegationTerms {
    /// The signer's HPKE public key: base64 of the uncompressed SEC1 P-256 point (65 bytes).
    pub signer_public_key: String,
    /// [`DELEGATION_HPKE_SUITE`].
    pub hpke_suite: String,
    /// A fresh id for the consent this would be.
    pub consent_id: String,
    /// The wallet's id in the wallet API (`/v1/wallets/{wallet_id}`), when `address` was given:
    /// sealed into the consent, so the signer signs only requests made to that wallet's URL.
    pub wallet_id: Option<String>,
    /// Who may sign, under which policies.
    pub signers: Vec<ConsentedSigner>,
}

/// What the frame seals (JSON, then HPKE with [`DELEGATION_HPKE_INFO`] and [`delegation_aad`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DelegationConsent {
    /// [`DELEGATION_CONSENT_VERSION`].
    pub version: u32,
    /// From the terms.
    pub consent_id: String,
    /// The app.
    pub app_id: String,
    /// The user (`did:privy:…`).
    pub user_id: String,
    /// The wallet's address.
    pub address: String,
    /// The wallet's id in the wallet API (from the terms).
    pub wallet_id: String,
    /// `ethereum`.
    pub chain_type: String,
    /// The wallet's HD index.
    pub wallet_index: u32,
    /// The wallet's secp256k1 private key, `0x` and 64 hex digits.
    pub private_key: String,
    /// From the terms.
    pub signers: Vec<ConsentedSigner>,
    /// Unix milliseconds.
    #[ts(type = "number")]
    pub consented_at: i64,
}

/// `POST /api/v1/delegated_actions` (from the wallet frame only): a sealed consent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DelegateWalletRequest {
    /// The wallet's address.
    pub address: String,
    /// `ethereum`.
    pub chain_type: String,
    /// From the terms.
    pub consent_id: String,
    /// HPKE encapsulated key, base64.
    pub encapsulated_key: String,
    /// HPKE ciphertext of the [`DelegationConsent`] JSON, base64.
    pub ciphertext: String,
    /// A fresh MFA token of the caller's session: required, like an export, when the user has a
    /// second factor (the key leaves the device, sealed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mfa_token: Option<String>,
}

/// The answer of `POST /api/v1/delegated_actions`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DelegateWalletResponse {
    /// The wallet's address.
    pub address: String,
    /// Always true.
    pub delegated: bool,
    /// The signers' ids.
    pub signer_ids: Vec<String>,
}

/// The answer of `POST /api/v1/wallets/revoke` (the published client posts `{}` and ignores it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RevokeDelegationResponse {
    /// Always true.
    pub success: bool,
    /// The wallets no longer delegated.
    pub revoked: Vec<String>,
}

/// A wallet in the frame message's terms.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DelegatedWalletRef {
    /// Its address.
    pub address: String,
    /// `ethereum`.
    pub chain_type: String,
    /// Its HD index (absent on the root wallet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub wallet_index: Option<u32>,
    /// Whether it was imported (the root wallet only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub imported: Option<bool>,
}

/// A signer in the frame message (the published client's camelCase names).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FrameSessionSigner {
    /// A key quorum of the app.
    pub signer_id: String,
    /// Policies of the app.
    #[serde(default)]
    pub policy_ids: Vec<String>,
}

/// `privy:delegated-actions:consent` → [`DelegatedActionsConsentAnswer`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DelegatedActionsConsentData {
    pub access_token: String,
    /// The wallet whose entropy the delegated ones derive from (its address is the entropy id).
    pub root_wallet: DelegatedWalletRef,
    /// The wallets to delegate.
    pub delegated_wallets: Vec<DelegatedWalletRef>,
    /// Our client's choice of signers; absent: the app's default delegation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub signers: Option<Vec<FrameSessionSigner>>,
}

/// The answer to `privy:delegated-actions:consent`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct DelegatedActionsConsentAnswer {
    /// The wallets now delegated.
    pub delegated: Vec<String>,
}
