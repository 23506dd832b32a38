//! Custom auth over HTTP: the host's JWT signs its user in (and up), links to a signed-in user,
//! and every bad token is `invalid_credentials` (the verifier's own tests cover each reason and
//! the JWKS server; here the app is configured with the host's PEM key).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use common::{Backend, TestApp, unique_email};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use ring::rand::SystemRandom;
use ring::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair};
use serde_json::{Value, json};
use symbolon_server::app_settings::AppSettings;
use symbolon_server::jwt_verifier::CustomAuthSettings;

const AUTH: &str = "/api/v1/custom_jwt_account/authenticate";
const LINK: &str = "/api/v1/custom_jwt_account/link";
const ISSUER: &str = "https://auth.host.example";
const AUDIENCE: &str = "symbolon-host";

backend_tests!(
    the_hosts_token_signs_its_user_up_then_in,
    bad_tokens_are_invalid_credentials,
    a_custom_account_links_to_a_signed_in_user,
    apps_without_custom_auth_refuse_tokens,
    only_a_newly_issued_token_signs_in_freshly,
);

/// A host's P-256 signing key and its public key in PEM.
struct HostKey {
    encoding: EncodingKey,
    pem: String,
}

fn host_key() -> HostKey {
    let rng = SystemRandom::new();
    let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng).unwrap();
    let pair =
        EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8.as_ref(), &rng).unwrap();
    // SPKI for id-ecPublicKey / P-256: this fixed prefix, then the uncompressed point.
    let mut spki = vec![
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08,
        0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ];
    spki.extend_from_slice(pair.public_key().as_ref());
    HostKey {
        encoding: EncodingKey::from_ec_der(pkcs8.as_ref()),
        pem: format!(
            "-----BEGIN PUBLIC KEY-----\n{}\n-----END PUBLIC KEY-----\n",
            STANDARD.encode(&spki)
        ),
    }
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

fn claims(sub: &str) -> Value {
    json!({ "sub": sub, "iss": ISSUER, "aud": AUDIENCE, "iat": now(), "exp": now() + 600 })
}

fn sign(key: &HostKey, claims: &Value) -> String {
    jsonwebtoken::encode(&Header::new(Algorithm::ES256), claims, &key.encoding).unwrap()
}

async fn start(backend: Backend, key: &HostKey) -> TestApp {
    let t = TestApp::start(backend).await;
    t.set_settings(AppSettings {
        custom_auth: Some(CustomAuthSettings {
            public_key_pem: Some(key.pem.clone()),
            issuer: Some(ISSUER.into()),
            audience: Some(AUDIENCE.into()),
            ..CustomAuthSettings::default()
        }),
        ..AppSettings::default()
    })
    .await;
    t
}

async fn the_hosts_token_signs_its_user_up_then_in(backend: Backend) {
    let key = host_key();
    let t = start(backend, &key).await;
    let token = sign(&key, &claims("host-user-1"));
    let first = t.post(AUTH, json!({ "token": token })).send().await;
    assert_eq!(first.status, 200, "{}", first.text);
    assert_eq!(first.body["is_new_user"], true);
    let account = &first.body["user"]["linked_accounts"][0];
    assert_eq!(account["type"], "custom_auth");
    assert_eq!(account["custom_user_id"], "host-user-1");
    let config = t.get(&format!("/api/v1/apps/{}", t.app_id)).send().await;
    assert_eq!(config.body["custom_jwt_auth"], true);
    // The same user again, with a fresh token; no-signup mode finds them.
    let again = t
        .post(
            AUTH,
            json!({ "token": sign(&key, &claims("host-user-1")), "mode": "no-signup" }),
        )
        .send()
        .await;
    assert_eq!(again.body["user"]["id"], first.body["user"]["id"]);
    assert_eq!(again.body["is_new_user"], false);
}

