//! Login with Telegram over HTTP: the test plays Telegram, signing Login Widget results and Mini
//! App `initData` with its own bot token per Telegram's documented schemes (HMAC-SHA256 under
//! SHA-256(token), resp. under HMAC("WebAppData", token)); the server checks hash and age, and the
//! account rules apply to the `telegram` account (link, unlink, transfer).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{Backend, TestApp, unique_email};
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use symbolon_protocol::accounts::LoginMethodsAndOrder;
use symbolon_server::app_settings::AppSettings;
use symbolon_server::app_settings::telegram::TelegramSettings;

const AUTH: &str = "/api/v1/telegram/authenticate";
const LINK: &str = "/api/v1/telegram/link";
const UNLINK: &str = "/api/v1/telegram/unlink";
const TRANSFER: &str = "/api/v1/telegram/transfer";
const BOT_TOKEN: &str = "7000001:test-bot-secret-of-symbolon";

backend_tests!(
    widget_data_signs_the_user_up_then_in,
    mini_app_init_data_signs_in,
    tampered_foreign_old_and_future_data_are_refused,
    the_app_config_shows_the_bot_but_never_its_token,
    telegram_links_and_unlinks_under_the_account_rules,
    another_users_telegram_is_transferred_with_the_nonce,
    an_old_proof_signs_in_but_never_freshly,
);

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

fn hmac_hex(key: &[u8], message: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).unwrap();
    mac.update(message.as_bytes());
    mac.finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Sorted `key=value` lines of every field but `hash` (Telegram's data-check-string).
fn check_string(fields: &serde_json::Map<String, Value>) -> String {
    let mut lines: Vec<String> = fields
        .iter()
        .filter(|(k, _)| *k != "hash")
        .map(|(k, v)| match v {
            Value::String(s) => format!("{k}={s}"),
            other => format!("{k}={other}"),
        })
        .collect();
    lines.sort();
    lines.join("\n")
}

/// A Login Widget result for user `id`, signed with `token`.
fn widget(id: i64, auth_date: i64, token: &str) -> Value {
    let mut result = json!({
        "id": id, "first_name": "Ada", "last_name": "Lovelace", "username": "ada",
        "photo_url": "https://t.me/i/userpic/ada.jpg", "auth_date": auth_date,
    });
    let key = Sha256::digest(token.as_bytes());
    let hash = hmac_hex(&key, &check_string(result.as_object().unwrap()));
    result["hash"] = json!(hash);
    result
}

/// A Mini App's `initData` fields for user `id`, signed with `token`.
fn init_data(id: i64, auth_date: i64, token: &str) -> Value {
    let user = json!({ "id": id, "first_name": "Grace", "username": "grace" }).to_string();
    let mut data = json!({
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc", "user": user, "auth_date": auth_date.to_string(),
        "signature": "test-signature",
    });
    let web_app_key = {
        let mut mac = Hmac::<Sha256>::new_from_slice(b"WebAppData").unwrap();
        mac.update(token.as_bytes());
        mac.finalize().into_bytes()
    };
    let hash = hmac_hex(&web_app_key, &check_string(data.as_object().unwrap()));
    data["hash"] = json!(hash);
    data
}

fn telegram_settings() -> AppSettings {
    AppSettings {
        login_methods: LoginMethodsAndOrder {
            primary: vec!["email".into(), "telegram".into()],
            overflow: Vec::new(),
        },
        telegram: Some(TelegramSettings {
            bot_token: BOT_TOKEN.into(),
            bot_name: "symbolon_test_bot".into(),
            seamless_auth_enabled: true,
            max_auth_age_s: None,
        }),
        ..AppSettings::default()
    }
}

async fn start(backend: Backend) -> TestApp {
    let t = TestApp::start(backend).await;
    t.set_settings(telegram_settings()).await;
    t
}

fn unique_id() -> i64 {
    use std::sync::atomic::{AtomicI64, Ordering};
    static NEXT: AtomicI64 = AtomicI64::new(0);
    (now() % 100_000) * 1000 + NEXT.fetch_add(1, Ordering::Relaxed)
}

fn token(session: &Value) -> &str {
    session["token"].as_str().unwrap()
}

async fn widget_data_signs_the_user_up_then_in(backend: Backend) {
    let t = start(backend).await;
    let id = unique_id();
    let first = t
        .post(
            AUTH,
            json!({ "telegram_auth_result": widget(id, now() - 5, BOT_TOKEN) }),
        )
        .send()
        .await;
    assert_eq!(first.status, 200, "{}", first.text);
    assert_eq!(first.body["is_new_user"], true);
    let account = &first.body["user"]["linked_accounts"][0];
    assert_eq!(account["type"], "telegram");
    assert_eq!(account["telegram_user_id"], id.to_string());
    assert_eq!(account["first_name"], "Ada");
    assert_eq!(account["last_name"], "Lovelace");
    assert_eq!(account["username"], "ada");
    assert_eq!(account["photo_url"], "https://t.me/i/userpic/ada.jpg");
    assert!(account["latest_verified_at"].is_number());
    let again = t
        .post(
            AUTH,
            json!({ "telegram_auth_result": widget(id, now(), BOT_TOKEN), "mode": "no-signup" }),
        )
        .send()
        .await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.body["user"]["id"], first.body["user"]["id"]);
    assert_eq!(again.body["is_new_user"], false);
}

