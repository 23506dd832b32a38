//! Webhooks (docs/webhooks.md): what a host back end hears about its users, from the outbox
//! written with each change to a signed POST at its endpoint; retries, filters, replays and
//! exclusive claims. On both databases; the worker's passes are run by hand (`deliver_due`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::binary::{Server, symbolon};
use crate::common;
use crate::server_api::{secret, v1};

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::FromRef;
use axum::http::{HeaderMap, Method, StatusCode};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use common::{Backend, TestApp, fresh_database, remove_database_file, unique_email};
use serde_json::{Value, json};
use symbolon_sdk::webhooks::WebhookHeaders;
use symbolon_server::app_secrets::AppSecrets;
use symbolon_server::keys::sealing::SealingKey;
use symbolon_server::webhooks::WebhookDeps;
use symbolon_server::webhooks::delivery::{RETRY_DELAYS_S, deliver_due};
use symbolon_server::webhooks::endpoints::{self, CreatedEndpoint};
use tokio::task::JoinSet;

backend_tests!(
    webhooks_tell_a_users_life_signed_for_the_endpoint,
    an_endpoint_hears_only_its_events_and_failures_are_retried_with_the_same_message,
    concurrent_workers_send_each_delivery_once,
    refused_changes_and_apps_without_endpoints_record_nothing,
    a_delivery_is_replayed_with_its_message_id_and_a_deleted_endpoint_gets_nothing,
    secrets_are_stored_sealed_and_do_not_open_under_another_key,
    a_transfer_names_both_users,
    unlinks_wallets_and_second_factors_are_reported,
    the_outbox_survives_a_kill_and_delivers_once_after_restart,
    the_sweeper_forgets_finished_events_after_their_time_and_keeps_pending_ones
);

/// What an endpoint received: headers and the raw body.
#[derive(Debug, Clone)]
struct Received {
    id: String,
    timestamp: String,
    signature: String,
    body: String,
}

impl Received {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap()
    }
}

/// A host back end's webhook route on loopback: keeps every POST, answers `answers` in turn
/// (then 204).
#[derive(Clone)]
struct Receiver {
    url: String,
    received: Arc<Mutex<Vec<Received>>>,
    answers: Arc<Mutex<Vec<u16>>>,
}

impl Receiver {
    async fn start() -> Self {
        Self::start_on(0).await
    }

    /// A receiver on `port` (0: any free port).
    async fn start_on(port: u16) -> Self {
        let received: Arc<Mutex<Vec<Received>>> = Arc::default();
        let answers: Arc<Mutex<Vec<u16>>> = Arc::default();
        let (kept, planned) = (Arc::clone(&received), Arc::clone(&answers));
        let route = axum::routing::post(move |headers: HeaderMap, body: String| {
            let (kept, planned) = (Arc::clone(&kept), Arc::clone(&planned));
            async move {
                let header = |name: &str| {
                    headers
                        .get(name)
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or_default()
                        .to_string()
                };
                kept.lock().unwrap().push(Received {
                    id: header("svix-id"),
                    timestamp: header("svix-timestamp"),
                    signature: header("svix-signature"),
                    body,
                });
                let mut planned = planned.lock().unwrap();
                let status = if planned.is_empty() {
                    204
                } else {
                    planned.remove(0)
                };
                StatusCode::from_u16(status).unwrap()
            }
        });
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
            .await
            .unwrap();
        let url = format!("http://{}/hooks", listener.local_addr().unwrap());
        tokio::spawn(async move {
            axum::serve(listener, axum::Router::new().route("/hooks", route))
                .await
                .unwrap();
        });
        Self {
            url,
            received,
            answers,
        }
    }

    fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    fn types(&self) -> Vec<String> {
        self.received()
            .iter()
            .map(|r| r.json()["type"].as_str().unwrap().to_string())
            .collect()
    }
}

/// Whether the Rust SDK's verifier (`symbolon_sdk::webhooks`, the host back end's side) accepts a
/// delivery under `secret`, at the time it was signed (tests move the server's clock).
fn signed_by(received: &Received, secret: &str) -> bool {
    let headers = WebhookHeaders {
        id: &received.id,
        timestamp: &received.timestamp,
        signature: &received.signature,
    };
    let at: i64 = received.timestamp.parse().unwrap();
    symbolon_sdk::webhooks::verify_at(secret, &headers, &received.body, at).is_ok()
}

fn deps(t: &TestApp) -> WebhookDeps {
    WebhookDeps::from_ref(&t.state)
}

