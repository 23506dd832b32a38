//! Passkeys (spec §3, §7): sign up, log in and link with a WebAuthn credential at `/passkeys/*`.
//!
//! Every call comes in pairs: `…/init` returns WebAuthn options (a single-use challenge), the
//! browser runs the ceremony, and the second call sends the authenticator's answer. The wire uses
//! the WebAuthn JSON forms with snake_case names; every binary field is base64url without padding.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// `POST /passkeys/register/init`, `/passkeys/authenticate/init`, `/passkeys/link/init`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasskeyInitRequest {
    /// Sent by clients; the server uses the RP id of the app's settings or the page's host and
    /// echoes it in the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub relying_party: Option<String>,
    /// Captcha token, when the app uses a captcha.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub token: Option<String>,
}

/// The answer to a registration `init` (sign-up and link).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasskeyRegistrationInitResponse {
    /// Options for `navigator.credentials.create`.
    pub options: PasskeyCreationOptions,
    /// The relying party as a URL, `https://{rp id}` (the published schema's form; the options
    /// carry the RP id itself).
    pub relying_party: String,
}

/// The answer to `/passkeys/authenticate/init`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasskeyAuthenticationInitResponse {
    /// Options for `navigator.credentials.get` (discoverable: `allow_credentials` is empty).
    pub options: PasskeyRequestOptions,
    /// The relying party as a URL, `https://{rp id}` (the published schema's form; the options
    /// carry the RP id itself).
    pub relying_party: String,
}

/// `PublicKeyCredentialCreationOptions` in wire form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasskeyCreationOptions {
    /// The relying party.
    pub rp: PasskeyRelyingParty,
    /// The user the credential is made for.
    pub user: PasskeyUserEntity,
    /// The single-use challenge.
    pub challenge: String,
    /// Accepted algorithms (COSE ids).
    pub pub_key_cred_params: Vec<PasskeyCredentialParameter>,
    /// Milliseconds the browser waits.
    #[ts(type = "number")]
    pub timeout: u64,
    /// Credentials the authenticator must not make again (the user's passkeys).
    pub exclude_credentials: Vec<PasskeyDescriptor>,
    /// Discoverable credential, user verification.
    pub authenticator_selection: PasskeyAuthenticatorSelection,
    /// Always `none`.
    pub attestation: String,
    /// WebAuthn extensions (`cred_props`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Record<string, unknown>")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub extensions: Option<serde_json::Value>,
}

/// `PublicKeyCredentialRequestOptions` in wire form (spec §3 "Passkey MFA options").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasskeyRequestOptions {
    /// The single-use challenge.
    pub challenge: String,
    /// Milliseconds the browser waits.
    #[ts(type = "number")]
    pub timeout: u64,
    /// The RP id.
    pub rp_id: String,
    /// Credentials that may answer (empty: any discoverable credential of this RP).
    pub allow_credentials: Vec<PasskeyDescriptor>,
    /// Always `required`.
    pub user_verification: String,
    /// WebAuthn extensions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Record<string, unknown>")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub extensions: Option<serde_json::Value>,
}

/// `{id, name}` of the relying party.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasskeyRelyingParty {
    /// RP id (a host name).
    pub id: String,
    /// Shown by the browser: the app's name.
    pub name: String,
}

/// The WebAuthn user entity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasskeyUserEntity {
    /// The user handle (base64url of random bytes, not the user id).
    pub id: String,
    /// Account name shown by the browser.
    pub name: String,
    /// Display name shown by the browser.
    pub display_name: String,
}

/// `{type: "public-key", alg}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasskeyCredentialParameter {
    /// Always `public-key`.
    #[serde(rename = "type")]
    #[ts(rename = "type")]
    pub kind: String,
    /// COSE algorithm id (-7 ES256, -8 EdDSA, -257 RS256).
    #[ts(type = "number")]
    pub alg: i64,
}

/// A credential named in options.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasskeyDescriptor {
    /// Credential id (base64url).
    pub id: String,
    /// Always `public-key`.
    #[serde(rename = "type")]
    #[ts(rename = "type")]
    pub kind: String,
    /// Transports the authenticator reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub transports: Option<Vec<String>>,
}

/// `authenticatorSelection` in wire form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasskeyAuthenticatorSelection {
    /// `required`: a discoverable credential, so it can sign in without a user name.
    pub resident_key: String,
    /// `true` (older browsers read this).
    pub require_resident_key: bool,
    /// `required`.
    pub user_verification: String,
    /// `platform` or `cross-platform` when restricted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub authenticator_attachment: Option<String>,
}