async fn mini_app_init_data_signs_in(backend: Backend) {
    let t = start(backend).await;
    let id = unique_id();
    let reply = t
        .post(
            AUTH,
            json!({ "telegram_web_app_data": init_data(id, now(), BOT_TOKEN) }),
        )
        .send()
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    let account = &reply.body["user"]["linked_accounts"][0];
    assert_eq!(account["telegram_user_id"], id.to_string());
    assert_eq!(account["username"], "grace");
    // The widget and the Mini App name the same Telegram user: one account.
    let widget_login = t
        .post(
            AUTH,
            json!({ "telegram_auth_result": widget(id, now(), BOT_TOKEN) }),
        )
        .send()
        .await;
    assert_eq!(widget_login.body["user"]["id"], reply.body["user"]["id"]);
}

async fn tampered_foreign_old_and_future_data_are_refused(backend: Backend) {
    let t = start(backend).await;
    let id = unique_id();
    let mut tampered = widget(id, now(), BOT_TOKEN);
    tampered["id"] = json!(id + 1);
    let mut tampered_app = init_data(id, now(), BOT_TOKEN);
    tampered_app["user"] = json!(json!({ "id": id + 1, "first_name": "Eve" }).to_string());
    let day = 86_400;
    for (name, body) in [
        (
            "tampered widget",
            json!({ "telegram_auth_result": tampered }),
        ),
        (
            "tampered initData",
            json!({ "telegram_web_app_data": tampered_app }),
        ),
        (
            "another bot's widget",
            json!({ "telegram_auth_result": widget(id, now(), "7000002:another-bot") }),
        ),
        (
            "another bot's initData",
            json!({ "telegram_web_app_data": init_data(id, now(), "7000002:another-bot") }),
        ),
        // The widget's key must not verify Mini App data (and the reverse).
        (
            "widget key on initData",
            json!({ "telegram_web_app_data": {
                "auth_date": now().to_string(), "user": json!({"id": id}).to_string(),
                "hash": widget(id, now(), BOT_TOKEN)["hash"] } }),
        ),
        (
            "too old",
            json!({ "telegram_auth_result": widget(id, now() - day - 60, BOT_TOKEN) }),
        ),
        (
            "too old initData",
            json!({ "telegram_web_app_data": init_data(id, now() - day - 60, BOT_TOKEN) }),
        ),
        (
            "future",
            json!({ "telegram_auth_result": widget(id, now() + 3600, BOT_TOKEN) }),
        ),
    ] {
        let reply = t.post(AUTH, body).send().await;
        assert_eq!(reply.status, 401, "{name}: {}", reply.text);
        reply.assert_error(401, "invalid_credentials");
    }
    // Neither proof, or both, or no hash: bad input, not a crash.
    for body in [
        json!({}),
        json!({ "telegram_auth_result": widget(id, now(), BOT_TOKEN),
                "telegram_web_app_data": init_data(id, now(), BOT_TOKEN) }),
        json!({ "telegram_web_app_data": { "auth_date": "1", "user": "{}" } }),
    ] {
        let reply = t.post(AUTH, body).send().await;
        assert_eq!(reply.body["code"], "invalid_data", "{}", reply.text);
        assert!(reply.status.as_u16() < 500);
    }
    // Nobody was signed up by any of it.
    let none = t
        .post(
            AUTH,
            json!({ "telegram_auth_result": widget(id, now(), BOT_TOKEN), "mode": "no-signup" }),
        )
        .send()
        .await;
    none.assert_error(400, "user_does_not_exist");
}

