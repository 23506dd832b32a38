//! Storage behaviour on both backends: migrations, constraint mapping, persisted keys and secrets.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use axum::http::StatusCode;
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use common::{Backend, TestApp, unique_email};
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::pkcs8::{DecodePrivateKey, EncodePrivateKey};
use serde_json::json;
use symbolon_server::config::Redacted;
use symbolon_server::db::DbError;
use symbolon_server::db::apps::AppRecord;
use symbolon_server::db::keys::SigningKeyRecord;
use symbolon_server::db::users::UserRecord;
use symbolon_server::state::StartupError;
use symbolon_server::tokens::TokenError;
use symbolon_server::tokens::refresh::hash_refresh_token;

backend_tests!(
    migrations_are_idempotent,
    duplicate_accounts_map_to_conflict,
    keys_and_code_secret_survive_a_restart,
    signing_keys_are_sealed_with_a_key_encryption_key,
    a_copy_of_the_database_cannot_mint_tokens,
    apps_load_with_origins_and_client_ids_in_one_read,
    refresh_context_joins_session_user_and_accounts,
    concurrent_rotations_agree_on_one_child_and_time,
    sqlite_reads_cannot_write,
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
        custom_metadata: None,
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
    assert!(
        matches!(second, Err(DbError::Conflict { .. })),
        "{second:?}"
    );
    // The conflict names what fired: the constraint on Postgres, the table and columns on SQLite.
    let constraint = match &second {
        Err(DbError::Conflict {
            constraint: Some(constraint),
        }) => constraint.clone(),
        other => panic!("no constraint named: {other:?}"),
    };
    let expected = match backend {
        Backend::Postgres => "linked_accounts_subject_unique",
        Backend::Sqlite => "linked_accounts(app_id, account_type, subject)",
    };
    assert_eq!(constraint, expected);
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
    let restarted = t.restart_with(|_| {}).await.unwrap();
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
    // A restart with another sealing key refuses to start rather than minting a new key.
    let refused = t
        .restart_with(|c| c.key_encryption_key = Some(Redacted(STANDARD.encode([9u8; 32]))))
        .await;
    assert!(
        matches!(
            refused,
            Err(StartupError::Token(TokenError::WrongSealingKey))
        ),
        "{:?}",
        refused.err()
    );
}

/// Everything in the database, as a thief with a copy (or write access) has it, trying to make
/// an access token the live server accepts.
async fn a_copy_of_the_database_cannot_mint_tokens(backend: Backend) {
    let t = TestApp::start(backend).await;
    let session = t.login(&unique_email()).await;
    let genuine = session["token"].as_str().unwrap();
    let claims = decode_header_and_claims(genuine);
    let rows = t.state.db.signing_keys().await.unwrap();
    // No private key in the copy is usable: each is sealed, and no secret to open it is there.
    for row in &rows {
        let readable = STANDARD
            .decode(&row.private_key)
            .ok()
            .and_then(|der| p256::SecretKey::from_pkcs8_der(&der).ok());
        assert!(
            readable.is_none(),
            "key {} readable from the database",
            row.kid
        );
    }
    let secrets: Vec<(String,)> = sqlx::query_as("SELECT name FROM server_secrets")
        .fetch_all(t.state.db.pool())
        .await
        .unwrap();
    assert!(
        secrets.is_empty(),
        "secrets stored in the database: {secrets:?}"
    );
    // With write access, plant a key of one's own (in the clear, newest, active) and sign with it.
    let planted = p256::SecretKey::from_slice(&[42; 32]).unwrap();
    let der = planted.to_pkcs8_der().unwrap();
    let point = planted.public_key().to_encoded_point(false);
    let record = SigningKeyRecord {
        kid: "planted".into(),
        private_key: STANDARD.encode(der.as_bytes()),
        public_x: URL_SAFE_NO_PAD.encode(point.x().unwrap()),
        public_y: URL_SAFE_NO_PAD.encode(point.y().unwrap()),
        created_at: t.state.clock.now() + 10,
        retired_at: None,
    };
    t.state.db.insert_signing_key(&record).await.unwrap();
    let mut header = Header::new(Algorithm::ES256);
    header.kid = Some("planted".into());
    let forged = encode(&header, &claims, &EncodingKey::from_ec_der(der.as_bytes())).unwrap();
    // The server restarts over the tampered database: the planted row neither signs nor verifies.
    let restarted = t.restart_with(|_| {}).await.unwrap();
    assert_eq!(
        restarted.tokens.keys().active_kid(),
        t.state.tokens.keys().active_kid()
    );
    let router = symbolon_server::app(restarted);
    for (what, token) in [("genuine", genuine), ("forged", forged.as_str())] {
        let reply = t
            .get("/api/v1/users/me")
            .bearer(token)
            .via(&router)
            .send()
            .await;
        if what == "genuine" {
            assert_eq!(reply.status, StatusCode::OK, "control: {}", reply.text);
        } else {
            reply.assert_error(401, "missing_or_invalid_token");
        }
    }
    let jwks = t
        .get(&format!("/api/v1/apps/{}/jwks.json", t.app_id))
        .via(&router)
        .send()
        .await;
    assert!(!jwks.text.contains("planted"), "planted key published");
}