async fn endpoint(t: &TestApp, url: &str, events: &[&str]) -> CreatedEndpoint {
    let events: Vec<String> = events.iter().map(|e| e.to_string()).collect();
    endpoints::create(&deps(t), &t.app_id, url, &events)
        .await
        .unwrap()
}

/// Runs the worker's passes until nothing is due now.
async fn deliver(t: &TestApp) {
    while deliver_due(&deps(t)).await.unwrap() > 0 {}
}

async fn webhooks_tell_a_users_life_signed_for_the_endpoint(backend: Backend) {
    let t = TestApp::start(backend).await;
    let receiver = Receiver::start().await;
    let made = endpoint(&t, &receiver.url, &[]).await;
    assert!(made.secret.starts_with("whsec_"));

    let email = unique_email();
    let session = t.login(&email).await;
    let user_id = session["user"]["id"].as_str().unwrap().to_string();
    t.login(&email).await;
    deliver(&t).await;
    assert_eq!(
        receiver.types(),
        ["user.created", "user.authenticated", "user.authenticated"]
    );

    // A login whose event is not sent before the user is deleted has no user to show: it is
    // skipped with the reason, never sent half; `user.deleted` carries the user as they were.
    t.login(&email).await;
    let key = secret(&t, &t.app_id).await;
    let path = format!("/v1/users/{user_id}");
    let deleted = v1(&t, Method::DELETE, &path, &t.app_id, &key).send().await;
    assert!(deleted.status.is_success(), "{}", deleted.text);
    deliver(&t).await;
    assert_eq!(
        receiver.types(),
        [
            "user.created",
            "user.authenticated",
            "user.authenticated",
            "user.deleted"
        ]
    );
    let skipped = t
        .state
        .db
        .webhook_deliveries(&t.app_id, Some("skipped"), 10)
        .await
        .unwrap();
    assert_eq!(skipped.len(), 1);
    assert_eq!(skipped[0].event_type, "user.authenticated");
    assert!(
        skipped[0]
            .last_error
            .as_deref()
            .unwrap()
            .contains("deleted")
    );

    let received = receiver.received();
    for delivery in &received {
        assert!(signed_by(delivery, &made.secret), "{delivery:?}");
        assert!(delivery.id.starts_with("msg_"));
    }
    let altered = Received {
        body: received[0].body.replace(&user_id, "did:privy:someone-else"),
        ..received[0].clone()
    };
    assert!(
        !signed_by(&altered, &made.secret),
        "an altered body is refused"
    );
    let ids: std::collections::HashSet<_> = received.iter().map(|r| r.id.clone()).collect();
    assert_eq!(ids.len(), 4, "each event has its own message id");
    let created = received[0].json();
    assert_eq!(created["user"]["id"], user_id.as_str());
    assert_eq!(
        created["user"]["linked_accounts"][0]["address"],
        email.as_str()
    );
    let signed_in = received[1].json();
    assert_eq!(signed_in["user"]["id"], user_id.as_str());
    assert_eq!(signed_in["account"]["type"], "email");
    assert_eq!(signed_in["account"]["address"], email.as_str());
    let gone = received[3].json();
    assert_eq!(gone["user"]["id"], user_id.as_str());
    assert_eq!(
        gone["user"]["linked_accounts"][0]["address"],
        email.as_str()
    );
}

async fn an_endpoint_hears_only_its_events_and_failures_are_retried_with_the_same_message(
    backend: Backend,
) {
    let t = TestApp::start(backend).await;
    let receiver = Receiver::start().await;
    let made = endpoint(&t, &receiver.url, &["user.created"]).await;
    receiver.answers.lock().unwrap().extend([500, 503]);
    let email = unique_email();
    t.login(&email).await;
    t.login(&email).await;
    deliver(&t).await;
    assert_eq!(receiver.types(), ["user.created"], "one try so far");

    // Not due before its backoff.
    deliver(&t).await;
    assert_eq!(receiver.received().len(), 1);
    t.state.clock.advance(RETRY_DELAYS_S[0]);
    deliver(&t).await;
    assert_eq!(receiver.received().len(), 2);
    t.state.clock.advance(RETRY_DELAYS_S[1]);
    deliver(&t).await;
    let received = receiver.received();
    assert_eq!(received.len(), 3);
    // Every attempt sends the same message: same id and the same bytes.
    assert!(received.iter().all(|r| r.id == received[0].id));
    assert!(received.iter().all(|r| r.body == received[0].body));
    assert!(received.iter().all(|r| signed_by(r, &made.secret)));
    assert_eq!(
        received[0].json()["user"]["linked_accounts"][0]["address"],
        email.as_str()
    );

    let deliveries = t
        .state
        .db
        .webhook_deliveries(&t.app_id, None, 10)
        .await
        .unwrap();
    assert_eq!(deliveries.len(), 1);
    assert_eq!(deliveries[0].status, "delivered");
    assert_eq!(deliveries[0].attempts, 3);
    let attempts = t
        .state
        .db
        .webhook_attempts(&deliveries[0].id)
        .await
        .unwrap();
    let statuses: Vec<Option<i64>> = attempts.iter().map(|a| a.2).collect();
    assert_eq!(statuses, [Some(500), Some(503), Some(204)]);
    assert!(attempts[0].3.as_deref().unwrap().starts_with("HTTP 500"));
}

