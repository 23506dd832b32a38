//! The server's ES256 keys: created at first start, kept in the database, published as a JWKS.

use std::collections::HashMap;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{DecodingKey, EncodingKey};
use p256::SecretKey;
use p256::pkcs8::{DecodePrivateKey, EncodePrivateKey};
use serde::Serialize;

use super::{Es256Signer, KeySealer, TokenError};
use crate::db::Db;
use crate::db::keys::SigningKeyRecord;
use crate::random::{random_bytes, random_id};

/// A public key in JWK form (RFC 7517/7518).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Jwk {
    /// `EC`.
    pub kty: &'static str,
    /// `P-256`.
    pub crv: &'static str,
    /// Base64url x coordinate.
    pub x: String,
    /// Base64url y coordinate.
    pub y: String,
    /// Key id, as in the tokens' `kid` header.
    pub kid: String,
    /// `ES256`.
    pub alg: &'static str,
    /// `sig`.
    #[serde(rename = "use")]
    pub use_: &'static str,
}

/// `GET /api/v1/apps/{app_id}/jwks.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct JwksResponse {
    /// Active key first, then retired keys that may still verify live tokens.
    pub keys: Vec<Jwk>,
}

/// Signing key plus every key that may verify. Its `Debug` never shows key material.
pub struct KeyRing {
    signer: Es256Signer,
    active: EncodingKey,
    verifying: HashMap<String, DecodingKey>,
    jwks: JwksResponse,
}

impl std::fmt::Debug for KeyRing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyRing")
            .field("active_kid", &self.signer.kid())
            .finish_non_exhaustive()
    }
}

impl KeyRing {
    /// Loads the stored keys, generating and storing one when none is active.
    pub async fn load_or_create(db: &Db, sealer: &KeySealer, now: i64) -> Result<Self, TokenError> {
        let mut records = db.signing_keys().await?;
        if !records.iter().any(|r| r.retired_at.is_none()) {
            db.insert_signing_key(&generate(sealer, now)?).await?;
            records = db.signing_keys().await?;
        }
        Self::from_records(&records, sealer)
    }

    /// Builds the ring from stored keys (newest first); the newest unretired key signs.
    pub fn from_records(
        records: &[SigningKeyRecord],
        sealer: &KeySealer,
    ) -> Result<Self, TokenError> {
        let active_record = records
            .iter()
            .find(|r| r.retired_at.is_none())
            .ok_or_else(|| TokenError::BadKey {
                kid: "<none active>".into(),
            })?;
        let der = sealer.open(&active_record.kid, &active_record.private_key)?;
        let secret = SecretKey::from_pkcs8_der(&der).map_err(|_| TokenError::BadKey {
            kid: active_record.kid.clone(),
        })?;
        let mut verifying = HashMap::new();
        let mut keys = Vec::new();
        for record in records {
            let decoding = DecodingKey::from_ec_components(&record.public_x, &record.public_y)
                .map_err(|_| TokenError::BadKey {
                    kid: record.kid.clone(),
                })?;
            verifying.insert(record.kid.clone(), decoding);
            keys.push(Jwk {
                kty: "EC",
                crv: "P-256",
                x: record.public_x.clone(),
                y: record.public_y.clone(),
                kid: record.kid.clone(),
                alg: "ES256",
                use_: "sig",
            });
        }
        Ok(Self {
            signer: Es256Signer::new(&active_record.kid, &secret)?,
            active: EncodingKey::from_ec_der(&der),
            verifying,
            jwks: JwksResponse { keys },
        })
    }

    /// The `kid` new tokens carry.
    pub fn active_kid(&self) -> &str {
        self.signer.kid()
    }

    /// Signs new tokens with the active key.
    pub fn signer(&self) -> &Es256Signer {
        &self.signer
    }

    /// The active key for `jsonwebtoken::encode` (tests and tools; the server signs with
    /// [`KeyRing::signer`], which is much faster).
    pub fn encoding_key(&self) -> &EncodingKey {
        &self.active
    }

    /// The verifying key for a `kid`.
    pub fn decoding_key(&self, kid: &str) -> Option<&DecodingKey> {
        self.verifying.get(kid)
    }

    /// The public keys as a JWKS.
    pub fn jwks(&self) -> &JwksResponse {
        &self.jwks
    }
}

/// A fresh P-256 key from the CSPRNG.
fn generate(sealer: &KeySealer, now: i64) -> Result<SigningKeyRecord, TokenError> {
    let secret = loop {
        // A random 32-byte string is a valid scalar except with negligible probability; retry then.
        if let Ok(key) = SecretKey::from_slice(&random_bytes::<32>()?) {
            break key;
        }
    };
    let der = secret
        .to_pkcs8_der()
        .map_err(|e| TokenError::Sign(e.to_string()))?;
    let point =
        p256::elliptic_curve::sec1::ToEncodedPoint::to_encoded_point(&secret.public_key(), false);
    let (Some(x), Some(y)) = (point.x(), point.y()) else {
        return Err(TokenError::Sign(
            "public key has no affine coordinates".into(),
        ));
    };
    let kid = random_id(16)?;
    Ok(SigningKeyRecord {
        private_key: sealer.seal(&kid, der.as_bytes())?,
        kid,
        public_x: URL_SAFE_NO_PAD.encode(x),
        public_y: URL_SAFE_NO_PAD.encode(y),
        created_at: now,
        retired_at: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_keys_round_trip_through_their_record() {
        let record = generate(&KeySealer::plain(), 1).expect("generate");
        let ring = KeyRing::from_records(std::slice::from_ref(&record), &KeySealer::plain())
            .expect("ring");
        assert_eq!(ring.active_kid(), record.kid);
        assert_eq!(ring.jwks().keys.len(), 1);
        assert_eq!(
            URL_SAFE_NO_PAD
                .decode(&record.public_x)
                .map(|x| x.len())
                .ok(),
            Some(32)
        );
        assert!(!format!("{ring:?}").contains(&record.private_key));
    }

    #[test]
    fn retired_keys_verify_but_do_not_sign() {
        let mut old = generate(&KeySealer::plain(), 1).expect("generate");
        old.retired_at = Some(5);
        let new = generate(&KeySealer::plain(), 10).expect("generate");
        let ring =
            KeyRing::from_records(&[new.clone(), old.clone()], &KeySealer::plain()).expect("ring");
        assert_eq!(ring.active_kid(), new.kid);
        assert!(ring.decoding_key(&old.kid).is_some());
        assert_eq!(ring.jwks().keys.len(), 2);
    }
}
