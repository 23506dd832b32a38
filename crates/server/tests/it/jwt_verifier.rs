//! The custom-auth JWT verifier against a real loopback JWKS server (axum on 127.0.0.1:0) serving
//! keys generated here: good tokens for each key type, and each refusal with its specific error.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use ring::rand::SystemRandom;
use ring::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, Ed25519KeyPair, KeyPair};
use serde_json::{Value, json};
use symbolon_server::jwt_verifier::{
    CustomAuthSettings, CustomJwtError, InvalidReason, JwksCache, verify_custom_jwt,
};
use symbolon_server::outbound_http::outbound_client;

const NOW: i64 = 1_800_000_000;
const ISSUER: &str = "https://auth.host.example";
const AUDIENCE: &str = "symbolon-test-app";

/// A 2048-bit RSA test key (generated with `openssl genrsa 2048` for these tests only): PKCS#1 DER, base64.
const RSA_PRIVATE_PKCS1: &str = concat!(
    "MIIEpAIBAAKCAQEAvV7Ms/6Isuo4wZ1KJeZTFnlVv7W4ABIiO2ytvgMn0XFXBgPZ3BxiOxMIweU5QHozI8SVF/faSP",
    "+0ESwxcH14rLeaZgLaJHBSRvPmaCAm+NFykmxkMIP9xdR5PvEB1ez/lMNH5aHb2B0V03aXLwUuevOAb+uZMZ6yv8i3",
    "/gXO/pLQFz5vXJ/an9auJMDNUiuGGRRZyXhoB+rjqj1ILqqwsjFr6IPbYBfCI6YHovZkBINnsJrc0UxZc/K+/8sOcy",
    "iBVnIwXb6mBcnQhxEVtLwZ/7UiIVzh6vTiSCwObLBAxQfKcBHC86Il8SIMgBktqSPGkrt6Th9pdbsHfv21SWmeBQID",
    "AQABAoIBAD/I3yVffjbZWr2oV7HVVzYyL1ZQBIaNlRcz/3+Je4954CiIAok3zER+oEwDBBo6LuCE1f1JQC6nZkUEgD",
    "CWKp/uheSHYGe2p5f7jieTcN0NW0yDkumeg8tvSlmPfyFJ3zqB3kU0FCNChLgB8WFmmuXR//hywFpszGN53bODzFmF",
    "kGaoFiRTksFZqOi38SZxgSl1Xdsyy6vvebln3czDZv/YOP410mOoIR9sPfIWtO4on68BTyWeWqO4tlCNAqKw3Ezb27",
    "7IN6uoR+wWdO+173EEyYfWYV/0BEl0XaNZPB3+p/jzn1Uu3Cfddf0FmViOu0VFwaVfb5s/dYwVLt7wfk8CgYEA6Bda",
    "uH4peRJJFdRwC2QlppeTVXhO4Y51ZuNO/Jd4AKmCdxFdAg2Qvtu9kRkaVSlnHVtEYnGiURZeC5nBkuk3uHj7dDhAab",
    "OjHv9JLg++7kVIp4eG8mR1ANHBWPd/MWmQsn9qRtyT3Lm9nRXByYMEysVvAjQcjgfZVjBXrH1p5gMCgYEA0ODSMArO",
    "pUTtY8ZG6cLluYactn526IxiOQi229nj+aHKnI7wVev5XlW4xYLImotfw5pG3Fu9EnW+wFxvyjqDGvDjGNKvO+A4zS",
    "l4DAjCnYZ0W8qzePD2S7ub7n1i7wWdVFqWNp60aoyy/WSbCGQSYSqRaLR4zMA/yzV2eySM0VcCgYEAiPdfXol1yDF2",
    "WB+qj85mOc4x8LqzMoFz32g98OsisqFWkRX6IYAH79qWIM8Dr0Zjx/tYfBA7jkb48Ten+R8Q9xjOrGOV/8s3dM+LTF",
    "eWgd75ZYShquKF+hnPVMWalnqKHgz7lx4NVLF4qP9yAY4EgfXJ8S73uwn+xNJ6qxzIJikCgYBObhx+LZCqPddlP24h",
    "GC1qHEF7xMChURUQlVUT+BzB/x406vcTTCe2ZDmc8B6i6PJsX+F7nHbCF7QoRo0zQgU4eHrNN07VDLxHTOrmmeN5gq",
    "LuVI5POytABJHoWuxrE5Cfu+PrXmwgFfSfcMdFv02nbnRq/FjfiNBrXQe/9VlqwQKBgQC7UVfi6ptdP9MhiPfL+JSI",
    "M1QdgSbO2CmE43KZAptQ5ck6U7vJNX6zG/fcpIQ57rY/4xiVyJuMz4rhTBbSMVl+9r2zEiUxqRunsSf8k8vsHYDA9A",
    "dzXwmpjTZywk8vAOcoW59uEkrOXSxwouM4QsVGMz07rByt1jI2UVhljA+qbw==",
);
/// Its modulus, base64url (the JWK `n`).
const RSA_N: &str = concat!(
    "vV7Ms_6Isuo4wZ1KJeZTFnlVv7W4ABIiO2ytvgMn0XFXBgPZ3BxiOxMIweU5QHozI8SVF_faSP-0ESwxcH14rLeaZg",
    "LaJHBSRvPmaCAm-NFykmxkMIP9xdR5PvEB1ez_lMNH5aHb2B0V03aXLwUuevOAb-uZMZ6yv8i3_gXO_pLQFz5vXJ_a",
    "n9auJMDNUiuGGRRZyXhoB-rjqj1ILqqwsjFr6IPbYBfCI6YHovZkBINnsJrc0UxZc_K-_8sOcyiBVnIwXb6mBcnQhx",
    "EVtLwZ_7UiIVzh6vTiSCwObLBAxQfKcBHC86Il8SIMgBktqSPGkrt6Th9pdbsHfv21SWmeBQ",
);
/// Its public key as SPKI PEM.
const RSA_PUBLIC_PEM: &str = "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAvV7Ms/6Isuo4wZ1KJeZT\nFnlVv7W4ABIiO2ytvgMn0XFXBgPZ3BxiOxMIweU5QHozI8SVF/faSP+0ESwxcH14\nrLeaZgLaJHBSRvPmaCAm+NFykmxkMIP9xdR5PvEB1ez/lMNH5aHb2B0V03aXLwUu\nevOAb+uZMZ6yv8i3/gXO/pLQFz5vXJ/an9auJMDNUiuGGRRZyXhoB+rjqj1ILqqw\nsjFr6IPbYBfCI6YHovZkBINnsJrc0UxZc/K+/8sOcyiBVnIwXb6mBcnQhxEVtLwZ\n/7UiIVzh6vTiSCwObLBAxQfKcBHC86Il8SIMgBktqSPGkrt6Th9pdbsHfv21SWme\nBQIDAQAB\n-----END PUBLIC KEY-----\n";

