//! Placeholder until the verifier lands: the settings an app stores for custom auth.

use serde::{Deserialize, Serialize};

/// How the host's JWTs are checked.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CustomAuthSettings {
    /// The host's JWKS URL.
    pub jwks_url: Option<String>,
    /// Or one public key, PEM.
    pub public_key_pem: Option<String>,
    /// Required `iss`.
    pub issuer: Option<String>,
    /// Required `aud`.
    pub audience: Option<String>,
    /// The claim naming the host's user (default `sub`).
    pub subject_claim: String,
}
