//! What the main server and the signer say to each other (JSON over loopback HTTP; refusals are
//! `{error, code}` with a spec code).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::authorization::SignedRequest;

/// `GET /v1/public_key`.
pub const PUBLIC_KEY_PATH: &str = "/v1/public_key";
/// `POST /v1/consents`: [`SealedConsent`] → [`RegisteredConsent`].
pub const CONSENTS_PATH: &str = "/v1/consents";
/// `POST /v1/consents/revoke`: [`RevokeConsents`] → `{}`.
pub const REVOKE_PATH: &str = "/v1/consents/revoke";
/// `POST /v1/sign`: [`SignRequest`] → [`SignResponse`].
pub const SIGN_PATH: &str = "/v1/sign";

/// The signer's HPKE public key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicKeyResponse {
    /// Base64 of the uncompressed SEC1 P-256 point (65 bytes).
    pub public_key: String,
    /// The HPKE suite.
    pub suite: String,
}

/// A consent as the server stores it: the HPKE output and what its `aad` binds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SealedConsent {
    /// The app.
    pub app_id: String,
    /// The wallet's address.
    pub address: String,
    /// HPKE encapsulated key, base64.
    pub encapsulated_key: String,
    /// HPKE ciphertext, base64.
    pub ciphertext: String,
}

/// A consent the signer opened and now holds live.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegisteredConsent {
    /// Its id.
    pub consent_id: String,
    /// The user.
    pub user_id: String,
    /// The wallet's address.
    pub address: String,
    /// The wallet's id.
    pub wallet_id: String,
    /// `ethereum`.
    pub chain_type: String,
    /// The key quorums that may sign.
    pub signer_ids: Vec<String>,
}

/// Consents to refuse from now on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevokeConsents {
    /// Their ids.
    pub consent_ids: Vec<String>,
}

/// Fields of a transaction the signed request left out, filled by the server from the chain
/// (nonce, gas, fees); a field the request gave is never replaced.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransactionCompletion {
    /// `0x` quantities by the wallet API's field names (`nonce`, `gas_limit`, `max_fee_per_gas`,
    /// `max_priority_fee_per_gas`, `gas_price`, `chain_id`).
    pub fields: serde_json::Map<String, Value>,
}

/// A wallet-API request to sign.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SignRequest {
    /// The wallet's sealed consent.
    pub sealed: SealedConsent,
    /// The request as the app signed it.
    pub request: SignedRequest,
    /// For `eth_signTransaction` / `eth_sendTransaction` / `eth_sign7702Authorization`.
    #[serde(default)]
    pub completion: Option<TransactionCompletion>,
}

/// What was signed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SignResponse {
    /// The wallet API's method (`personal_sign`, …, `raw_sign`).
    pub method: String,
    /// The wallet API's `data` (for `eth_sendTransaction`: `signed_transaction` and `hash`, which
    /// the server broadcasts and answers as `{hash, caip2}`).
    pub data: Value,
    /// The policy rule that allowed it.
    pub allowed_by: String,
}
