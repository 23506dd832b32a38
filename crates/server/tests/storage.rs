//! Storage behaviour on both backends: migrations, constraint mapping, persisted keys and secrets.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::Arc;

use axum::http::StatusCode;
use common::{Backend, TestApp, unique_email};
use serde_json::json;
use symbolon_server::AppState;
use symbolon_server::clock::Clock;
use symbolon_server::config::Redacted;
use symbolon_server::db::users::UserRecord;
use symbolon_server::db::{Db, DbError};
use symbolon_server::mail::SmtpMailer;

backend_tests!(
    migrations_are_idempotent,
    duplicate_accounts_map_to_conflict,
    keys_and_code_secret_survive_a_restart,
    signing_keys_are_sealed_with_a_key_encryption_key,
);

async fn migrations_are_idempotent(backend: Backend) {
    let t = TestApp::start(backend).await;
    t.state
        .db
        .migrate()
        .await
        .expect("second migrate is a no-op");
}

async fn duplicate_accounts_map_to_conflict(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let user = |id: &str| UserRecord {
        id: id.into(),
        app_id: t.app_id.clone(),
        created_at: 1,
        has_accepted_terms: false,
        is_guest: false,
    };
    t.state
        .db
        .create_user_with_account(&user("did:privy:a"), "acc-a", "email", &email)
        .await
        .unwrap();
    let second = t
        .state
        .db
        .create_user_with_account(&user("did:privy:b"), "acc-b", "email", &email)
        .await;
    assert!(matches!(second, Err(DbError::Conflict)), "{second:?}");
    // The losing transaction left no half-created user behind.
    assert!(
        t.state
            .db
            .find_user(&t.app_id, "did:privy:b")
            .await
            .unwrap()
            .is_none()
    );
}

async fn keys_and_code_secret_survive_a_restart(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let code = t.send_code(&email).await;
    // A second server over the same database: same signing key, and the code sent by the first verifies.
    let config = (*t.state.config).clone();
    let db = Db::connect(&config.database_url).await.unwrap();
    let mailer = Arc::new(SmtpMailer::new(&config.smtp).unwrap());
    let restarted = AppState::new(config, db, mailer, Clock::system())
        .await
        .unwrap();
    assert_eq!(
        restarted.tokens.keys().active_kid(),
        t.state.tokens.keys().active_kid()
    );
    let router = symbolon_server::app(restarted);
    let reply = t
        .post(
            "/api/v1/passwordless/authenticate",
            json!({ "email": email, "code": code }),
        )
        .via(&router)
        .send()
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

async fn signing_keys_are_sealed_with_a_key_encryption_key(backend: Backend) {
    let kek = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
    let t = TestApp::start_with(backend, |c| {
        c.key_encryption_key = Some(Redacted(kek.into()))
    })
    .await;
    let stored = t.state.db.signing_keys().await.unwrap();
    assert!(
        stored[0].private_key.starts_with("aesgcm:"),
        "key stored unsealed"
    );
    // Tokens still verify, so the sealed key signs.
    let session = t.login(&unique_email()).await;
    let me = t
        .get("/api/v1/users/me")
        .bearer(session["token"].as_str().unwrap())
        .send()
        .await;
    assert_eq!(me.status, StatusCode::OK);
    // A restart without the key-encryption key refuses to start rather than minting a new key.
    let mut config = (*t.state.config).clone();
    config.key_encryption_key = None;
    let db = Db::connect(&config.database_url).await.unwrap();
    let mailer = Arc::new(SmtpMailer::new(&config.smtp).unwrap());
    assert!(
        AppState::new(config, db, mailer, Clock::system())
            .await
            .is_err()
    );
}
