//! Tokens, refresh rotation, reuse detection, logout and the signed-in calls.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::collections::HashSet;
use std::sync::Arc;

use axum::http::StatusCode;
use common::{Backend, TestApp, unique_email};
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{
    Algorithm, DecodingKey, EncodingKey, Header, Validation, decode, decode_header, encode,
};
use serde_json::{Value, json};
use symbolon_protocol::session::{AccessTokenClaims, IdentityTokenClaims};
use symbolon_server::config::DEFAULT_TOKEN_ISSUER;
use symbolon_server::keys::sealing::SealingKey;
use tokio::task::JoinSet;

const REFRESH: &str = "/api/v1/sessions";
const LOGOUT: &str = "/api/v1/sessions/logout";
const ME: &str = "/api/v1/users/me";

backend_tests!(
    tokens_verify_against_the_published_jwks,
    identity_token_carries_linked_accounts,
    users_me_needs_a_valid_token,
    forged_tokens_are_refused,
    refresh_rotates_the_refresh_token,
    reused_refresh_token_revokes_the_session,
    two_tabs_refreshing_at_once_share_one_chain,
    concurrent_refreshes_of_one_token_make_one_chain,
    a_replay_inside_the_window_is_caught_on_the_next_rotation,
    unknown_refresh_token_is_refused,
    logout_revokes_the_session,
    logout_with_only_a_bearer_token_revokes,
    accept_terms_is_recorded,
);

fn token(session: &Value, field: &str) -> String {
    session[field]
        .as_str()
        .unwrap_or_else(|| panic!("{field} missing"))
        .to_string()
}

async fn jwks(t: &TestApp) -> JwkSet {
    let reply = t
        .get(&format!("/api/v1/apps/{}/jwks.json", t.app_id))
        .without("privy-app-id")
        .without("origin")
        .send()
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    serde_json::from_value(reply.body).unwrap()
}

fn verify<T: serde::de::DeserializeOwned>(keys: &JwkSet, jwt: &str, aud: &str) -> T {
    let kid = decode_header(jwt).unwrap().kid.expect("kid header");
    let key = DecodingKey::from_jwk(keys.find(&kid).expect("kid in JWKS")).unwrap();
    let mut validation = Validation::new(Algorithm::ES256);
    validation.set_audience(&[aud]);
    validation.set_issuer(&[DEFAULT_TOKEN_ISSUER]);
    decode::<T>(jwt, &key, &validation).unwrap().claims
}

async fn tokens_verify_against_the_published_jwks(backend: Backend) {
    let t = TestApp::start(backend).await;
    let session = t.login(&unique_email()).await;
    let keys = jwks(&t).await;
    let claims: AccessTokenClaims = verify(&keys, &token(&session, "token"), &t.app_id);
    assert_eq!(claims.sub, session["user"]["id"].as_str().unwrap());
    assert_eq!(claims.aud, t.app_id);
    // The issuer the spec's server SDKs require (`SYMBOLON_TOKEN_ISSUER`), not our URL.
    assert_eq!(claims.iss, "privy.io");
    assert_eq!(claims.exp - claims.iat, 3600);
    assert_eq!(claims.sid.len(), 25);
}

async fn identity_token_carries_linked_accounts(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let session = t.login(&email).await;
    let claims: IdentityTokenClaims = verify(
        &jwks(&t).await,
        &token(&session, "identity_token"),
        &t.app_id,
    );
    assert_eq!(claims.sub, session["user"]["id"].as_str().unwrap());
    let accounts: Value = serde_json::from_str(&claims.linked_accounts).unwrap();
    assert_eq!(accounts[0]["type"], "email");
    assert_eq!(accounts[0]["address"], email.as_str());
    // The compact names the spec's server SDKs read.
    assert_eq!(accounts[0]["lv"], accounts[0]["latest_verified_at"]);
    assert!(accounts[0]["lv"].as_i64().is_some_and(|lv| lv > 0));
    assert_eq!(
        claims.cr,
        session["user"]["created_at"].as_i64().unwrap().to_string()
    );
    assert_eq!(claims.guest, "f");
}