async fn concurrent_workers_send_each_delivery_once(backend: Backend) {
    let t = Arc::new(TestApp::start(backend).await);
    let receiver = Receiver::start().await;
    endpoint(&t, &receiver.url, &["user.created"]).await;
    for _ in 0..12 {
        t.login(&unique_email()).await;
    }
    let mut workers = JoinSet::new();
    for _ in 0..6 {
        let t = Arc::clone(&t);
        workers.spawn(async move { deliver_due(&deps(&t)).await.unwrap() });
    }
    let mut passes = Vec::new();
    while let Some(claimed) = workers.join_next().await {
        passes.push(claimed.unwrap());
    }
    assert_eq!(passes.iter().sum::<usize>(), 12, "{passes:?}");
    let mut counts: HashMap<String, usize> = HashMap::new();
    for received in receiver.received() {
        *counts.entry(received.id).or_default() += 1;
    }
    assert_eq!(counts.len(), 12);
    assert!(counts.values().all(|&n| n == 1), "{counts:?}");
}

async fn refused_changes_and_apps_without_endpoints_record_nothing(backend: Backend) {
    let t = TestApp::start(backend).await;
    // No endpoint yet: nothing is stored for this sign-up.
    t.login(&unique_email()).await;
    let receiver = Receiver::start().await;
    endpoint(
        &t,
        &receiver.url,
        &["user.unlinked_account", "user.created"],
    )
    .await;
    let key = secret(&t, &t.app_id).await;
    let email = unique_email();
    let created = v1(&t, Method::POST, "/v1/users", &t.app_id, &key)
        .json(json!({ "linked_accounts": [{ "type": "email", "address": email }] }))
        .send()
        .await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.text);
    let path = format!(
        "/v1/users/{}/accounts/unlink",
        created.body["id"].as_str().unwrap()
    );
    // The sole account stays, and no unlink is reported.
    let refused = v1(&t, Method::POST, &path, &t.app_id, &key)
        .json(json!({ "type": "email", "handle": email }))
        .send()
        .await;
    refused.assert_error(422, "cannot_unlink_sole_account");
    deliver(&t).await;
    assert_eq!(receiver.types(), ["user.created"]);
    let json = receiver.received()[0].json();
    assert_eq!(json["user"]["id"], created.body["id"]);
}

async fn a_delivery_is_replayed_with_its_message_id_and_a_deleted_endpoint_gets_nothing(
    backend: Backend,
) {
    let t = TestApp::start(backend).await;
    let receiver = Receiver::start().await;
    let made = endpoint(&t, &receiver.url, &["user.created"]).await;
    t.login(&unique_email()).await;
    deliver(&t).await;
    let delivery = t
        .state
        .db
        .webhook_deliveries(&t.app_id, Some("delivered"), 10)
        .await
        .unwrap()
        .remove(0);
    let other_app = t.create_app(false).await;
    assert!(
        !t.state
            .db
            .replay_webhook_delivery(&other_app, &delivery.id, t.state.clock.now())
            .await
            .unwrap(),
        "another app cannot replay it"
    );
    assert!(
        t.state
            .db
            .replay_webhook_delivery(&t.app_id, &delivery.id, t.state.clock.now())
            .await
            .unwrap()
    );
    deliver(&t).await;
    let received = receiver.received();
    assert_eq!(received.len(), 2);
    assert_eq!(
        received[0].id, received[1].id,
        "a receiver dedupes by svix-id"
    );
    assert_eq!(received[0].body, received[1].body);

    assert!(
        t.state
            .db
            .delete_webhook_endpoint(&t.app_id, &made.endpoint.id)
            .await
            .unwrap()
    );
    t.login(&unique_email()).await;
    deliver(&t).await;
    assert_eq!(receiver.received().len(), 2);
}