/// A signing key with its public JWK and its SPKI PEM.
struct TestKey {
    kid: String,
    alg: Algorithm,
    encoding: EncodingKey,
    jwk: Value,
    pem: String,
}

fn pem(label: &str, der: &[u8]) -> String {
    let body = STANDARD.encode(der);
    let lines: Vec<&str> = body
        .as_bytes()
        .chunks(64)
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect();
    format!(
        "-----BEGIN {label}-----\n{}\n-----END {label}-----\n",
        lines.join("\n")
    )
}

fn ec_key(kid: &str) -> TestKey {
    let rng = SystemRandom::new();
    let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng).unwrap();
    let pair =
        EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8.as_ref(), &rng).unwrap();
    let point = pair.public_key().as_ref().to_vec();
    // SPKI for id-ecPublicKey / P-256 is this fixed prefix followed by the uncompressed point.
    let mut spki = hex("3059301306072a8648ce3d020106082a8648ce3d030107034200");
    spki.extend_from_slice(&point);
    TestKey {
        kid: kid.into(),
        alg: Algorithm::ES256,
        encoding: EncodingKey::from_ec_der(pkcs8.as_ref()),
        jwk: json!({
            "kty": "EC", "crv": "P-256", "use": "sig", "alg": "ES256", "kid": kid,
            "x": URL_SAFE_NO_PAD.encode(&point[1..33]),
            "y": URL_SAFE_NO_PAD.encode(&point[33..65]),
        }),
        pem: pem("PUBLIC KEY", &spki),
    }
}

