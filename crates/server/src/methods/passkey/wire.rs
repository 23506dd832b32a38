//! Our snake_case wire forms (`symbolon_protocol::passkey`) to and from webauthn-rs's types, in
//! one place. Incoming binary fields are decoded here first, so malformed base64url or a
//! credential whose `id` and `raw_id` disagree is `400 invalid_data` before any check runs.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::json;
use symbolon_protocol::constants::PASSKEY_TIMEOUT_MS;
use symbolon_protocol::passkey::{
    PasskeyAuthenticationResponse, PasskeyAuthenticatorSelection, PasskeyCreationOptions,
    PasskeyCredentialParameter, PasskeyDescriptor, PasskeyRegistrationResponse,
    PasskeyRelyingParty, PasskeyRequestOptions, PasskeyUserEntity,
};
use webauthn_rs::prelude::{
    CreationChallengeResponse, PublicKeyCredential, RegisterPublicKeyCredential,
    RequestChallengeResponse,
};

use crate::error::AppError;

const PUBLIC_KEY: &str = "public-key";
const REQUIRED: &str = "required";

/// base64url without padding (trailing `=` tolerated).
pub fn b64(text: &str) -> Result<Vec<u8>, base64::DecodeError> {
    URL_SAFE_NO_PAD.decode(text.trim_end_matches('='))
}

