//! A software WebAuthn authenticator for tests: it *builds* what a browser and a platform
//! authenticator send — `none` attestations with real authenticator data (RP id hash, flags,
//! sign counter, AAGUID, a P-256 COSE key) and ES256 assertions over `authData ‖
//! SHA-256(clientDataJSON)` — in the server's snake_case wire form (`symbolon_protocol::passkey`).
//! Knobs let a test break one thing at a time: the UV flag, the counter, the origin in the
//! client data, the RP id that is hashed.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// The AAGUID the authenticator reports (all zero: "unknown", as `none` attestation allows).
pub const AAGUID: [u8; 16] = [0; 16];

/// One credential the authenticator holds.
#[derive(Clone)]
pub struct SoftCredential {
    /// Raw credential id.
    pub id: Vec<u8>,
    /// The private key.
    pub key: SigningKey,
    /// The user handle it was created for.
    pub user_handle: Vec<u8>,
    /// Its signature counter (the next assertion sends this plus `counter_step`).
    pub counter: u32,
}

impl SoftCredential {
    /// The credential id, base64url (the `id` and `credential_id` on the wire).
    pub fn id_b64(&self) -> String {
        B64.encode(&self.id)
    }
}

/// A platform authenticator plus the browser around it.
#[derive(Clone)]
pub struct SoftAuthenticator {
    /// The RP id the credentials are scoped to (and hashed into authenticator data).
    pub rp_id: String,
    /// Credentials, oldest first.
    pub credentials: Vec<SoftCredential>,
    /// Set the UV (user verified) flag. Default true.
    pub uv: bool,
    /// How much each assertion adds to the counter (0: a counter-less authenticator). Default 1.
    pub counter_step: u32,
    /// Claim this origin in `clientDataJSON` instead of the one passed in.
    pub origin_override: Option<String>,
    /// Hash this RP id into authenticator data instead of [`Self::rp_id`].
    pub rp_id_override: Option<String>,
    /// Answer assertions with this credential (index) instead of choosing one.
    pub use_credential: Option<usize>,
}

fn random<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).expect("random bytes");
    bytes
}

impl SoftAuthenticator {
    /// An authenticator with no credentials for `rp_id`.
    pub fn new(rp_id: &str) -> Self {
        Self {
            rp_id: rp_id.into(),
            credentials: Vec::new(),
            uv: true,
            counter_step: 1,
            origin_override: None,
            rp_id_override: None,
            use_credential: None,
        }
    }

    /// The last credential created.
    pub fn last(&self) -> &SoftCredential {
        self.credentials.last().expect("no credential yet")
    }

    /// Answers `navigator.credentials.create` for `options` (a `PasskeyCreationOptions`, or
    /// the init response holding it under `options`) with a new credential: a
    /// `PasskeyRegistrationResponse`.
    pub fn register(&mut self, options: &Value, origin: &str) -> Value {
        self.register_with_id(options, origin, random::<32>().to_vec())
    }

    /// [`Self::register`] with a chosen credential id (e.g. someone else's, which a forger can
    /// claim: credential ids are public).
    pub fn register_with_id(&mut self, options: &Value, origin: &str, id: Vec<u8>) -> Value {
        let options = options.get("options").unwrap_or(options);
        let challenge = options["challenge"].as_str().expect("challenge");
        let user_handle = B64
            .decode(options["user"]["id"].as_str().expect("user.id"))
            .expect("user.id is base64url");
        let key = loop {
            if let Ok(key) = SigningKey::from_slice(&random::<32>()) {
                break key;
            }
        };
        let credential = SoftCredential {
            id,
            key,
            user_handle,
            counter: 0,
        };
        let client_data = self.client_data("webauthn.create", challenge, origin);
        let mut auth_data = self.auth_data(0x40, credential.counter);
        auth_data.extend_from_slice(&AAGUID);
        auth_data.extend_from_slice(&u16::try_from(credential.id.len()).unwrap().to_be_bytes());
        auth_data.extend_from_slice(&credential.id);
        auth_data.extend_from_slice(&cose_key(&credential.key));
        let attestation_object = cbor(&ciborium::Value::Map(vec![
            (text("fmt"), text("none")),
            (text("attStmt"), ciborium::Value::Map(Vec::new())),
            (text("authData"), ciborium::Value::Bytes(auth_data.clone())),
        ]));
        let response = json!({
            "id": credential.id_b64(),
            "raw_id": credential.id_b64(),
            "response": {
                "client_data_json": B64.encode(client_data),
                "attestation_object": B64.encode(attestation_object),
                "transports": ["internal", "hybrid"],
                "authenticator_data": B64.encode(&auth_data),
                "public_key_algorithm": -7,
            },
            "authenticator_attachment": "platform",
            "client_extension_results": { "cred_props": { "rk": true } },
            "type": "public-key",
        });
        self.credentials.push(credential);
        response
    }