fn ed_key(kid: &str) -> TestKey {
    let pkcs8 = Ed25519KeyPair::generate_pkcs8(&SystemRandom::new()).unwrap();
    let pair = Ed25519KeyPair::from_pkcs8(pkcs8.as_ref()).unwrap();
    let public = pair.public_key().as_ref().to_vec();
    let mut spki = hex("302a300506032b6570032100");
    spki.extend_from_slice(&public);
    TestKey {
        kid: kid.into(),
        alg: Algorithm::EdDSA,
        encoding: EncodingKey::from_ed_der(pkcs8.as_ref()),
        jwk: json!({ "kty": "OKP", "crv": "Ed25519", "kid": kid, "x": URL_SAFE_NO_PAD.encode(&public) }),
        pem: pem("PUBLIC KEY", &spki),
    }
}

fn rsa_key(kid: &str) -> TestKey {
    TestKey {
        kid: kid.into(),
        alg: Algorithm::RS256,
        encoding: EncodingKey::from_rsa_der(&STANDARD.decode(RSA_PRIVATE_PKCS1).unwrap()),
        jwk: json!({ "kty": "RSA", "kid": kid, "n": RSA_N, "e": "AQAB" }),
        pem: RSA_PUBLIC_PEM.into(),
    }
}

fn hex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

/// Good claims: issued for [`ISSUER`] / [`AUDIENCE`], valid for an hour around [`NOW`].
fn claims() -> Value {
    json!({ "sub": "host-user-42", "iss": ISSUER, "aud": AUDIENCE, "iat": NOW, "exp": NOW + 3600 })
}

fn sign(key: &TestKey, claims: &Value) -> String {
    sign_as(key, key.alg, Some(&key.kid), claims)
}

fn sign_as(key: &TestKey, alg: Algorithm, kid: Option<&str>, claims: &Value) -> String {
    let mut header = Header::new(alg);
    header.kid = kid.map(Into::into);
    jsonwebtoken::encode(&header, claims, &key.encoding).unwrap()
}

/// A JWKS server on loopback whose key set the test can swap, counting fetches.
struct JwksServer {
    url: String,
    keys: Arc<Mutex<Vec<Value>>>,
    fetches: Arc<AtomicUsize>,
}

#[derive(Clone)]
struct Served {
    keys: Arc<Mutex<Vec<Value>>>,
    fetches: Arc<AtomicUsize>,
}