/// `POST /passkeys/register` (sign-up) and `POST /passkeys/link`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasskeyRegisterRequest {
    /// Ignored (see [`PasskeyInitRequest::relying_party`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub relying_party: Option<String>,
    /// The browser's answer to the creation options.
    pub authenticator_response: PasskeyRegistrationResponse,
}

/// `POST /passkeys/authenticate`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasskeyAuthenticateRequest {
    /// Ignored (see [`PasskeyInitRequest::relying_party`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub relying_party: Option<String>,
    /// The challenge of the options answered (also inside `client_data_json`).
    pub challenge: String,
    /// The browser's assertion.
    pub authenticator_response: PasskeyAuthenticationResponse,
}

/// `POST /passkeys/unlink`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasskeyUnlinkRequest {
    /// The passkey's credential id (base64url).
    pub credential_id: String,
    /// Also remove it as an MFA method (needs `mfa_token`; the wallet frame sends this).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub remove_as_mfa: Option<bool>,
    /// A fresh MFA token (wallet frame only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mfa_token: Option<String>,
}

/// `PublicKeyCredential` of a registration, in wire form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasskeyRegistrationResponse {
    /// Credential id (base64url).
    pub id: String,
    /// The same bytes (base64url).
    pub raw_id: String,
    /// The attestation.
    pub response: PasskeyAttestationResponse,
    /// `platform` or `cross-platform`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub authenticator_attachment: Option<String>,
    /// Extension outputs.
    #[serde(default)]
    #[ts(type = "Record<string, unknown>")]
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub client_extension_results: serde_json::Value,
    /// Always `public-key`.
    #[serde(rename = "type")]
    #[ts(rename = "type")]
    pub kind: String,
}

/// `AuthenticatorAttestationResponse` in wire form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasskeyAttestationResponse {
    /// `clientDataJSON` (base64url).
    pub client_data_json: String,
    /// `attestationObject` (base64url CBOR).
    pub attestation_object: String,
    /// Transports the authenticator reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub transports: Option<Vec<String>>,
    /// Convenience copy of the authenticator data (base64url); not trusted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub authenticator_data: Option<String>,
    /// Convenience copy of the public key (base64url DER); not trusted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub public_key: Option<String>,
    /// COSE algorithm of the public key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub public_key_algorithm: Option<i64>,
}

/// `PublicKeyCredential` of an assertion (spec §3 "Passkey assertion for MFA").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasskeyAuthenticationResponse {
    /// Credential id (base64url).
    pub id: String,
    /// The same bytes (base64url).
    pub raw_id: String,
    /// The signed assertion.
    pub response: PasskeyAssertionResponse,
    /// `platform` or `cross-platform`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub authenticator_attachment: Option<String>,
    /// Extension outputs (`app_id`, `cred_props`, `hmac_create_secret`).
    #[serde(default)]
    #[ts(type = "Record<string, unknown>")]
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub client_extension_results: serde_json::Value,
    /// Always `public-key`.
    #[serde(rename = "type")]
    #[ts(rename = "type")]
    pub kind: String,
}

/// `AuthenticatorAssertionResponse` in wire form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasskeyAssertionResponse {
    /// `clientDataJSON` (base64url).
    pub client_data_json: String,
    /// `authenticatorData` (base64url).
    pub authenticator_data: String,
    /// The signature (base64url).
    pub signature: String,
    /// The user handle of a discoverable credential (base64url).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub user_handle: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_assertion_reads_the_spec_field_names() {
        let json = serde_json::json!({
            "id": "AQ", "raw_id": "AQ", "type": "public-key",
            "response": {"client_data_json": "e30", "authenticator_data": "AA", "signature": "AA",
                         "user_handle": "AQ"},
            "authenticator_attachment": "platform",
            "client_extension_results": {"app_id": false, "cred_props": {"rk": true},
                                         "hmac_create_secret": false}
        });
        let parsed: PasskeyAuthenticationResponse =
            serde_json::from_value(json.clone()).expect("assertion");
        assert_eq!(parsed.response.user_handle.as_deref(), Some("AQ"));
        assert_eq!(serde_json::to_value(&parsed).expect("json"), json);
    }
}