async fn secrets_are_stored_sealed_and_do_not_open_under_another_key(backend: Backend) {
    let t = TestApp::start(backend).await;
    let receiver = Receiver::start().await;
    let made = endpoint(&t, &receiver.url, &["user.created"]).await;
    let stored = t
        .state
        .db
        .webhook_endpoint(&made.endpoint.id)
        .await
        .unwrap()
        .unwrap();
    let key_bytes = STANDARD
        .decode(made.secret.strip_prefix("whsec_").unwrap())
        .unwrap();
    assert!(!stored.secret.contains(made.secret.as_str()));
    assert!(!stored.secret.contains(&STANDARD.encode(&key_bytes)));
    assert!(stored.secret.starts_with("sealed:v1:"));

    // A server with another sealing key (a copied database) cannot sign with it.
    let elsewhere = WebhookDeps {
        app_secrets: Arc::new(AppSecrets::new(&SealingKey::from_bytes([9u8; 32]))),
        ..deps(&t)
    };
    t.login(&unique_email()).await;
    while deliver_due(&elsewhere).await.unwrap() > 0 {}
    assert!(receiver.received().is_empty(), "nothing unsigned is sent");
    let delivery = t
        .state
        .db
        .webhook_deliveries(&t.app_id, None, 10)
        .await
        .unwrap()
        .remove(0);
    assert_eq!(delivery.status, "pending");
    assert!(
        delivery
            .last_error
            .as_deref()
            .unwrap()
            .contains("does not open"),
        "{delivery:?}"
    );
}

async fn a_transfer_names_both_users(backend: Backend) {
    let t = TestApp::start(backend).await;
    let receiver = Receiver::start().await;
    let (owner, taker, email, nonce) = crate::accounts::offer(&t, 21).await;
    endpoint(
        &t,
        &receiver.url,
        &["user.transferred_account", "user.deleted"],
    )
    .await;
    let moved = t
        .post(
            crate::accounts::EMAIL_TRANSFER,
            json!({ "nonce": nonce, "email": email }),
        )
        .bearer(crate::accounts::token(&taker))
        .send()
        .await;
    assert_eq!(moved.status, 200, "{}", moved.text);
    deliver(&t).await;
    assert_eq!(receiver.types(), ["user.transferred_account"]);
    let event = receiver.received()[0].json();
    assert_eq!(event["fromUser"]["id"], owner["user"]["id"]);
    assert_eq!(event["deletedUser"], true, "the owner had nothing else");
    assert_eq!(event["toUser"]["id"], taker["user"]["id"]);
    assert_eq!(event["account"]["address"], email.as_str());
    assert_eq!(
        event["toUser"]["linked_accounts"][0]["address"],
        email.as_str()
    );
}

async fn unlinks_wallets_and_second_factors_are_reported(backend: Backend) {
    let t = crate::mfa::start(backend, false).await;
    let receiver = Receiver::start().await;
    endpoint(
        &t,
        &receiver.url,
        &[
            "user.created",
            "user.unlinked_account",
            "user.wallet_created",
            "mfa.enabled",
        ],
    )
    .await;
    let key = secret(&t, &t.app_id).await;
    let email = unique_email();
    let created = v1(&t, Method::POST, "/v1/users", &t.app_id, &key)
        .json(json!({ "linked_accounts": [
            { "type": "email", "address": email },
            { "type": "github_oauth", "subject": "gh-42", "username": "ada" },
        ]}))
        .send()
        .await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.text);
    let user_id = created.body["id"].as_str().unwrap().to_string();
    let unlinked = v1(
        &t,
        Method::POST,
        &format!("/v1/users/{user_id}/accounts/unlink"),
        &t.app_id,
        &key,
    )
    .json(json!({ "type": "github_oauth", "handle": "gh-42" }))
    .send()
    .await;
    assert_eq!(unlinked.status, StatusCode::OK, "{}", unlinked.text);
    let wallet = v1(
        &t,
        Method::POST,
        &format!("/v1/users/{user_id}/wallets"),
        &t.app_id,
        &key,
    )
    .json(json!({ "wallets": [{ "chain_type": "ethereum" }] }))
    .send()
    .await;
    assert_eq!(wallet.status, StatusCode::OK, "{}", wallet.text);
    let session = t.login(&email).await;
    crate::mfa::enroll_totp(&t, session["token"].as_str().unwrap()).await;
    deliver(&t).await;

    assert_eq!(
        receiver.types(),
        [
            "user.created",
            "user.unlinked_account",
            "user.wallet_created",
            "mfa.enabled"
        ]
    );
    let received: Vec<Value> = receiver.received().iter().map(Received::json).collect();
    assert_eq!(received[1]["account"]["type"], "github_oauth");
    assert_eq!(received[1]["account"]["username"], "ada");
    let address = wallet.body["linked_accounts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["type"] == "wallet")
        .unwrap()["address"]
        .clone();
    assert_eq!(received[2]["wallet"]["address"], address);
    assert_eq!(received[2]["wallet"]["chain_type"], "ethereum");
    assert_eq!(received[3]["user_id"], user_id.as_str());
    assert_eq!(received[3]["method"], "totp");
}

