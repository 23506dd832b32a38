//! The server's ES256 keys: created at first start, kept in the database sealed under the
//! sealing key (never in the clear), published as a JWKS.

use std::collections::HashMap;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::DecodingKey;
use p256::SecretKey;
use p256::pkcs8::{DecodePrivateKey, EncodePrivateKey, EncodePublicKey, LineEnding};
use serde::Serialize;

use super::{Es256Signer, TokenError};
use crate::db::Db;
use crate::db::keys::SigningKeyRecord;
use crate::keys::key_sealer::{KeySealer, SealError};
use crate::random::{random_bytes, random_id};

/// A public key in JWK form (RFC 7517/7518).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct JwksResponse {
    /// Active key first, then retired keys that may still verify live tokens.
    pub keys: Vec<Jwk>,
}

/// Signing key plus every key that may verify. Its `Debug` never shows key material.
pub struct KeyRing {
    signer: Es256Signer,
    verifying: HashMap<String, DecodingKey>,
    jwks: JwksResponse,
    /// The active key's public half as PEM (SPKI), for back ends that verify with a fixed key.
    verification_pem: String,
}

impl std::fmt::Debug for KeyRing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyRing")
            .field("active_kid", &self.signer.kid())
            .finish_non_exhaustive()
    }
}

impl KeyRing {
    /// Loads the stored keys, generating and storing one when no trusted key is active.
    pub async fn load_or_create(db: &Db, sealer: &KeySealer, now: i64) -> Result<Self, TokenError> {
        let records = db.signing_keys().await?;
        if trusted(&records, sealer)
            .iter()
            .any(|(record, _)| record.retired_at.is_none())
        {
            return Self::from_records(&records, sealer);
        }
        // Sealed rows that do not open mean the operator configured another sealing key:
        // refuse to start rather than replace every key (unsealed rows are merely ignored).
        if records.iter().any(|r| {
            matches!(
                sealer.open(&r.kid, &r.private_key),
                Err(SealError::BadKey { .. })
            )
        }) {
            return Err(TokenError::WrongSealingKey);
        }
        db.insert_signing_key(&generate(sealer, now)?).await?;
        Self::from_records(&db.signing_keys().await?, sealer)
    }