fn decode_header_and_claims(token: &str) -> serde_json::Value {
    let payload = token.split('.').nth(1).unwrap();
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap()
}

async fn apps_load_with_origins_and_client_ids_in_one_read(backend: Backend) {
    let t = TestApp::start(backend).await;
    let record = AppRecord {
        id: "a".repeat(25),
        name: "Two origins".into(),
        allowed_origins: vec!["https://a.example".into(), "https://b.example".into()],
        client_ids: vec!["client-1".into(), "client-2".into()],
        disable_plus_emails: true,
        require_users_accept_terms: false,
        settings: Default::default(),
    };
    t.state.db.upsert_app(&record, 1).await.unwrap();
    let mut found = t.state.db.find_app(&record.id).await.unwrap().expect("app");
    found.allowed_origins.sort();
    found.client_ids.sort();
    assert_eq!(found, record);
    let bare = AppRecord {
        id: "b".repeat(25),
        allowed_origins: Vec::new(),
        client_ids: Vec::new(),
        ..record
    };
    t.state.db.upsert_app(&bare, 1).await.unwrap();
    assert_eq!(t.state.db.find_app(&bare.id).await.unwrap(), Some(bare));
    assert_eq!(t.state.db.find_app(&"c".repeat(25)).await.unwrap(), None);
}

async fn refresh_context_joins_session_user_and_accounts(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let session = t.login(&email).await;
    let hash = hash_refresh_token(session["refresh_token"].as_str().unwrap());
    let found = t
        .state
        .db
        .find_refresh_context(&hash)
        .await
        .unwrap()
        .expect("context");
    assert_eq!(found.token.rotated_at, None);
    assert_eq!(found.session.id, found.token.session_id);
    assert_eq!(found.session.app_id, t.app_id);
    let user = found.user.expect("user");
    assert_eq!(user.id, session["user"]["id"].as_str().unwrap());
    assert_eq!(found.session.user_id, user.id);
    assert_eq!(found.accounts.len(), 1);
    assert_eq!(found.accounts[0].subject, email);
    assert!(
        t.state
            .db
            .find_refresh_context(&hash_refresh_token("unknown"))
            .await
            .unwrap()
            .is_none()
    );
}

async fn concurrent_rotations_agree_on_one_child_and_time(backend: Backend) {
    let t = TestApp::start(backend).await;
    let session = t.login(&unique_email()).await;
    let parent = hash_refresh_token(session["refresh_token"].as_str().unwrap());
    let db = &t.state.db;
    let sid = db
        .find_refresh_token(&parent)
        .await
        .unwrap()
        .expect("token")
        .session_id;
    let (a, b) = tokio::join!(
        db.rotate_refresh_token(&parent, "child", &sid, 100),
        db.rotate_refresh_token(&parent, "child", &sid, 101),
    );
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(a, b, "both see the first rotation");
    assert!(matches!(a, Some(100 | 101)), "{a:?}");
    // The child is stored once and current; a later exchange keeps the first time.
    let child = db
        .find_refresh_token("child")
        .await
        .unwrap()
        .expect("child");
    assert_eq!((child.session_id, child.rotated_at), (sid.clone(), None));
    assert_eq!(
        db.rotate_refresh_token(&parent, "child", &sid, 200)
            .await
            .unwrap(),
        a
    );
    let rows: Vec<(String,)> =
        sqlx::query_as("SELECT token_hash FROM refresh_tokens WHERE session_id = $1")
            .bind(&sid)
            .fetch_all(db.pool())
            .await
            .unwrap();
    assert_eq!(rows.len(), 2, "parent and one child: {rows:?}");
}

async fn sqlite_reads_cannot_write(backend: Backend) {
    let t = TestApp::start(backend).await;
    let write = sqlx::query("DELETE FROM server_secrets")
        .execute(t.state.db.pool())
        .await;
    match backend {
        // Writes must go through the single writer connection.
        Backend::Sqlite => assert!(write.is_err(), "reader connections are query_only"),
        Backend::Postgres => assert!(write.is_ok(), "one pool for both on Postgres"),
    }
}
