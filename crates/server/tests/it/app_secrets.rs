//! The secrets of app settings (Telegram bot token, Farcaster custody key, OAuth client
//! secrets) are stored sealed by `symbolon apps create`: a copy of the database holds none of
//! them, cannot use them under another sealing key, and a secret moved to another app, or
//! planted in the clear by SQL, is refused rather than used.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::process::Command;

use common::{Backend, CLIENT_ID, ORIGIN, TestApp};
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use symbolon_server::app_settings::AppSettings;

backend_tests!(
    apps_create_stores_no_secret_in_the_clear_and_telegram_still_signs_in,
    a_database_copy_under_another_sealing_key_cannot_verify_telegram,
    a_sealed_secret_copied_to_another_app_does_not_open,
    a_plain_secret_planted_by_sql_is_refused,
);

const AUTH: &str = "/api/v1/telegram/authenticate";
const BOT_TOKEN: &str = "7000002:sealed-bot-secret-of-symbolon";
const CUSTODY_KEY: &str = "0x1111111111111111111111111111111111111111111111111111111111111111";
const GOOGLE_SECRET: &str = "google-client-secret-of-symbolon";
const ACME_SECRET: &str = "acme-client-secret-of-symbolon";

/// What an operator writes: every secret in plain text.
fn settings_toml() -> String {
    format!(
        r#"
[login_methods]
primary = ["email", "telegram", "google", "custom:acme"]

[telegram]
bot_token = "{BOT_TOKEN}"
bot_name = "symbolon_seal_bot"

[farcaster]
signer_request_fid = 77
signer_request_key = "{CUSTODY_KEY}"

[oauth.providers.google]
client_id = "google-client"
client_secret = "{GOOGLE_SECRET}"

[[oauth.custom_providers]]
provider = "custom:acme"
display_name = "Acme"
client_id = "acme-client"
client_secret = "{ACME_SECRET}"
authorize_url = "https://acme.example/authorize"
token_url = "https://acme.example/token"
userinfo_url = "https://acme.example/userinfo"
"#
    )
}

fn secrets() -> [&'static str; 4] {
    // The custody key without `0x`, as it would appear in any encoding of the hex.
    [BOT_TOKEN, &CUSTODY_KEY[2..], GOOGLE_SECRET, ACME_SECRET]
}

/// Runs `symbolon apps create --settings` for the test server's default app, under its
/// sealing key (what an operator does before `serve`).
fn apps_create(t: &TestApp) {
    let dir = std::env::temp_dir().join(format!("symbolon-seal-{}", t.app_id));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("settings.toml");
    std::fs::write(&file, settings_toml()).unwrap();
    let config = &t.state.config;
    let key = config.key_encryption_key.as_ref().expect("sealing key");
    let out = Command::new(env!("CARGO_BIN_EXE_symbolon"))
        .env("DATABASE_URL", &config.database_url)
        .env("SYMBOLON_KEY_ENCRYPTION_KEY", &key.0)
        .env("SYMBOLON_LOG", "warn")
        .args(["apps", "create", "--name", "Sealed", "--origin", ORIGIN])
        .args(["--client-id", CLIENT_ID, "--id", &t.app_id, "--settings"])
        .arg(&file)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The `apps.settings` text as stored.
async fn raw_settings(t: &TestApp, app_id: &str) -> String {
    sqlx::query_scalar::<_, String>("SELECT settings FROM apps WHERE id = $1")
        .bind(app_id)
        .fetch_one(t.state.db.pool())
        .await
        .unwrap()
}

/// A Login Widget result for user `id`, signed with the bot token (as Telegram signs it).
fn widget(id: i64) -> Value {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let mut result = json!({ "id": id, "first_name": "Ada", "auth_date": now - 5 });
    let mut lines: Vec<String> = result
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| match v {
            Value::String(s) => format!("{k}={s}"),
            other => format!("{k}={other}"),
        })
        .collect();
    lines.sort();
    let key = Sha256::digest(BOT_TOKEN.as_bytes());
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).unwrap();
    mac.update(lines.join("\n").as_bytes());
    let hash: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    result["hash"] = json!(hash);
    result
}