    /// Builds the ring from stored keys (newest first): the newest unretired trusted key signs,
    /// and only trusted keys verify. A row is trusted when it opens under the sealing key and
    /// its public key is the one its private key makes; any other row could have been written
    /// by anyone with access to the database, so it is ignored (and logged).
    pub fn from_records(
        records: &[SigningKeyRecord],
        sealer: &KeySealer,
    ) -> Result<Self, TokenError> {
        let trusted = trusted(records, sealer);
        let (active_record, active_secret) = trusted
            .iter()
            .find(|(record, _)| record.retired_at.is_none())
            .ok_or_else(|| TokenError::BadKey {
                kid: "<none active>".into(),
            })?;
        let mut verifying = HashMap::new();
        let mut keys = Vec::new();
        for (record, _) in &trusted {
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
        let verification_pem = active_secret
            .public_key()
            .to_public_key_pem(LineEnding::LF)
            .map_err(|_| TokenError::BadKey {
                kid: active_record.kid.clone(),
            })?;
        Ok(Self {
            signer: Es256Signer::new(&active_record.kid, active_secret)?,
            verifying,
            jwks: JwksResponse { keys },
            verification_pem,
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

    /// The verifying key for a `kid`.
    pub fn decoding_key(&self, kid: &str) -> Option<&DecodingKey> {
        self.verifying.get(kid)
    }

    /// The public keys as a JWKS.
    pub fn jwks(&self) -> &JwksResponse {
        &self.jwks
    }

    /// The active key's public half, PEM (SPKI): the `verification_key` of the app settings.
    pub fn verification_pem(&self) -> &str {
        &self.verification_pem
    }
}

/// The rows that a holder of the sealing key wrote, with their private keys.
fn trusted<'a>(
    records: &'a [SigningKeyRecord],
    sealer: &KeySealer,
) -> Vec<(&'a SigningKeyRecord, SecretKey)> {
    records
        .iter()
        .filter_map(|record| match open_trusted(record, sealer) {
            Ok(secret) => Some((record, secret)),
            Err(error) => {
                tracing::error!(kid = %record.kid, %error,
                    "signing key row IGNORED: it does not open under the sealing key, so it was not written by this server (a database copy or write could have planted it)");
                None
            }
        })
        .collect()
}

/// The private key of a row, if it is sealed under `sealer` and matches its public key.
fn open_trusted(record: &SigningKeyRecord, sealer: &KeySealer) -> Result<SecretKey, TokenError> {
    let bad = || TokenError::BadKey {
        kid: record.kid.clone(),
    };
    let der = sealer.open(&record.kid, &record.private_key)?;
    let secret = SecretKey::from_pkcs8_der(&der).map_err(|_| bad())?;
    let (x, y) = public_coordinates(&secret)?;
    if x != record.public_x || y != record.public_y {
        return Err(bad());
    }
    Ok(secret)
}

/// The base64url x and y of the key's public point.
fn public_coordinates(secret: &SecretKey) -> Result<(String, String), TokenError> {
    let point =
        p256::elliptic_curve::sec1::ToEncodedPoint::to_encoded_point(&secret.public_key(), false);
    let (Some(x), Some(y)) = (point.x(), point.y()) else {
        return Err(TokenError::Sign(
            "public key has no affine coordinates".into(),
        ));
    };
    Ok((URL_SAFE_NO_PAD.encode(x), URL_SAFE_NO_PAD.encode(y)))
}

/// A fresh P-256 key from the CSPRNG, sealed.
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
    let (public_x, public_y) = public_coordinates(&secret)?;
    let kid = random_id(16)?;
    Ok(SigningKeyRecord {
        private_key: sealer.seal(&kid, der.as_bytes())?,
        kid,
        public_x,
        public_y,
        created_at: now,
        retired_at: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::STANDARD;

    fn sealer() -> KeySealer {
        KeySealer::new([5; 32])
    }

    #[test]
    fn generated_keys_round_trip_through_their_record() {
        let record = generate(&sealer(), 1).expect("generate");
        let ring = KeyRing::from_records(std::slice::from_ref(&record), &sealer()).expect("ring");
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
        let mut old = generate(&sealer(), 1).expect("generate");
        old.retired_at = Some(5);
        let new = generate(&sealer(), 10).expect("generate");
        let ring = KeyRing::from_records(&[new.clone(), old.clone()], &sealer()).expect("ring");
        assert_eq!(ring.active_kid(), new.kid);
        assert!(ring.decoding_key(&old.kid).is_some());
        assert_eq!(ring.jwks().keys.len(), 2);
    }

    #[test]
    fn rows_nobody_sealed_neither_sign_nor_verify() {
        let genuine = generate(&sealer(), 1).expect("generate");
        // Planted by someone who can write the database but lacks the sealing key: a key of
        // their own stored in the clear, one sealed under another key, and the genuine sealed
        // private key paired with their public key.
        let mut plain = generate(&sealer(), 2).expect("generate");
        let secret = SecretKey::from_slice(&[42; 32]).expect("scalar");
        plain.private_key = STANDARD.encode(secret.to_pkcs8_der().expect("der").as_bytes());
        (plain.public_x, plain.public_y) = public_coordinates(&secret).expect("point");
        let foreign = generate(&KeySealer::new([6; 32]), 3).expect("generate");
        let mut swapped = genuine.clone();
        swapped.kid = "swapped".into();
        let mut mismatched = generate(&sealer(), 4).expect("generate");
        (mismatched.public_x, mismatched.public_y) = public_coordinates(&secret).expect("point");
        let ring = KeyRing::from_records(
            &[
                plain.clone(),
                foreign.clone(),
                swapped,
                mismatched.clone(),
                genuine.clone(),
            ],
            &sealer(),
        )
        .expect("ring");
        assert_eq!(ring.active_kid(), genuine.kid);
        for planted in [&plain.kid, &foreign.kid, "swapped", &mismatched.kid] {
            assert!(ring.decoding_key(planted).is_none(), "{planted} trusted");
        }
        assert_eq!(ring.jwks().keys.len(), 1);
        // Nothing trusted at all: no ring (load_or_create then makes a sealed key).
        assert!(KeyRing::from_records(&[plain], &sealer()).is_err());
    }
}