/// `symbolon serve` is killed (SIGKILL) after a change whose delivery has not succeeded yet (its
/// endpoint was down); started again, it delivers the event, once.
async fn the_outbox_survives_a_kill_and_delivers_once_after_restart(backend: Backend) {
    let url = fresh_database(backend).await;
    let sealing = ("SYMBOLON_KEY_ENCRYPTION_KEY", STANDARD.encode([7u8; 32]));
    let run = |args: &[&str]| {
        let out = symbolon(&url)
            .env(sealing.0, &sealing.1)
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    let app = run(&[
        "apps",
        "create",
        "--name",
        "Hooks",
        "--origin",
        "http://a.test",
    ]);
    let key = run(&["apps", "secret", "create", "--app", &app]);
    // A port nobody listens on yet: the endpoint is down.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let hooks = format!("http://127.0.0.1:{port}/hooks");
    let signing = run(&[
        "webhooks",
        "endpoint",
        "create",
        "--app",
        &app,
        "--url",
        &hooks,
        "--event",
        "user.created",
    ]);
    assert!(signing.starts_with("whsec_"), "{signing}");

    let env = [(sealing.0, sealing.1.as_str())];
    let server = Server::start(&url, &env);
    let http = common::http_client().build().unwrap();
    let basic = STANDARD.encode(format!("{app}:{key}"));
    let created = http
        .post(format!("{}/v1/users", server.base))
        .header("privy-app-id", &app)
        .header("authorization", format!("Basic {basic}"))
        .json(&json!({ "linked_accounts": [{ "type": "email", "address": unique_email() }] }))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 200);
    let user: Value = created.json().await.unwrap();
    let listed = || run(&["webhooks", "deliveries", "--app", &app]);
    let waited = std::time::Instant::now();
    while !listed().contains("\tpending\t1\t") {
        assert!(
            waited.elapsed().as_secs() < 20,
            "no failed first attempt: {}",
            listed()
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    drop(server); // SIGKILL

    let receiver = Receiver::start_on(port).await;
    let server = Server::start(&url, &env);
    let waited = std::time::Instant::now();
    while receiver.received().is_empty() {
        assert!(
            waited.elapsed().as_secs() < 30,
            "not delivered after restart: {}",
            listed()
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    let received = receiver.received();
    assert_eq!(received.len(), 1, "delivered once");
    assert!(signed_by(&received[0], &signing));
    assert_eq!(received[0].json()["type"], "user.created");
    assert_eq!(received[0].json()["user"]["id"], user["id"]);
    let listing = listed();
    assert!(listing.contains("\tdelivered\t2\t204"), "{listing}");
    server.stop();
    remove_database_file(&url);
}

async fn the_sweeper_forgets_finished_events_after_their_time_and_keeps_pending_ones(
    backend: Backend,
) {
    let t = TestApp::start(backend).await;
    let receiver = Receiver::start().await;
    endpoint(&t, &receiver.url, &["user.created"]).await;
    t.login(&unique_email()).await;
    deliver(&t).await;
    receiver.answers.lock().unwrap().push(500);
    t.login(&unique_email()).await;
    deliver(&t).await;
    let statuses = |t: &TestApp| {
        let db = t.state.db.clone();
        let app = t.app_id.clone();
        async move {
            let mut listed: Vec<String> = db
                .webhook_deliveries(&app, None, 10)
                .await
                .unwrap()
                .into_iter()
                .map(|d| d.status)
                .collect();
            listed.sort();
            listed
        }
    };
    assert_eq!(statuses(&t).await, ["delivered", "pending"]);
    let now = t.state.clock.now();
    t.state.db.sweep_expired(now).await.unwrap();
    assert_eq!(
        statuses(&t).await,
        ["delivered", "pending"],
        "kept within their time"
    );
    t.state
        .db
        .sweep_expired(now + symbolon_server::db::webhooks::KEPT_S + 1)
        .await
        .unwrap();
    assert_eq!(
        statuses(&t).await,
        ["pending"],
        "a pending one is never forgotten"
    );
}