async fn users_me_needs_a_valid_token(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let session = t.login(&email).await;
    let access = token(&session, "token");
    let me = t.get(ME).bearer(&access).send().await;
    assert_eq!(me.status, StatusCode::OK, "{}", me.text);
    assert_eq!(me.body["user"]["id"], session["user"]["id"]);
    assert!(me.body["identity_token"].as_str().is_some());

    t.get(ME)
        .send()
        .await
        .assert_error(401, "missing_or_invalid_token");
    t.get(ME)
        .bearer("not.a.jwt")
        .send()
        .await
        .assert_error(401, "missing_or_invalid_token");
    // The same token presented for another app (wrong audience).
    let other = t.create_app(false).await;
    t.get(ME)
        .bearer(&access)
        .header("privy-app-id", &other)
        .send()
        .await
        .assert_error(401, "missing_or_invalid_token");
    // Expired.
    t.state.clock.advance(3601);
    t.get(ME)
        .bearer(&access)
        .send()
        .await
        .assert_error(401, "missing_or_invalid_token");
}

async fn forged_tokens_are_refused(backend: Backend) {
    let t = TestApp::start(backend).await;
    let session = t.login(&unique_email()).await;
    let genuine: AccessTokenClaims = verify(&jwks(&t).await, &token(&session, "token"), &t.app_id);
    let keys = t.state.tokens.keys();
    let server_key = server_signing_key(&t).await;
    let sign = |claims: &AccessTokenClaims, kid: &str| {
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(kid.into());
        encode(&header, claims, &server_key).unwrap()
    };
    // Control: re-signing the genuine claims is accepted, so the refusals below are about the change.
    let control = t
        .get(ME)
        .bearer(&sign(&genuine, keys.active_kid()))
        .send()
        .await;
    assert_eq!(control.status, StatusCode::OK);
    let kid = keys.active_kid();
    let access = token(&session, "token");
    let parts: Vec<&str> = access.split('.').collect();
    let forged = [
        (
            "wrong issuer",
            sign(
                &AccessTokenClaims {
                    iss: "https://elsewhere.example".into(),
                    ..genuine.clone()
                },
                kid,
            ),
        ),
        (
            "wrong audience",
            sign(
                &AccessTokenClaims {
                    aud: "y".repeat(25),
                    ..genuine.clone()
                },
                kid,
            ),
        ),
        (
            "unknown session",
            sign(
                &AccessTokenClaims {
                    sid: "s".repeat(25),
                    ..genuine.clone()
                },
                kid,
            ),
        ),
        ("unknown key id", sign(&genuine, "no-such-kid")),
        (
            "issued in the future",
            sign(
                &AccessTokenClaims {
                    iat: genuine.iat + 600,
                    exp: genuine.exp + 600,
                    ..genuine.clone()
                },
                kid,
            ),
        ),
        (
            "lifetime longer than the server issues",
            sign(
                &AccessTokenClaims {
                    exp: genuine.iat + 86_400 * 365,
                    ..genuine.clone()
                },
                kid,
            ),
        ),
        ("not valid yet", sign_with_nbf(&server_key, &genuine, kid)),
        // A tampered payload breaks the signature.
        (
            "tampered payload",
            format!("{}.{}x.{}", parts[0], parts[1], parts[2]),
        ),
    ];
    for (what, forged_token) in forged {
        eprintln!("forged token: {what}");
        t.get(ME)
            .bearer(&forged_token)
            .send()
            .await
            .assert_error(401, "missing_or_invalid_token");
    }
}

/// The server's own signing key, opened with its sealing key (what only the operator holds):
/// lets a test sign claims the server would never issue.
async fn server_signing_key(t: &TestApp) -> EncodingKey {
    let sealer = SealingKey::load(&t.state.config).unwrap().sealer();
    let kid = t.state.tokens.keys().active_kid().to_string();
    let row = t
        .state
        .db
        .signing_keys()
        .await
        .unwrap()
        .into_iter()
        .find(|row| row.kid == kid)
        .unwrap();
    EncodingKey::from_ec_der(&sealer.open(&kid, &row.private_key).unwrap())
}

fn sign_with_nbf(key: &EncodingKey, genuine: &AccessTokenClaims, kid: &str) -> String {
    let mut claims = serde_json::to_value(genuine).unwrap();
    claims["nbf"] = json!(genuine.iat + 600);
    let mut header = Header::new(Algorithm::ES256);
    header.kid = Some(kid.into());
    encode(&header, &claims, key).unwrap()
}