async fn bad_tokens_are_invalid_credentials(backend: Backend) {
    let key = host_key();
    let t = start(backend, &key).await;
    let other = host_key();
    let mut expired = claims("u");
    expired["exp"] = json!(now() - 3600);
    let mut wrong_issuer = claims("u");
    wrong_issuer["iss"] = json!("https://evil.example");
    let mut wrong_audience = claims("u");
    wrong_audience["aud"] = json!("another-app");
    let none = format!(
        "{}.{}.",
        URL_SAFE_NO_PAD.encode(r#"{"alg":"none","typ":"JWT"}"#),
        URL_SAFE_NO_PAD.encode(claims("u").to_string())
    );
    for (name, token) in [
        ("expired", sign(&key, &expired)),
        ("wrong issuer", sign(&key, &wrong_issuer)),
        ("wrong audience", sign(&key, &wrong_audience)),
        ("bad signature", sign(&other, &claims("u"))),
        ("alg none", none),
        ("garbage", "not.a.jwt".into()),
    ] {
        let reply = t.post(AUTH, json!({ "token": token })).send().await;
        assert_eq!(reply.status, 401, "{name}: {}", reply.text);
        reply.assert_error(401, "invalid_credentials");
    }
}

async fn a_custom_account_links_to_a_signed_in_user(backend: Backend) {
    let key = host_key();
    let t = start(backend, &key).await;
    let session = t.login(&unique_email()).await;
    let bearer = session["token"].as_str().unwrap();
    let reply = t
        .post(LINK, json!({ "token": sign(&key, &claims("host-user-2")) }))
        .bearer(bearer)
        .send()
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    let mut types: Vec<&str> = reply.body["linked_accounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["type"].as_str().unwrap())
        .collect();
    types.sort_unstable();
    assert_eq!(types, vec!["custom_auth", "email"]);
    // Custom accounts never move between users (spec §5): another user gets a plain refusal.
    let other = t.login(&unique_email()).await;
    t.post(LINK, json!({ "token": sign(&key, &claims("host-user-2")) }))
        .bearer(other["token"].as_str().unwrap())
        .send()
        .await
        .assert_error(422, "linked_to_another_user");
}

async fn apps_without_custom_auth_refuse_tokens(backend: Backend) {
    let key = host_key();
    let t = TestApp::start(backend).await;
    t.post(AUTH, json!({ "token": sign(&key, &claims("u")) }))
        .send()
        .await
        .assert_error(403, "disallowed_login_method");
}

/// A host's token replays until it expires: it signs in, but its session may change the account (or
/// register a wallet, or get the recovery share) only when the token was issued within the
/// account-change window, or when it creates the user.
async fn only_a_newly_issued_token_signs_in_freshly(backend: Backend) {
    let key = host_key();
    let t = start(backend, &key).await;
    let with = |iat: Option<i64>| {
        let mut claims = claims("host-user-fresh");
        match iat {
            Some(iat) => claims["iat"] = json!(iat),
            None => {
                claims.as_object_mut().unwrap().remove("iat");
            }
        }
        claims["exp"] = json!(now() + 7200);
        sign(&key, &claims)
    };
    // An account change the window allows answers "not found" (nothing to unlink); outside it, 403.
    let unlink = |session: &Value| {
        let token = session["token"].as_str().unwrap().to_string();
        t.post(
            "/api/v1/passwordless/unlink",
            json!({ "address": "nobody@example.com" }),
        )
        .bearer(&token)
        .send()
    };
    let signed_up = t.post(AUTH, json!({ "token": with(None) })).send().await;
    assert_eq!(signed_up.status, 200, "{}", signed_up.text);
    unlink(&signed_up.body)
        .await
        .assert_error(404, "linked_account_not_found");

    for (stale, what) in [
        (None, "no iat"),
        (Some(now() - 3600), "issued an hour ago"),
        (Some(now() + 3600), "dated ahead"),
    ] {
        let again = t.post(AUTH, json!({ "token": with(stale) })).send().await;
        assert_eq!(again.status, 200, "{what}: {}", again.text);
        assert_eq!(again.body["user"]["id"], signed_up.body["user"]["id"]);
        unlink(&again.body)
            .await
            .assert_error(403, "missing_or_invalid_mfa");
    }
    let issued_now = t
        .post(AUTH, json!({ "token": with(Some(now())) }))
        .send()
        .await;
    assert_eq!(issued_now.status, 200, "{}", issued_now.text);
    unlink(&issued_now.body)
        .await
        .assert_error(404, "linked_account_not_found");
}
