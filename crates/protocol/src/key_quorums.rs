//! Key quorums (`/v1/key_quorums`): P-256 keys and how many of them must sign. A quorum owns
//! resources (a policy now, wallets with the delegation issue): changing an owned resource needs
//! authorization signatures by at least `authorization_threshold` of its keys.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// One key of a quorum.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AuthorizationKey {
    /// Base64 DER SPKI of a P-256 public key.
    pub public_key: String,
    /// A name for people.
    pub display_name: Option<String>,
}

/// A key quorum as the API answers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KeyQuorum {
    /// Its id.
    pub id: String,
    /// A name for people.
    pub display_name: Option<String>,
    /// Its keys.
    pub authorization_keys: Vec<AuthorizationKey>,
    /// How many keys must sign (null: all of them).
    pub authorization_threshold: Option<u32>,
    /// Users whose sessions sign (not served yet: always null).
    pub user_ids: Option<Vec<String>>,
}

/// `POST /v1/key_quorums`, `PATCH /v1/key_quorums/{id}` (what is given replaces what is stored).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KeyQuorumRequest {
    /// Base64 DER SPKI P-256 public keys (1 to 10 on create).
    #[serde(default)]
    #[ts(optional)]
    pub public_keys: Option<Vec<String>>,
    /// How many must sign (1 to the number of keys; absent: all).
    #[serde(default)]
    #[ts(optional)]
    pub authorization_threshold: Option<u32>,
    /// A name for people.
    #[serde(default)]
    #[ts(optional)]
    pub display_name: Option<String>,
    /// Users as signers (not served yet: must be absent).
    #[serde(default)]
    #[ts(optional)]
    pub user_ids: Option<Vec<String>>,
    /// Nested quorums (not served yet: must be absent).
    #[serde(default)]
    #[ts(optional)]
    pub key_quorum_ids: Option<Vec<String>>,
}