/// base64url without padding.
pub fn b64_encode(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

fn field(name: &str, text: &str) -> Result<Vec<u8>, AppError> {
    b64(text).map_err(|_| AppError::invalid_data(format!("{name} is not base64url")))
}

/// A credential named in options.
pub fn descriptor(credential_id: &str, transports: Option<Vec<String>>) -> PasskeyDescriptor {
    PasskeyDescriptor {
        id: credential_id.to_string(),
        kind: PUBLIC_KEY.into(),
        transports,
    }
}

/// webauthn-rs's creation options in wire form: a discoverable credential with user
/// verification (what a passkey is), no attestation, `exclude` as given.
pub fn creation_options(
    ccr: &CreationChallengeResponse,
    exclude: Vec<PasskeyDescriptor>,
) -> PasskeyCreationOptions {
    let options = &ccr.public_key;
    PasskeyCreationOptions {
        rp: PasskeyRelyingParty {
            id: options.rp.id.clone(),
            name: options.rp.name.clone(),
        },
        user: PasskeyUserEntity {
            id: b64_encode(&options.user.id),
            name: options.user.name.clone(),
            display_name: options.user.display_name.clone(),
        },
        challenge: b64_encode(&options.challenge),
        pub_key_cred_params: options
            .pub_key_cred_params
            .iter()
            .map(|p| PasskeyCredentialParameter {
                kind: p.type_.clone(),
                alg: p.alg,
            })
            .collect(),
        timeout: PASSKEY_TIMEOUT_MS,
        exclude_credentials: exclude,
        authenticator_selection: PasskeyAuthenticatorSelection {
            resident_key: REQUIRED.into(),
            require_resident_key: true,
            user_verification: REQUIRED.into(),
            authenticator_attachment: None,
        },
        attestation: "none".into(),
        extensions: Some(json!({ "cred_props": true })),
    }
}

/// webauthn-rs's request options in wire form, allowing `allow` (empty: any discoverable
/// credential of the RP).
pub fn request_options(
    rcr: &RequestChallengeResponse,
    allow: Vec<PasskeyDescriptor>,
) -> PasskeyRequestOptions {
    let options = &rcr.public_key;
    PasskeyRequestOptions {
        challenge: b64_encode(&options.challenge),
        timeout: PASSKEY_TIMEOUT_MS,
        rp_id: options.rp_id.clone(),
        allow_credentials: allow,
        user_verification: REQUIRED.into(),
        extensions: None,
    }
}

/// The raw credential id of a response, checked against its `id`.
fn credential_id(kind: &str, id: &str, raw_id: &str) -> Result<Vec<u8>, AppError> {
    if kind != PUBLIC_KEY {
        return Err(AppError::invalid_data("type must be public-key"));
    }
    let raw = field("raw_id", raw_id)?;
    if raw.is_empty() || raw.len() > 1023 || field("id", id)? != raw {
        return Err(AppError::invalid_data(
            "id and raw_id must be the same credential id",
        ));
    }
    Ok(raw)
}

/// A registration response in webauthn-rs's form; also returns the client data and attestation
/// object bytes (challenge lookup, AAGUID).
pub fn registration(
    response: &PasskeyRegistrationResponse,
) -> Result<(RegisterPublicKeyCredential, Vec<u8>, Vec<u8>), AppError> {
    let raw_id = credential_id(&response.kind, &response.id, &response.raw_id)?;
    let inner = &response.response;
    let client_data = field("client_data_json", &inner.client_data_json)?;
    let attestation = field("attestation_object", &inner.attestation_object)?;
    let transports: Vec<&str> = inner
        .transports
        .iter()
        .flatten()
        .map(String::as_str)
        .filter(|t| matches!(*t, "usb" | "nfc" | "ble" | "internal" | "hybrid"))
        .collect();
    let credential = serde_json::from_value(json!({
        "id": b64_encode(&raw_id),
        "rawId": b64_encode(&raw_id),
        "response": {
            "attestationObject": b64_encode(&attestation),
            "clientDataJSON": b64_encode(&client_data),
            "transports": transports,
        },
        "type": PUBLIC_KEY,
        "clientExtensionResults": {},
    }))
    .map_err(|_| AppError::invalid_data("Malformed registration response"))?;
    Ok((credential, client_data, attestation))
}

/// An assertion in webauthn-rs's form; also returns the client data bytes (challenge lookup).
pub fn assertion(
    response: &PasskeyAuthenticationResponse,
) -> Result<(PublicKeyCredential, Vec<u8>), AppError> {
    let raw_id = credential_id(&response.kind, &response.id, &response.raw_id)?;
    let inner = &response.response;
    let client_data = field("client_data_json", &inner.client_data_json)?;
    let authenticator_data = field("authenticator_data", &inner.authenticator_data)?;
    let signature = field("signature", &inner.signature)?;
    let user_handle = inner
        .user_handle
        .as_deref()
        .filter(|h| !h.is_empty())
        .map(|h| field("user_handle", h))
        .transpose()?;
    let credential = serde_json::from_value(json!({
        "id": b64_encode(&raw_id),
        "rawId": b64_encode(&raw_id),
        "response": {
            "authenticatorData": b64_encode(&authenticator_data),
            "clientDataJSON": b64_encode(&client_data),
            "signature": b64_encode(&signature),
            "userHandle": user_handle.map(|h| b64_encode(&h)),
        },
        "type": PUBLIC_KEY,
        "clientExtensionResults": {},
    }))
    .map_err(|_| AppError::invalid_data("Malformed assertion"))?;
    Ok((credential, client_data))
}

#[cfg(test)]
mod tests {
    use super::*;
    use symbolon_protocol::passkey::PasskeyAssertionResponse;

    fn response(id: &str, raw_id: &str, signature: &str) -> PasskeyAuthenticationResponse {
        PasskeyAuthenticationResponse {
            id: id.into(),
            raw_id: raw_id.into(),
            response: PasskeyAssertionResponse {
                client_data_json: "e30".into(),
                authenticator_data: "AAAA".into(),
                signature: signature.into(),
                user_handle: None,
            },
            authenticator_attachment: None,
            client_extension_results: json!({}),
            kind: PUBLIC_KEY.into(),
        }
    }

    #[test]
    fn malformed_binary_fields_are_invalid_data() {
        assert!(assertion(&response("AQID", "AQID", "MEUC")).is_ok());
        for bad in [
            response("AQID", "AQIE", "MEUC"),
            response("AQ!D", "AQ!D", "MEUC"),
            response("AQID", "AQID", "not base64 %%"),
            response("", "", "MEUC"),
        ] {
            let Err(error) = assertion(&bad) else {
                panic!("accepted {bad:?}");
            };
            assert_eq!(
                error.code,
                symbolon_protocol::ServerErrorCode::InvalidData,
                "{bad:?}"
            );
        }
    }
}
