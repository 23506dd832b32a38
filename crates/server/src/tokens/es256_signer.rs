//! ES256 JWT signing (ECDSA P-256 with SHA-256, RFC 7518 §3.4) with a key parsed once.
//!
//! `jsonwebtoken::encode` re-parses and re-validates the PKCS#8 key on every call (with RustCrypto
//! that is two scalar multiplications before the signature's own), which was most of a refresh's
//! CPU. This signer keeps a parsed ring key pair (ring is already linked for rustls) and signs
//! in about 1/30 of the time. `jsonwebtoken` still verifies.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, Header};
use p256::SecretKey;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use ring::rand::SystemRandom;
use ring::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair};
use serde::Serialize;

use super::TokenError;

/// Signs compact JWS tokens with one P-256 key under one `kid`. `Debug` shows only the `kid`.
pub struct Es256Signer {
    kid: String,
    key: EcdsaKeyPair,
    rng: SystemRandom,
    /// The base64url JOSE header followed by `.`: the same for every token.
    header_dot: String,
}

impl std::fmt::Debug for Es256Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Es256Signer")
            .field("kid", &self.kid)
            .finish_non_exhaustive()
    }
}

impl Es256Signer {
    /// A signer for `secret` whose tokens carry the header `{"typ":"JWT","alg":"ES256","kid":kid}`.
    pub fn new(kid: &str, secret: &SecretKey) -> Result<Self, TokenError> {
        let bad = || TokenError::BadKey { kid: kid.into() };
        let public = secret.public_key().to_encoded_point(false);
        let rng = SystemRandom::new();
        let key = EcdsaKeyPair::from_private_key_and_public_key(
            &ECDSA_P256_SHA256_FIXED_SIGNING,
            &secret.to_bytes(),
            public.as_bytes(),
            &rng,
        )
        .map_err(|_| bad())?;
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(kid.to_string());
        let header_json =
            serde_json::to_vec(&header).map_err(|e| TokenError::Sign(e.to_string()))?;
        let mut header_dot = URL_SAFE_NO_PAD.encode(header_json);
        header_dot.push('.');
        Ok(Self {
            kid: kid.to_string(),
            key,
            rng,
            header_dot,
        })
    }

    /// The `kid` of the tokens this signer makes.
    pub fn kid(&self) -> &str {
        &self.kid
    }

    /// `header.claims.signature`, each part base64url without padding; the signature is `r ‖ s`
    /// (64 bytes), as JWS requires (RFC 7518 §3.4), not DER.
    pub fn sign<T: Serialize>(&self, claims: &T) -> Result<String, TokenError> {
        let payload = serde_json::to_vec(claims).map_err(|e| TokenError::Sign(e.to_string()))?;
        let mut jwt = String::with_capacity(self.header_dot.len() + payload.len() * 4 / 3 + 90);
        jwt.push_str(&self.header_dot);
        URL_SAFE_NO_PAD.encode_string(&payload, &mut jwt);
        let signature = self
            .key
            .sign(&self.rng, jwt.as_bytes())
            .map_err(|_| TokenError::Sign("ECDSA signing failed".into()))?;
        jwt.push('.');
        URL_SAFE_NO_PAD.encode_string(signature.as_ref(), &mut jwt);
        Ok(jwt)
    }
}

#[cfg(test)]
mod tests {
    use jsonwebtoken::{DecodingKey, EncodingKey, Validation, decode, decode_header, encode};
    use p256::pkcs8::EncodePrivateKey;
    use serde::Deserialize;

    use super::*;

    #[derive(Debug, Serialize, Deserialize, PartialEq)]
    struct Claims {
        sub: String,
        exp: i64,
    }

    fn key() -> SecretKey {
        SecretKey::from_slice(&[7u8; 32]).expect("scalar")
    }

    #[test]
    fn tokens_verify_with_jsonwebtoken_and_match_its_layout() {
        let secret = key();
        let signer = Es256Signer::new("kid1", &secret).expect("signer");
        let claims = Claims {
            sub: "did:privy:x".into(),
            exp: 4_000_000_000,
        };
        let jwt = signer.sign(&claims).expect("sign");

        let point = secret.public_key().to_encoded_point(false);
        let x = URL_SAFE_NO_PAD.encode(point.x().expect("x"));
        let y = URL_SAFE_NO_PAD.encode(point.y().expect("y"));
        let decoding = DecodingKey::from_ec_components(&x, &y).expect("public key");
        let data = decode::<Claims>(&jwt, &decoding, &Validation::new(Algorithm::ES256))
            .expect("verifies");
        assert_eq!(data.claims, claims);
        assert_eq!(
            decode_header(&jwt).expect("header").kid.as_deref(),
            Some("kid1")
        );

        // Header and payload are byte for byte what jsonwebtoken produces (only the ECDSA nonce differs).
        let der = secret.to_pkcs8_der().expect("der");
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some("kid1".into());
        let reference =
            encode(&header, &claims, &EncodingKey::from_ec_der(der.as_bytes())).expect("encode");
        let unsigned = |t: &str| t.rsplit_once('.').map(|(m, _)| m.to_string());
        assert_eq!(unsigned(&jwt), unsigned(&reference));
        let signature = URL_SAFE_NO_PAD
            .decode(jwt.rsplit('.').next().expect("signature"))
            .expect("base64url");
        assert_eq!(signature.len(), 64);
    }

    #[test]
    fn a_tampered_token_fails_verification() {
        let secret = key();
        let signer = Es256Signer::new("kid1", &secret).expect("signer");
        let jwt = signer
            .sign(&Claims {
                sub: "a".into(),
                exp: 4_000_000_000,
            })
            .expect("sign");
        let point = secret.public_key().to_encoded_point(false);
        let decoding = DecodingKey::from_ec_components(
            &URL_SAFE_NO_PAD.encode(point.x().expect("x")),
            &URL_SAFE_NO_PAD.encode(point.y().expect("y")),
        )
        .expect("public key");
        let forged = signer
            .sign(&Claims {
                sub: "b".into(),
                exp: 4_000_000_000,
            })
            .expect("sign");
        let (message, _) = forged.rsplit_once('.').expect("parts");
        let (_, signature) = jwt.rsplit_once('.').expect("parts");
        let spliced = format!("{message}.{signature}");
        assert!(decode::<Claims>(&spliced, &decoding, &Validation::new(Algorithm::ES256)).is_err());
        assert!(format!("{signer:?}").contains("kid1"));
    }
}