async fn telegram_login(t: &TestApp, app_id: &str, user: i64) -> common::Reply {
    t.post(AUTH, json!({ "telegram_auth_result": widget(user) }))
        .header("privy-app-id", app_id)
        .send()
        .await
}

async fn apps_create_stores_no_secret_in_the_clear_and_telegram_still_signs_in(backend: Backend) {
    let t = TestApp::start(backend).await;
    apps_create(&t);
    let stored = raw_settings(&t, &t.app_id).await;
    assert!(stored.contains("sealed:v1:"), "{stored}");
    for secret in secrets() {
        assert!(!stored.contains(secret), "{secret} stored in the clear");
    }
    let record = t.state.db.find_app(&t.app_id).await.unwrap().unwrap();
    let debug = format!("{:?}", record.settings);
    for secret in secrets() {
        assert!(!debug.contains(secret), "{secret} in Debug");
    }

    let reply = telegram_login(&t, &t.app_id, 4_200_001).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.body["user"]["linked_accounts"][0]["type"], "telegram");

    // The app configuration shows the bot id, never a secret.
    let config = t.get(&format!("/api/v1/apps/{}", t.app_id)).send().await;
    assert_eq!(config.status, 200, "{}", config.text);
    assert_eq!(config.body["telegram_auth_config"]["bot_id"], "7000002");
    for secret in secrets() {
        assert!(!config.text.contains(secret), "{secret} in GET /apps");
    }
}

async fn a_database_copy_under_another_sealing_key_cannot_verify_telegram(backend: Backend) {
    let t = TestApp::start(backend).await;
    apps_create(&t);
    assert_eq!(telegram_login(&t, &t.app_id, 4_200_002).await.status, 200);
    // The app's row, as a database copy holds it, served by a server with another sealing key.
    let copy = TestApp::start(backend).await;
    let record = t.state.db.find_app(&t.app_id).await.unwrap().unwrap();
    copy.state.db.upsert_app(&record, 1).await.unwrap();
    assert_eq!(
        raw_settings(&copy, &t.app_id).await,
        raw_settings(&t, &t.app_id).await
    );

    telegram_login(&copy, &t.app_id, 4_200_002)
        .await
        .assert_error(403, "feature_not_enabled");
    let config = copy
        .get(&format!("/api/v1/apps/{}", t.app_id))
        .header("privy-app-id", &t.app_id)
        .send()
        .await;
    assert_eq!(config.status, 200, "{}", config.text);
    assert_eq!(config.body["telegram_auth_config"], Value::Null);
}

async fn a_sealed_secret_copied_to_another_app_does_not_open(backend: Backend) {
    let t = TestApp::start(backend).await;
    apps_create(&t);
    let other = t.create_app(false).await;
    let mut record = t.state.db.find_app(&other).await.unwrap().unwrap();
    record.settings = t
        .state
        .db
        .find_app(&t.app_id)
        .await
        .unwrap()
        .unwrap()
        .settings;
    t.state.db.upsert_app(&record, 1).await.unwrap();

    telegram_login(&t, &other, 4_200_003)
        .await
        .assert_error(403, "feature_not_enabled");
    // The original still works: it is the move that fails, not the secret.
    assert_eq!(telegram_login(&t, &t.app_id, 4_200_003).await.status, 200);
}

async fn a_plain_secret_planted_by_sql_is_refused(backend: Backend) {
    let t = TestApp::start(backend).await;
    let plain: AppSettings = toml::from_str(&settings_toml()).unwrap();
    let plain = serde_json::to_string(&plain.checked().unwrap()).unwrap();
    assert!(plain.contains(BOT_TOKEN));
    sqlx::query("UPDATE apps SET settings = $1 WHERE id = $2")
        .bind(&plain)
        .bind(&t.app_id)
        .execute(t.state.db.writer())
        .await
        .unwrap();

    let refused = telegram_login(&t, &t.app_id, 4_200_004).await;
    refused.assert_error(403, "feature_not_enabled");
    assert!(
        refused.text.contains("symbolon apps create"),
        "{}",
        refused.text
    );
    assert!(!refused.text.contains(BOT_TOKEN));
    let config = t.get(&format!("/api/v1/apps/{}", t.app_id)).send().await;
    assert_eq!(config.body["telegram_auth_config"], Value::Null);
    assert!(!config.text.contains(BOT_TOKEN));
}