async fn refresh_rotates_the_refresh_token(backend: Backend) {
    let t = TestApp::start(backend).await;
    let session = t.login(&unique_email()).await;
    let first = token(&session, "refresh_token");
    // An expired access token in Authorization does not stop a refresh.
    t.state.clock.advance(4000);
    let reply = t
        .post(REFRESH, json!({ "refresh_token": first }))
        .bearer(&token(&session, "token"))
        .send()
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["session_update_action"], "set");
    assert_eq!(reply.body["is_new_user"], false);
    assert_eq!(reply.body["user"]["id"], session["user"]["id"]);
    let second = token(&reply.body, "refresh_token");
    assert_ne!(first, second);
    assert!(
        reply
            .header("set-cookie")
            .unwrap()
            .starts_with("privy-session=t;")
    );
    let me = t.get(ME).bearer(&token(&reply.body, "token")).send().await;
    assert_eq!(me.status, StatusCode::OK);
    let third = t
        .post(REFRESH, json!({ "refresh_token": second }))
        .send()
        .await;
    assert_eq!(third.status, StatusCode::OK);
}

async fn reused_refresh_token_revokes_the_session(backend: Backend) {
    let t = TestApp::start(backend).await;
    let session = t.login(&unique_email()).await;
    let first = token(&session, "refresh_token");
    let rotated = t
        .post(REFRESH, json!({ "refresh_token": first }))
        .send()
        .await;
    let second = token(&rotated.body, "refresh_token");
    let access = token(&rotated.body, "token");
    t.state.clock.advance(11);
    t.post(REFRESH, json!({ "refresh_token": first }))
        .send()
        .await
        .assert_error(401, "missing_or_invalid_token");
    // The whole session is gone: its current refresh token and access token too.
    t.post(REFRESH, json!({ "refresh_token": second }))
        .send()
        .await
        .assert_error(401, "missing_or_invalid_token");
    t.get(ME)
        .bearer(&access)
        .send()
        .await
        .assert_error(401, "missing_or_invalid_token");
}

async fn two_tabs_refreshing_at_once_share_one_chain(backend: Backend) {
    let t = TestApp::start(backend).await;
    let session = t.login(&unique_email()).await;
    let shared = token(&session, "refresh_token");
    let (a, b) = tokio::join!(
        t.post(REFRESH, json!({ "refresh_token": shared })).send(),
        t.post(REFRESH, json!({ "refresh_token": shared })).send(),
    );
    assert_eq!(
        (a.status, b.status),
        (StatusCode::OK, StatusCode::OK),
        "{} / {}",
        a.text,
        b.text
    );
    let child = token(&a.body, "refresh_token");
    assert_eq!(token(&b.body, "refresh_token"), child, "one child, not two");
    // A late tab inside the grace window gets that same child.
    t.state.clock.advance(9);
    let late = t
        .post(REFRESH, json!({ "refresh_token": shared }))
        .send()
        .await;
    assert_eq!(late.status, StatusCode::OK, "{}", late.text);
    assert_eq!(token(&late.body, "refresh_token"), child);
    // Well after the window the chain continues from the child.
    t.state.clock.advance(60);
    let next = t
        .post(REFRESH, json!({ "refresh_token": child }))
        .send()
        .await;
    assert_eq!(next.status, StatusCode::OK, "{}", next.text);
}

async fn concurrent_refreshes_of_one_token_make_one_chain(backend: Backend) {
    let t = Arc::new(TestApp::start(backend).await);
    let session = t.login(&unique_email()).await;
    let shared = token(&session, "refresh_token");
    let mut tasks = JoinSet::new();
    for _ in 0..50 {
        let (t, shared) = (Arc::clone(&t), shared.clone());
        tasks.spawn(async move {
            t.post(REFRESH, json!({ "refresh_token": shared }))
                .send()
                .await
        });
    }
    let replies = tasks.join_all().await;
    let children: HashSet<String> = replies
        .iter()
        .map(|reply| {
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
            token(&reply.body, "refresh_token")
        })
        .collect();
    assert_eq!(
        children.len(),
        1,
        "50 refreshes made {} chains",
        children.len()
    );
    let live: Vec<(String,)> = sqlx::query_as(
        "SELECT t.token_hash FROM refresh_tokens t JOIN sessions s ON s.id = t.session_id
         WHERE s.user_id = $1 AND t.rotated_at IS NULL",
    )
    .bind(session["user"]["id"].as_str().unwrap())
    .fetch_all(t.state.db.pool())
    .await
    .unwrap();
    assert_eq!(live.len(), 1, "live refresh tokens: {live:?}");
}