    /// Answers `navigator.credentials.get` for `options` (a `PasskeyRequestOptions`, or the
    /// init response holding it under `options`): a `PasskeyAuthenticationResponse` from the
    /// chosen credential ([`Self::use_credential`], else the newest one `allow_credentials`
    /// names, else the newest one), with its counter moved on by [`Self::counter_step`].
    pub fn assert(&mut self, options: &Value, origin: &str) -> Value {
        let options = options.get("options").unwrap_or(options);
        let challenge = options["challenge"].as_str().expect("challenge");
        let allowed: Vec<String> = options["allow_credentials"]
            .as_array()
            .map(|list| {
                list.iter()
                    .filter_map(|d| d["id"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let index = self.use_credential.unwrap_or_else(|| {
            self.credentials
                .iter()
                .rposition(|c| allowed.is_empty() || allowed.contains(&c.id_b64()))
                .expect("no credential for these options")
        });
        let step = self.counter_step;
        let counter = {
            let credential = &mut self.credentials[index];
            credential.counter = credential.counter.wrapping_add(step);
            credential.counter
        };
        let auth_data = self.auth_data(0, counter);
        let client_data = self.client_data("webauthn.get", challenge, origin);
        let credential = &self.credentials[index];
        let mut signed = auth_data.clone();
        signed.extend_from_slice(&Sha256::digest(&client_data));
        let signature: Signature = credential.key.sign(&signed);
        json!({
            "id": credential.id_b64(),
            "raw_id": credential.id_b64(),
            "response": {
                "client_data_json": B64.encode(&client_data),
                "authenticator_data": B64.encode(&auth_data),
                "signature": B64.encode(signature.to_der().as_bytes()),
                "user_handle": B64.encode(&credential.user_handle),
            },
            "authenticator_attachment": "platform",
            "client_extension_results": {},
            "type": "public-key",
        })
    }

    /// Sets credential `index`'s counter (the next assertion sends it plus the step).
    pub fn set_counter(&mut self, index: usize, counter: u32) {
        self.credentials[index].counter = counter;
    }

    fn client_data(&self, kind: &str, challenge: &str, origin: &str) -> Vec<u8> {
        let origin = self.origin_override.as_deref().unwrap_or(origin);
        json!({ "type": kind, "challenge": challenge, "origin": origin, "crossOrigin": false })
            .to_string()
            .into_bytes()
    }

    /// RP id hash, flags (UP, UV if set, plus `extra`), counter.
    fn auth_data(&self, extra: u8, counter: u32) -> Vec<u8> {
        let rp_id = self.rp_id_override.as_deref().unwrap_or(&self.rp_id);
        let mut data = Sha256::digest(rp_id.as_bytes()).to_vec();
        data.push(0x01 | if self.uv { 0x04 } else { 0 } | extra);
        data.extend_from_slice(&counter.to_be_bytes());
        data
    }
}

fn text(s: &str) -> ciborium::Value {
    ciborium::Value::Text(s.into())
}

fn cbor(value: &ciborium::Value) -> Vec<u8> {
    let mut out = Vec::new();
    ciborium::into_writer(value, &mut out).expect("CBOR");
    out
}

/// The COSE_Key of an ES256 public key: {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}.
fn cose_key(key: &SigningKey) -> Vec<u8> {
    let point = key.verifying_key().to_encoded_point(false);
    let int = |n: i64| ciborium::Value::Integer(n.into());
    cbor(&ciborium::Value::Map(vec![
        (int(1), int(2)),
        (int(3), int(-7)),
        (int(-1), int(1)),
        (
            int(-2),
            ciborium::Value::Bytes(point.x().expect("x").to_vec()),
        ),
        (
            int(-3),
            ciborium::Value::Bytes(point.y().expect("y").to_vec()),
        ),
    ]))
}