async fn the_app_config_shows_the_bot_but_never_its_token(backend: Backend) {
    let t = start(backend).await;
    let config = t.get(&format!("/api/v1/apps/{}", t.app_id)).send().await;
    assert_eq!(config.status, 200, "{}", config.text);
    assert_eq!(
        config.body["telegram_auth_config"],
        json!({ "bot_id": "7000001", "bot_name": "symbolon_test_bot", "seamless_auth_enabled": true, "link_enabled": true })
    );
    assert!(!config.text.contains("test-bot-secret"));
    // An app without Telegram refuses its proofs and shows no bot.
    t.set_settings(AppSettings::default()).await;
    let config = t.get(&format!("/api/v1/apps/{}", t.app_id)).send().await;
    assert!(config.body["telegram_auth_config"].is_null());
    t.post(
        AUTH,
        json!({ "telegram_auth_result": widget(1, now(), BOT_TOKEN) }),
    )
    .send()
    .await
    .assert_error(403, "disallowed_login_method");
}

async fn telegram_links_and_unlinks_under_the_account_rules(backend: Backend) {
    let t = start(backend).await;
    let id = unique_id();
    let session = t.login(&unique_email()).await;
    let linked = t
        .post(
            LINK,
            json!({ "telegram_auth_result": widget(id, now(), BOT_TOKEN) }),
        )
        .bearer(token(&session))
        .send()
        .await;
    assert_eq!(linked.status, 200, "{}", linked.text);
    let types: Vec<&str> = linked.body["linked_accounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["type"].as_str().unwrap())
        .collect();
    assert!(types.contains(&"telegram"), "{types:?}");
    // One Telegram account per user.
    t.post(
        LINK,
        json!({ "telegram_web_app_data": init_data(id + 1, now(), BOT_TOKEN) }),
    )
    .bearer(token(&session))
    .send()
    .await
    .assert_error(422, "cannot_link_more_of_type");
    // A tampered link proof links nothing.
    let mut tampered = widget(id + 2, now(), BOT_TOKEN);
    tampered["username"] = json!("eve");
    t.post(LINK, json!({ "telegram_auth_result": tampered }))
        .bearer(token(&session))
        .send()
        .await
        .assert_error(401, "invalid_credentials");
    // Unlink: an unknown id is not found; the linked one goes.
    t.post(UNLINK, json!({ "telegram_user_id": (id + 5).to_string() }))
        .bearer(token(&session))
        .send()
        .await
        .assert_error(404, "linked_account_not_found");
    let unlinked = t
        .post(UNLINK, json!({ "telegram_user_id": id.to_string() }))
        .bearer(token(&session))
        .send()
        .await;
    assert_eq!(unlinked.status, 200, "{}", unlinked.text);
    assert!(!unlinked.text.contains("\"telegram\""));
    // A user whose only way in is Telegram cannot unlink it.
    let only = t
        .post(
            AUTH,
            json!({ "telegram_auth_result": widget(id + 3, now(), BOT_TOKEN) }),
        )
        .send()
        .await;
    t.post(UNLINK, json!({ "telegram_user_id": (id + 3).to_string() }))
        .bearer(token(&only.body))
        .send()
        .await
        .assert_error(422, "cannot_unlink_sole_account");
    // Without a session, no link.
    t.post(
        LINK,
        json!({ "telegram_auth_result": widget(id, now(), BOT_TOKEN) }),
    )
    .send()
    .await
    .assert_error(401, "missing_or_invalid_token");
}

async fn another_users_telegram_is_transferred_with_the_nonce(backend: Backend) {
    let t = start(backend).await;
    let id = unique_id();
    let owner = t
        .post(
            AUTH,
            json!({ "telegram_auth_result": widget(id, now(), BOT_TOKEN) }),
        )
        .send()
        .await;
    assert_eq!(owner.status, 200, "{}", owner.text);
    let taker = t.login(&unique_email()).await;
    let proof = widget(id, now(), BOT_TOKEN);
    let reply = t
        .post(LINK, json!({ "telegram_auth_result": proof }))
        .bearer(token(&taker))
        .send()
        .await;
    reply.assert_error(403, "account_transfer_required");
    assert_eq!(reply.body["data"]["account_type"], "telegram");
    let nonce = reply.body["data"]["nonce"].as_str().unwrap();
    // The nonce is for this account only: another Telegram user's proof does not move it.
    t.post(
        TRANSFER,
        json!({ "nonce": nonce, "telegram_auth_result": widget(id + 1, now(), BOT_TOKEN) }),
    )
    .bearer(token(&taker))
    .send()
    .await
    .assert_error(401, "token_already_used");
    let body =
        json!({ "nonce": nonce, "telegram_auth_result": proof, "telegram_web_app_data": null });
    let moved = t
        .post(TRANSFER, body.clone())
        .bearer(token(&taker))
        .send()
        .await;
    assert_eq!(moved.status, 200, "{}", moved.text);
    let login = t
        .post(
            AUTH,
            json!({ "telegram_auth_result": widget(id, now(), BOT_TOKEN) }),
        )
        .send()
        .await;
    assert_eq!(login.body["user"]["id"], taker["user"]["id"]);
    assert_ne!(owner.body["user"]["id"], taker["user"]["id"]);
    t.post(TRANSFER, body)
        .bearer(token(&taker))
        .send()
        .await
        .assert_error(401, "token_already_used");
}

/// A captured Login Widget proof replays for its whole day: it signs in, but its session may not
/// change the account (nor register a wallet or get the recovery share) unless the proof was made
/// within the account-change window.
async fn an_old_proof_signs_in_but_never_freshly(backend: Backend) {
    let t = start(backend).await;
    let id = unique_id();
    let unlink = |session: &Value| {
        t.post(UNLINK, json!({ "telegram_user_id": id.to_string() }))
            .bearer(token(session))
            .send()
    };
    let signed_up = t
        .post(
            AUTH,
            json!({ "telegram_auth_result": widget(id, now() - 3600, BOT_TOKEN) }),
        )
        .send()
        .await;
    assert_eq!(signed_up.status, 200, "{}", signed_up.text);
    // Creating the user is fresh whatever the proof: the account has nothing to take yet.
    unlink(&signed_up.body)
        .await
        .assert_error(422, "cannot_unlink_sole_account");

    // An hour-old proof again (a replay): signed in, but not fresh.
    let replayed = t
        .post(
            AUTH,
            json!({ "telegram_auth_result": widget(id, now() - 3600, BOT_TOKEN) }),
        )
        .send()
        .await;
    assert_eq!(replayed.status, 200, "{}", replayed.text);
    assert_eq!(replayed.body["user"]["id"], signed_up.body["user"]["id"]);
    unlink(&replayed.body)
        .await
        .assert_error(403, "missing_or_invalid_mfa");

    // A proof made a minute ago is fresh for the rest of its window, and no longer.
    let recent = t
        .post(
            AUTH,
            json!({ "telegram_auth_result": widget(id, now() - 60, BOT_TOKEN) }),
        )
        .send()
        .await;
    assert_eq!(recent.status, 200, "{}", recent.text);
    unlink(&recent.body)
        .await
        .assert_error(422, "cannot_unlink_sole_account");
    t.state.clock.advance(9 * 60 + 30);
    unlink(&recent.body)
        .await
        .assert_error(403, "missing_or_invalid_mfa");
}