async fn jwks_server(keys: Vec<Value>) -> JwksServer {
    let served = Served {
        keys: Arc::new(Mutex::new(keys)),
        fetches: Arc::new(AtomicUsize::new(0)),
    };
    let router = Router::new()
        .route(
            "/.well-known/jwks.json",
            get(|State(s): State<Served>| async move {
                s.fetches.fetch_add(1, Ordering::SeqCst);
                axum::Json(json!({ "keys": *s.keys.lock().unwrap() }))
            }),
        )
        .route(
            "/broken",
            get(|| async { (axum::http::StatusCode::INTERNAL_SERVER_ERROR, "oops") }),
        )
        .with_state(served.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    JwksServer {
        url: format!("http://127.0.0.1:{port}/.well-known/jwks.json"),
        keys: served.keys,
        fetches: served.fetches,
    }
}

fn settings(url: &str) -> CustomAuthSettings {
    CustomAuthSettings {
        jwks_url: Some(url.into()),
        issuer: Some(ISSUER.into()),
        audience: Some(AUDIENCE.into()),
        ..CustomAuthSettings::default()
    }
}

fn cache() -> JwksCache {
    JwksCache::new(outbound_client().unwrap())
}

fn invalid(reason: InvalidReason) -> Result<String, CustomJwtError> {
    Err(CustomJwtError::Invalid { reason })
}

#[tokio::test]
async fn good_tokens_of_each_key_type_verify() {
    let (ec, ed, rsa) = (ec_key("ec-1"), ed_key("ed-1"), rsa_key("rsa-1"));
    let server = jwks_server(vec![ec.jwk.clone(), ed.jwk.clone(), rsa.jwk.clone()]).await;
    let cache = cache();
    for key in [&ec, &ed, &rsa] {
        let subject =
            verify_custom_jwt(&cache, &settings(&server.url), &sign(key, &claims()), NOW).await;
        assert_eq!(subject.as_deref(), Ok("host-user-42"), "{:?}", key.alg);
    }
    // RSA keys allow the PSS family too.
    let ps = sign_as(&rsa, Algorithm::PS256, Some("rsa-1"), &claims());
    assert_eq!(
        verify_custom_jwt(&cache, &settings(&server.url), &ps, NOW)
            .await
            .as_deref(),
        Ok("host-user-42")
    );
    assert_eq!(
        server.fetches.load(Ordering::SeqCst),
        1,
        "one fetch, then the cache"
    );
}

#[tokio::test]
async fn expired_and_not_yet_valid_tokens_are_refused_with_leeway() {
    let ec = ec_key("ec-1");
    let server = jwks_server(vec![ec.jwk.clone()]).await;
    let (cache, settings) = (cache(), settings(&server.url));
    let with = |patch: Value| {
        let mut c = claims();
        c.as_object_mut()
            .unwrap()
            .extend(patch.as_object().unwrap().clone());
        sign(&ec, &c)
    };
    let expired = with(json!({ "exp": NOW - 31 }));
    assert_eq!(
        verify_custom_jwt(&cache, &settings, &expired, NOW).await,
        invalid(InvalidReason::Expired)
    );
    let within_leeway = with(json!({ "exp": NOW - 20 }));
    assert!(
        verify_custom_jwt(&cache, &settings, &within_leeway, NOW)
            .await
            .is_ok()
    );
    let mut no_exp = claims();
    no_exp.as_object_mut().unwrap().remove("exp");
    assert_eq!(
        verify_custom_jwt(&cache, &settings, &sign(&ec, &no_exp), NOW).await,
        invalid(InvalidReason::MissingExpiry)
    );
    let future = with(json!({ "nbf": NOW + 120 }));
    assert_eq!(
        verify_custom_jwt(&cache, &settings, &future, NOW).await,
        invalid(InvalidReason::NotYetValid)
    );
    assert!(
        verify_custom_jwt(&cache, &settings, &with(json!({ "nbf": NOW + 10 })), NOW)
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn wrong_or_missing_issuer_and_audience_are_refused() {
    let ec = ec_key("ec-1");
    let server = jwks_server(vec![ec.jwk.clone()]).await;
    let (cache, settings) = (cache(), settings(&server.url));
    let mut c = claims();
    c["iss"] = json!("https://evil.example");
    assert_eq!(
        verify_custom_jwt(&cache, &settings, &sign(&ec, &c), NOW).await,
        invalid(InvalidReason::Issuer)
    );
    c = claims();
    c.as_object_mut().unwrap().remove("iss");
    assert_eq!(
        verify_custom_jwt(&cache, &settings, &sign(&ec, &c), NOW).await,
        invalid(InvalidReason::Issuer)
    );
    c = claims();
    c["aud"] = json!(["another-app"]);
    assert_eq!(
        verify_custom_jwt(&cache, &settings, &sign(&ec, &c), NOW).await,
        invalid(InvalidReason::Audience)
    );
    c = claims();
    c.as_object_mut().unwrap().remove("aud");
    assert_eq!(
        verify_custom_jwt(&cache, &settings, &sign(&ec, &c), NOW).await,
        invalid(InvalidReason::Audience)
    );
    // One of several audiences is enough; without configured iss/aud they are not checked.
    c = claims();
    c["aud"] = json!(["another-app", AUDIENCE]);
    assert!(
        verify_custom_jwt(&cache, &settings, &sign(&ec, &c), NOW)
            .await
            .is_ok()
    );
    c["iss"] = json!("https://anyone.example");
    let open = CustomAuthSettings {
        jwks_url: Some(server.url.clone()),
        ..CustomAuthSettings::default()
    };
    assert!(
        verify_custom_jwt(&cache, &open, &sign(&ec, &c), NOW)
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn a_signature_by_another_key_with_the_same_kid_is_refused() {
    let (ec, impostor) = (ec_key("ec-1"), ec_key("ec-1"));
    let server = jwks_server(vec![ec.jwk.clone()]).await;
    let token = sign(&impostor, &claims());
    assert_eq!(
        verify_custom_jwt(&cache(), &settings(&server.url), &token, NOW).await,
        invalid(InvalidReason::Signature)
    );
    // A tampered payload under the real signature, too.
    let good = sign(&ec, &claims());
    let parts: Vec<&str> = good.split('.').collect();
    let mut c = claims();
    c["sub"] = json!("admin");
    let forged = format!(
        "{}.{}.{}",
        parts[0],
        URL_SAFE_NO_PAD.encode(c.to_string()),
        parts[2]
    );
    assert_eq!(
        verify_custom_jwt(&cache(), &settings(&server.url), &forged, NOW).await,
        invalid(InvalidReason::Signature)
    );
}

#[tokio::test]
async fn alg_none_is_refused() {
    let ec = ec_key("ec-1");
    let server = jwks_server(vec![ec.jwk.clone()]).await;
    let payload = URL_SAFE_NO_PAD.encode(claims().to_string());
    for header in [
        r#"{"alg":"none"}"#,
        r#"{"alg":"none","kid":"ec-1"}"#,
        r#"{"alg":"None","typ":"JWT"}"#,
    ] {
        let token = format!("{}.{payload}.", URL_SAFE_NO_PAD.encode(header));
        assert!(token.starts_with("eyJhbGciOiJ"));
        assert_eq!(
            verify_custom_jwt(&cache(), &settings(&server.url), &token, NOW).await,
            invalid(InvalidReason::Algorithm),
            "{header}"
        );
    }
    assert_eq!(
        server.fetches.load(Ordering::SeqCst),
        0,
        "refused before any key was fetched"
    );
}

#[tokio::test]
async fn hs256_signed_with_the_public_key_is_refused() {
    // The classic algorithm confusion: the public key (PEM or JWK text) used as an HMAC secret.
    let ec = ec_key("ec-1");
    let server = jwks_server(vec![ec.jwk.clone()]).await;
    for secret in [ec.pem.clone(), ec.jwk.to_string()] {
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some("ec-1".into());
        let token = jsonwebtoken::encode(
            &header,
            &claims(),
            &EncodingKey::from_secret(secret.as_bytes()),
        )
        .unwrap();
        assert_eq!(
            verify_custom_jwt(&cache(), &settings(&server.url), &token, NOW).await,
            invalid(InvalidReason::Algorithm)
        );
        let pem_settings = CustomAuthSettings {
            public_key_pem: Some(ec.pem.clone()),
            ..CustomAuthSettings::default()
        };
        assert_eq!(
            verify_custom_jwt(&cache(), &pem_settings, &token, NOW).await,
            invalid(InvalidReason::Algorithm)
        );
    }
}

#[tokio::test]
async fn an_algorithm_that_does_not_fit_the_key_is_refused() {
    // An RSA signature presented under an EC key's kid: the key decides the algorithm.
    let (ec, rsa) = (ec_key("ec-1"), rsa_key("rsa-1"));
    let server = jwks_server(vec![ec.jwk.clone(), rsa.jwk.clone()]).await;
    let token = sign_as(&rsa, Algorithm::RS256, Some("ec-1"), &claims());
    assert_eq!(
        verify_custom_jwt(&cache(), &settings(&server.url), &token, NOW).await,
        invalid(InvalidReason::Algorithm)
    );
}

#[tokio::test]
async fn an_unknown_kid_refetches_and_finds_the_rotated_key() {
    let (old, new) = (ec_key("ec-1"), ec_key("ec-2"));
    let server = jwks_server(vec![old.jwk.clone()]).await;
    let token = sign(&new, &claims());
    // No refetch interval, so the second attempt may refetch at once.
    let eager = JwksCache::with_timing(
        outbound_client().unwrap(),
        Duration::from_secs(300),
        Duration::ZERO,
    );
    assert_eq!(
        verify_custom_jwt(&eager, &settings(&server.url), &token, NOW).await,
        invalid(InvalidReason::UnknownKey)
    );
    assert_eq!(server.fetches.load(Ordering::SeqCst), 1);
    server.keys.lock().unwrap().push(new.jwk.clone());
    assert_eq!(
        verify_custom_jwt(&eager, &settings(&server.url), &token, NOW)
            .await
            .as_deref(),
        Ok("host-user-42")
    );
    assert_eq!(server.fetches.load(Ordering::SeqCst), 2);
    // The old key still verifies from the cache.
    assert!(
        verify_custom_jwt(&eager, &settings(&server.url), &sign(&old, &claims()), NOW)
            .await
            .is_ok()
    );
    assert_eq!(server.fetches.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn unknown_kids_refetch_at_most_once_per_interval() {
    let ec = ec_key("ec-1");
    let server = jwks_server(vec![ec.jwk.clone()]).await;
    let cache = cache();
    assert!(
        verify_custom_jwt(&cache, &settings(&server.url), &sign(&ec, &claims()), NOW)
            .await
            .is_ok()
    );
    for n in 0..5 {
        let stranger = ec_key(&format!("unknown-{n}"));
        assert_eq!(
            verify_custom_jwt(
                &cache,
                &settings(&server.url),
                &sign(&stranger, &claims()),
                NOW
            )
            .await,
            invalid(InvalidReason::UnknownKey)
        );
    }
    assert_eq!(
        server.fetches.load(Ordering::SeqCst),
        1,
        "within 30 s of the last fetch: no refetch"
    );
}

#[tokio::test]
async fn concurrent_first_requests_share_one_fetch() {
    let ec = ec_key("ec-1");
    let server = jwks_server(vec![ec.jwk.clone()]).await;
    let cache = Arc::new(cache());
    let token = sign(&ec, &claims());
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let (cache, token, settings) = (cache.clone(), token.clone(), settings(&server.url));
            tokio::spawn(async move { verify_custom_jwt(&cache, &settings, &token, NOW).await })
        })
        .collect();
    for task in tasks {
        assert_eq!(task.await.unwrap().as_deref(), Ok("host-user-42"));
    }
    assert_eq!(server.fetches.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_configured_pem_key_is_used_instead_of_a_jwks() {
    let cache = cache();
    for key in [rsa_key("ignored"), ec_key("ignored"), ed_key("ignored")] {
        let settings = CustomAuthSettings {
            public_key_pem: Some(key.pem.clone()),
            issuer: Some(ISSUER.into()),
            ..CustomAuthSettings::default()
        };
        // PEM keys have no kid: tokens with or without one verify.
        for kid in [None, Some("whatever")] {
            let token = sign_as(&key, key.alg, kid, &claims());
            assert_eq!(
                verify_custom_jwt(&cache, &settings, &token, NOW)
                    .await
                    .as_deref(),
                Ok("host-user-42"),
                "{:?} {kid:?}",
                key.alg
            );
        }
        let other = ec_key("x");
        let expected = if key.alg == Algorithm::ES256 {
            InvalidReason::Signature
        } else {
            InvalidReason::Algorithm
        };
        assert_eq!(
            verify_custom_jwt(&cache, &settings, &sign(&other, &claims()), NOW).await,
            invalid(expected),
            "{:?}",
            key.alg
        );
    }
    let garbage = CustomAuthSettings {
        public_key_pem: Some("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n".into()),
        ..CustomAuthSettings::default()
    };
    let token = sign(&ec_key("ec-1"), &claims());
    let error = verify_custom_jwt(&cache, &garbage, &token, NOW)
        .await
        .unwrap_err();
    assert!(
        matches!(error, CustomJwtError::KeyUnavailable(_)),
        "{error:?}"
    );
}

#[tokio::test]
async fn the_subject_comes_from_the_configured_claim() {
    let ec = ec_key("ec-1");
    let server = jwks_server(vec![ec.jwk.clone()]).await;
    let cache = cache();
    let mut c = claims();
    c.as_object_mut().unwrap().remove("sub");
    assert_eq!(
        verify_custom_jwt(&cache, &settings(&server.url), &sign(&ec, &c), NOW).await,
        invalid(InvalidReason::Subject)
    );
    c["sub"] = json!("x".repeat(257));
    assert_eq!(
        verify_custom_jwt(&cache, &settings(&server.url), &sign(&ec, &c), NOW).await,
        invalid(InvalidReason::Subject)
    );
    c["user_id"] = json!(12345);
    c["email"] = json!("someone@host.example");
    let by_id = CustomAuthSettings {
        subject_claim: "user_id".into(),
        ..settings(&server.url)
    };
    assert_eq!(
        verify_custom_jwt(&cache, &by_id, &sign(&ec, &c), NOW)
            .await
            .as_deref(),
        Ok("12345")
    );
    let by_email = CustomAuthSettings {
        subject_claim: "email".into(),
        ..settings(&server.url)
    };
    assert_eq!(
        verify_custom_jwt(&cache, &by_email, &sign(&ec, &c), NOW)
            .await
            .as_deref(),
        Ok("someone@host.example")
    );
}

#[tokio::test]
async fn missing_keys_and_settings_are_not_the_tokens_fault() {
    let ec = ec_key("ec-1");
    let server = jwks_server(vec![ec.jwk.clone()]).await;
    let token = sign(&ec, &claims());
    let cache = cache();
    let broken = settings(&server.url.replace("/.well-known/jwks.json", "/broken"));
    let error = verify_custom_jwt(&cache, &broken, &token, NOW)
        .await
        .unwrap_err();
    assert_eq!(
        error,
        CustomJwtError::KeyUnavailable("JWKS answered HTTP 500".into())
    );
    let unreachable = settings("http://127.0.0.1:9/jwks.json");
    assert!(matches!(
        verify_custom_jwt(&cache, &unreachable, &token, NOW).await,
        Err(CustomJwtError::KeyUnavailable(_))
    ));
    let plain_http = settings("http://auth.host.example/jwks.json");
    assert!(matches!(
        verify_custom_jwt(&cache, &plain_http, &token, NOW).await,
        Err(CustomJwtError::KeyUnavailable(_))
    ));
    // Only symmetric keys in the set: nothing usable.
    server.keys.lock().unwrap().clear();
    server
        .keys
        .lock()
        .unwrap()
        .push(json!({ "kty": "oct", "kid": "ec-1", "k": "c2VjcmV0" }));
    let error = verify_custom_jwt(
        &JwksCache::new(outbound_client().unwrap()),
        &settings(&server.url),
        &token,
        NOW,
    )
    .await
    .unwrap_err();
    assert_eq!(
        error,
        CustomJwtError::KeyUnavailable("JWKS has no usable signing key".into())
    );
    assert_eq!(
        verify_custom_jwt(&cache, &CustomAuthSettings::default(), &token, NOW).await,
        Err(CustomJwtError::NotConfigured)
    );
}