async fn a_replay_inside_the_window_is_caught_on_the_next_rotation(backend: Backend) {
    let t = TestApp::start(backend).await;
    let session = t.login(&unique_email()).await;
    let stolen = token(&session, "refresh_token");
    // The user refreshes; the thief replays the old token 5 s later and gets the same child.
    let user = t
        .post(REFRESH, json!({ "refresh_token": stolen }))
        .send()
        .await;
    t.state.clock.advance(5);
    let thief = t
        .post(REFRESH, json!({ "refresh_token": stolen }))
        .send()
        .await;
    assert_eq!(thief.status, StatusCode::OK, "{}", thief.text);
    let child = token(&user.body, "refresh_token");
    assert_eq!(token(&thief.body, "refresh_token"), child);
    // The user's tab rotates the child; the thief's later use of it is a reuse.
    t.state.clock.advance(30);
    let user_next = t
        .post(REFRESH, json!({ "refresh_token": child }))
        .send()
        .await;
    assert_eq!(user_next.status, StatusCode::OK);
    t.state.clock.advance(30);
    t.post(REFRESH, json!({ "refresh_token": child }))
        .send()
        .await
        .assert_error(401, "missing_or_invalid_token");
    // The session is revoked for both: detected, not a silent second chain.
    t.post(
        REFRESH,
        json!({ "refresh_token": token(&user_next.body, "refresh_token") }),
    )
    .send()
    .await
    .assert_error(401, "missing_or_invalid_token");
}

async fn unknown_refresh_token_is_refused(backend: Backend) {
    let t = TestApp::start(backend).await;
    t.post(REFRESH, json!({ "refresh_token": "bogus" }))
        .send()
        .await
        .assert_error(401, "missing_or_invalid_token");
    // A real token for another app is refused too.
    let session = t.login(&unique_email()).await;
    let other = t.create_app(false).await;
    t.post(
        REFRESH,
        json!({ "refresh_token": token(&session, "refresh_token") }),
    )
    .header("privy-app-id", &other)
    .send()
    .await
    .assert_error(401, "missing_or_invalid_token");
}

async fn logout_revokes_the_session(backend: Backend) {
    let t = TestApp::start(backend).await;
    let session = t.login(&unique_email()).await;
    let reply = t
        .post(
            LOGOUT,
            json!({ "refresh_token": token(&session, "refresh_token") }),
        )
        .send()
        .await;
    assert_eq!(
        (reply.status, reply.body.clone()),
        (StatusCode::OK, json!({ "success": true }))
    );
    let cookie = reply.header("set-cookie").unwrap();
    assert!(
        cookie.starts_with("privy-session=;") && cookie.contains("Max-Age=0"),
        "{cookie}"
    );
    t.post(
        REFRESH,
        json!({ "refresh_token": token(&session, "refresh_token") }),
    )
    .send()
    .await
    .assert_error(401, "missing_or_invalid_token");
    t.get(ME)
        .bearer(&token(&session, "token"))
        .send()
        .await
        .assert_error(401, "missing_or_invalid_token");
    // Logging out again is harmless.
    let again = t
        .post(
            LOGOUT,
            json!({ "refresh_token": token(&session, "refresh_token") }),
        )
        .send()
        .await;
    assert_eq!(again.status, StatusCode::OK);
}

async fn logout_with_only_a_bearer_token_revokes(backend: Backend) {
    let t = TestApp::start(backend).await;
    let session = t.login(&unique_email()).await;
    let access = token(&session, "token");
    let reply = t.post(LOGOUT, json!({})).bearer(&access).send().await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    t.get(ME)
        .bearer(&access)
        .send()
        .await
        .assert_error(401, "missing_or_invalid_token");
    t.post(
        REFRESH,
        json!({ "refresh_token": token(&session, "refresh_token") }),
    )
    .send()
    .await
    .assert_error(401, "missing_or_invalid_token");
}

async fn accept_terms_is_recorded(backend: Backend) {
    let t = TestApp::start(backend).await;
    let session = t.login(&unique_email()).await;
    let access = token(&session, "token");
    t.post("/api/v1/users/me/accept_terms", json!({}))
        .send()
        .await
        .assert_error(401, "missing_or_invalid_token");
    let reply = t
        .post("/api/v1/users/me/accept_terms", json!({}))
        .bearer(&access)
        .send()
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["has_accepted_terms"], true);
    let me = t.get(ME).bearer(&access).send().await;
    assert_eq!(me.body["user"]["has_accepted_terms"], true);
}
