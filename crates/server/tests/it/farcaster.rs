//! Sign In With Farcaster over HTTP, through the local Farcaster relay and the ID-registry
//! stand-in on anvil (`node tools/stack/bin/services.mjs --farcaster`): relay login after
//! approval, the message checks (signature, custody, domain, time, fid resource, single-use nonce),
//! Mini App (v2) login, and the account rules for `farcaster` accounts.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::sync::{Arc, OnceLock};

use common::{Backend, Reply, TestApp, unique_email};
use serde_json::{Value, json};
use symbolon_protocol::accounts::LoginMethodsAndOrder;
use symbolon_server::app_settings::AppSettings;
use symbolon_server::app_settings::farcaster::FarcasterSettings;
use symbolon_wallet_core::chains::ethereum::{PrivateKey, personal_sign};
use symbolon_wallet_core::decode_hex;
use tokio::task::JoinSet;

const INIT: &str = "/api/v1/farcaster/init";
const STATUS: &str = "/api/v1/farcaster/status";
const AUTH: &str = "/api/v1/farcaster/authenticate";
const LINK: &str = "/api/v1/farcaster/link";
const UNLINK: &str = "/api/v1/farcaster/unlink";
const TRANSFER: &str = "/api/v1/farcaster/transfer";
const INIT_V2: &str = "/api/v2/farcaster/init";
const SIGNER_INIT: &str = "/api/v1/farcaster/signer/init";
const SIGNER_STATUS: &str = "/api/v1/farcaster/signer/status";
const AUTH_V2: &str = "/api/v2/farcaster/authenticate";
/// The SIWE domain of the test origin `http://localhost:3000`.
const DOMAIN: &str = "localhost:3000";
/// A key no fid has as custody.
const STRANGER_KEY: &str = "0x1111111111111111111111111111111111111111111111111111111111111111";

backend_tests!(
    relay_login_after_approval_signs_up_then_in,
    channel_status_needs_a_known_token,
    a_wrong_signature_is_refused,
    a_signer_that_is_not_the_custody_address_is_refused,
    a_message_for_another_domain_is_refused,
    an_expired_message_is_refused,
    the_fid_must_match_the_resource,
    a_nonce_is_used_once_even_concurrently,
    mini_app_v2_login,
    farcaster_is_refused_when_the_app_does_not_offer_it,
    link_unlink_and_transfer_rules,
    a_signer_is_approved_on_the_relay_and_shows_on_the_account,
    a_signer_can_be_revoked_or_approved_by_another_fid,
    signers_need_a_farcaster_account_and_the_apps_requester,
);

/// The relay and chain of this test binary (started once, separate from the shared services).
struct Farcaster {
    relay_url: String,
    rpc_url: String,
    registry: String,
    accounts: Vec<Value>,
    app_account: Value,
}

static FARCASTER: OnceLock<Farcaster> = OnceLock::new();

fn farcaster() -> &'static Farcaster {
    FARCASTER.get_or_init(|| {
        let v = common::spawn_services(&["--farcaster"]);
        Farcaster {
            relay_url: v["farcasterRelayUrl"]
                .as_str()
                .unwrap()
                .replace("localhost", "127.0.0.1"),
            rpc_url: v["farcasterRpcUrl"].as_str().unwrap().into(),
            registry: v["farcasterIdRegistry"].as_str().unwrap().into(),
            accounts: v["farcasterAccounts"].as_array().unwrap().clone(),
            app_account: v["farcasterAppAccount"].clone(),
        }
    })
}

fn settings() -> AppSettings {
    let f = farcaster();
    AppSettings {
        login_methods: LoginMethodsAndOrder {
            primary: vec!["email".into(), "farcaster".into()],
            overflow: vec![],
        },
        farcaster: FarcasterSettings {
            relay_url: f.relay_url.clone(),
            rpc_url: f.rpc_url.clone(),
            id_registry_address: f.registry.clone(),
            signer_api_url: f.relay_url.clone(),
            signer_request_fid: f.app_account["fid"].as_u64(),
            signer_request_key: f.app_account["privateKey"].as_str().map(Into::into),
        },
        ..AppSettings::default()
    }
}

async fn start(backend: Backend) -> TestApp {
    let t = TestApp::start(backend).await;
    t.set_settings(settings()).await;
    t
}

/// Test account `i` (0: alice 1001, 1: bob 1002, 2: carol 1003): fid and custody key.
fn account(i: usize) -> (u64, PrivateKey) {
    let a = &farcaster().accounts[i];
    (
        a["fid"].as_u64().unwrap(),
        key(a["privateKey"].as_str().unwrap()),
    )
}

fn key(hex: &str) -> PrivateKey {
    PrivateKey::from_bytes(&decode_hex(hex).unwrap()).unwrap()
}

/// A Sign In With Farcaster message as the Farcaster app writes it.
fn siwf(domain: &str, signer: &PrivateKey, nonce: &str, fid: u64, expires: Option<&str>) -> String {
    let address = signer.address().to_checksum();
    let mut text = format!(
        "{domain} wants you to sign in with your Ethereum account:\n{address}\n\nFarcaster Auth\n\n\
         URI: http://{domain}\nVersion: 1\nChain ID: 10\nNonce: {nonce}\nIssued At: 2026-01-01T00:00:00Z"
    );
    if let Some(expires) = expires {
        text.push_str(&format!("\nExpiration Time: {expires}"));
    }
    text.push_str(&format!("\nResources:\n- farcaster://fid/{fid}"));
    text
}

fn sign(key: &PrivateKey, message: &str) -> String {
    personal_sign(key, message.as_bytes()).unwrap().to_hex()
}

/// Opens a channel, approves it on the relay as test account `i`, and returns the completed
/// status with the channel token in `channel_token`.
async fn approved_channel(t: &TestApp, i: usize) -> Value {
    let init = t.post(INIT, json!({})).send().await;
    assert_eq!(init.status, 200, "{}", init.text);
    let token = init.body["channel_token"].as_str().unwrap().to_string();
    assert!(
        init.body["connect_uri"]
            .as_str()
            .unwrap()
            .starts_with("farcaster://connect?")
    );
    let approve = t
        .http
        .post(format!("{}/approve", farcaster().relay_url))
        .json(&json!({ "channelToken": token, "fid": account(i).0 }))
        .send()
        .await
        .unwrap();
    assert_eq!(approve.status(), 200);
    let status = t
        .get(STATUS)
        .header("farcaster-channel-token", &token)
        .send()
        .await;
    assert_eq!(status.status, 200, "{}", status.text);
    assert_eq!(status.body["state"], "completed");
    assert_eq!(status.body["nonce"], init.body["nonce"]);
    let mut body = status.body;
    body["channel_token"] = json!(token);
    body
}

fn proof(status: &Value) -> Value {
    json!({
        "channel_token": status["channel_token"],
        "message": status["message"],
        "signature": status["signature"],
        "fid": status["fid"],
    })
}

fn token(session: &Value) -> &str {
    session["token"].as_str().unwrap()
}

fn farcaster_account(user: &Value) -> Option<Value> {
    user["linked_accounts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["type"] == "farcaster")
        .cloned()
}

async fn relay_login(t: &TestApp, i: usize) -> Value {
    let status = approved_channel(t, i).await;
    let reply = t.post(AUTH, proof(&status)).send().await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.body
}

async fn relay_login_after_approval_signs_up_then_in(backend: Backend) {
    let t = start(backend).await;
    let first = relay_login(&t, 0).await;
    assert_eq!(first["is_new_user"], true);
    let account = farcaster_account(&first["user"]).expect("farcaster account");
    let (fid, custody) = account_summary(0);
    assert_eq!(account["fid"], fid);
    assert_eq!(account["owner_address"], custody);
    assert_eq!(account["username"], "alice");
    assert_eq!(account["display_name"], "Alice Test");
    assert!(account["profile_picture_url"].is_string());
    assert_eq!(account["signer_public_key"], Value::Null);
    let again = relay_login(&t, 0).await;
    assert_eq!(again["is_new_user"], false);
    assert_eq!(again["user"]["id"], first["user"]["id"]);
}

fn account_summary(i: usize) -> (u64, String) {
    let a = &farcaster().accounts[i];
    (
        a["fid"].as_u64().unwrap(),
        a["custody"].as_str().unwrap().into(),
    )
}

async fn channel_status_needs_a_known_token(backend: Backend) {
    let t = start(backend).await;
    t.get(STATUS).send().await.assert_error(400, "invalid_data");
    t.get(STATUS)
        .header("farcaster-channel-token", "not-a-channel")
        .send()
        .await
        .assert_error(401, "invalid_credentials");
    let init = t.post(INIT, json!({})).send().await;
    let token = init.body["channel_token"].as_str().unwrap();
    let pending = t
        .get(STATUS)
        .header("farcaster-channel-token", token)
        .send()
        .await;
    assert_eq!(pending.status, 200, "{}", pending.text);
    assert_eq!(pending.body["state"], "pending");
    // Another app cannot poll this app's channel.
    let other = t.create_app(false).await;
    t.get(STATUS)
        .header("privy-app-id", &other)
        .header("farcaster-channel-token", token)
        .send()
        .await
        .assert_error(401, "invalid_credentials");
}

async fn a_wrong_signature_is_refused(backend: Backend) {
    let t = start(backend).await;
    let status = approved_channel(&t, 0).await;
    let mut body = proof(&status);
    // Another message's signature by the same custody key.
    let (_, alice) = account(0);
    body["signature"] = json!(sign(&alice, "something else"));
    t.post(AUTH, body.clone())
        .send()
        .await
        .assert_error(401, "invalid_credentials");
    body["signature"] = json!("0x1234");
    t.post(AUTH, body)
        .send()
        .await
        .assert_error(401, "invalid_credentials");
    // The refusals did not spend the nonce: the real signature still signs in.
    let reply = t.post(AUTH, proof(&status)).send().await;
    assert_eq!(reply.status, 200, "{}", reply.text);
}

async fn a_signer_that_is_not_the_custody_address_is_refused(backend: Backend) {
    let t = start(backend).await;
    let (alice_fid, _) = account(0);
    let (_, bob) = account(1);
    for signer in [key(STRANGER_KEY), bob] {
        let nonce = v2_nonce(&t).await;
        let message = siwf(DOMAIN, &signer, &nonce, alice_fid, None);
        let reply = auth_v2(&t, &signer, &message, alice_fid).await;
        reply.assert_error(401, "invalid_credentials");
        assert!(reply.text.contains("custody"), "{}", reply.text);
    }
}

async fn a_message_for_another_domain_is_refused(backend: Backend) {
    let t = start(backend).await;
    let (fid, alice) = account(0);
    let nonce = v2_nonce(&t).await;
    let message = siwf("evil.example", &alice, &nonce, fid, None);
    let reply = auth_v2(&t, &alice, &message, fid).await;
    reply.assert_error(401, "invalid_credentials");
    assert!(reply.text.contains("another domain"), "{}", reply.text);
}

async fn an_expired_message_is_refused(backend: Backend) {
    let t = start(backend).await;
    let (fid, alice) = account(0);
    let nonce = v2_nonce(&t).await;
    let message = siwf(DOMAIN, &alice, &nonce, fid, Some("2026-01-01T00:05:00Z"));
    let reply = auth_v2(&t, &alice, &message, fid).await;
    reply.assert_error(401, "invalid_credentials");
    assert!(reply.text.contains("expired"), "{}", reply.text);
    // A nonce this server never issued (or one gone) is refused too.
    let message = siwf(DOMAIN, &alice, "neverissued1234", fid, None);
    auth_v2(&t, &alice, &message, fid)
        .await
        .assert_error(401, "invalid_credentials");
}

async fn the_fid_must_match_the_resource(backend: Backend) {
    let t = start(backend).await;
    let (fid, alice) = account(0);
    let nonce = v2_nonce(&t).await;
    let message = siwf(DOMAIN, &alice, &nonce, fid, None);
    let reply = auth_v2(&t, &alice, &message, fid + 1).await;
    reply.assert_error(401, "invalid_credentials");
    assert!(reply.text.contains("Farcaster id"), "{}", reply.text);
    // Through the relay: the approved message names alice's fid, the request bob's.
    let status = approved_channel(&t, 0).await;
    let mut body = proof(&status);
    body["fid"] = json!(account(1).0);
    t.post(AUTH, body)
        .send()
        .await
        .assert_error(401, "invalid_credentials");
}

async fn a_nonce_is_used_once_even_concurrently(backend: Backend) {
    let t = Arc::new(start(backend).await);
    let (fid, alice) = account(0);
    let nonce = v2_nonce(&t).await;
    let message = siwf(DOMAIN, &alice, &nonce, fid, None);
    let body = v2_proof(&alice, &message, fid);
    let mut set = JoinSet::new();
    for _ in 0..8 {
        let t = t.clone();
        let body = body.clone();
        set.spawn(async move { t.post(AUTH_V2, body).send().await });
    }
    let mut ok = 0;
    while let Some(reply) = set.join_next().await {
        let reply = reply.unwrap();
        if reply.status == 200 {
            ok += 1;
        } else {
            reply.assert_error(401, "invalid_credentials");
        }
    }
    assert_eq!(ok, 1);
    // Relay channels too: a completed channel signs in once.
    let status = approved_channel(&t, 1).await;
    assert_eq!(t.post(AUTH, proof(&status)).send().await.status, 200);
    t.post(AUTH, proof(&status))
        .send()
        .await
        .assert_error(401, "invalid_credentials");
}

/// The Sign In With Farcaster proof `signer` gives for `message`.
fn v2_proof(signer: &PrivateKey, message: &str, fid: u64) -> Value {
    json!({ "message": message, "signature": sign(signer, message), "fid": fid })
}

async fn auth_v2(t: &TestApp, signer: &PrivateKey, message: &str, fid: u64) -> Reply {
    t.post(AUTH_V2, v2_proof(signer, message, fid)).send().await
}

async fn v2_nonce(t: &TestApp) -> String {
    let reply = t.post(INIT_V2, json!({})).send().await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert!(reply.body["expires_at"].as_str().unwrap().ends_with('Z'));
    reply.body["nonce"].as_str().unwrap().into()
}

async fn mini_app_v2_login(backend: Backend) {
    let t = start(backend).await;
    let (fid, carol) = account(2);
    let nonce = v2_nonce(&t).await;
    let message = siwf(DOMAIN, &carol, &nonce, fid, Some("2099-01-01T00:00:00Z"));
    let reply = auth_v2(&t, &carol, &message, fid).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.body["is_new_user"], true);
    let account = farcaster_account(&reply.body["user"]).unwrap();
    assert_eq!(account["fid"], fid);
    assert_eq!(account["owner_address"], carol.address().to_checksum());
    // A v2 nonce is not a relay channel's, and the other way round.
    let status = approved_channel(&t, 2).await;
    let mut body = proof(&status);
    body.as_object_mut().unwrap().remove("channel_token");
    t.post(AUTH_V2, body)
        .send()
        .await
        .assert_error(401, "invalid_credentials");
}

async fn farcaster_is_refused_when_the_app_does_not_offer_it(backend: Backend) {
    let t = TestApp::start(backend).await;
    t.post(INIT, json!({}))
        .send()
        .await
        .assert_error(403, "disallowed_login_method");
    t.post(INIT_V2, json!({}))
        .send()
        .await
        .assert_error(403, "disallowed_login_method");
}

async fn link_unlink_and_transfer_rules(backend: Backend) {
    let t = start(backend).await;
    let email_user = t.login(&unique_email()).await;
    let status = approved_channel(&t, 0).await;
    let reply = t
        .post(LINK, proof(&status))
        .bearer(token(&email_user))
        .send()
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(farcaster_account(&reply.body).unwrap()["username"], "alice");
    // The fid now signs in to the email user.
    let session = relay_login(&t, 0).await;
    assert_eq!(session["user"]["id"], email_user["user"]["id"]);
    // A second fid is one too many (one account per type).
    let status = approved_channel(&t, 1).await;
    t.post(LINK, proof(&status))
        .bearer(token(&email_user))
        .send()
        .await
        .assert_error(422, "cannot_link_more_of_type");

    // Another user linking alice's fid is offered a transfer, which moves it.
    let other = t.login(&unique_email()).await;
    let status = approved_channel(&t, 0).await;
    let refused = t
        .post(LINK, proof(&status))
        .bearer(token(&other))
        .send()
        .await;
    refused.assert_error(403, "account_transfer_required");
    let nonce = refused.body["data"]["nonce"].as_str().unwrap().to_string();
    let (alice_fid, _) = account(0);
    let moved = t
        .post(
            TRANSFER,
            json!({ "nonce": nonce, "farcaster_id": alice_fid }),
        )
        .bearer(token(&other))
        .send()
        .await;
    assert_eq!(moved.status, 200, "{}", moved.text);
    assert_eq!(farcaster_account(&moved.body).unwrap()["fid"], alice_fid);

    // Unlink: not a linked fid → 404; the only way in → 422; else removed.
    t.post(UNLINK, json!({ "fid": 424242 }))
        .bearer(token(&other))
        .send()
        .await
        .assert_error(404, "linked_account_not_found");
    let reply = t
        .post(UNLINK, json!({ "fid": alice_fid }))
        .bearer(token(&other))
        .send()
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert!(farcaster_account(&reply.body).is_none());
    let (carol_fid, _) = account(2);
    let sole = relay_login(&t, 2).await;
    t.post(UNLINK, json!({ "fid": carol_fid }))
        .bearer(token(&sole))
        .send()
        .await
        .assert_error(422, "cannot_unlink_sole_account");
}

/// Asks for a signer of `key` as the session's user.
async fn request_signer(t: &TestApp, session: &Value, key: &str) -> Value {
    let reply = t
        .post(SIGNER_INIT, json!({ "ed25519_public_key": key }))
        .bearer(token(session))
        .send()
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.body["status"], "pending_approval");
    assert!(
        reply.body["signer_approval_url"]
            .as_str()
            .unwrap()
            .starts_with("farcaster://signed-key-request?token=")
    );
    reply.body
}

/// What the user does in the Farcaster app: approves (as `fid`) or rejects the request.
async fn decide(t: &TestApp, approval_url: &str, fid: Option<u64>) {
    let token = approval_url.split("token=").nth(1).unwrap();
    let (path, body) = match fid {
        Some(fid) => ("approve", json!({ "token": token, "fid": fid })),
        None => ("revoke", json!({ "token": token })),
    };
    let reply = t
        .http
        .post(format!("{}/signer/{path}", farcaster().relay_url))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
}

async fn signer_status(t: &TestApp, session: &Value, key: &str) -> common::Reply {
    t.post(SIGNER_STATUS, json!({ "ed25519_public_key": key }))
        .bearer(token(session))
        .send()
        .await
}

async fn a_signer_is_approved_on_the_relay_and_shows_on_the_account(backend: Backend) {
    let t = start(backend).await;
    let session = relay_login(&t, 0).await;
    let key = format!("0x{}", "ab".repeat(32));
    let pending = request_signer(&t, &session, &key).await;
    // Polling before approval: still pending; asking again answers the same request.
    let reply = signer_status(&t, &session, &key).await;
    assert_eq!(reply.body["status"], "pending_approval", "{}", reply.text);
    let again = request_signer(&t, &session, &key.to_uppercase().replace("0X", "0x")).await;
    assert_eq!(again["signer_approval_url"], pending["signer_approval_url"]);

    decide(
        &t,
        pending["signer_approval_url"].as_str().unwrap(),
        Some(account(0).0),
    )
    .await;
    let reply = signer_status(&t, &session, &key).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.body["status"], "approved");
    assert_eq!(reply.body["public_key"], key);
    assert!(reply.body.get("signer_approval_url").is_none());
    let me = t
        .get("/api/v1/users/me")
        .bearer(token(&session))
        .send()
        .await;
    let account = farcaster_account(&me.body["user"]).unwrap();
    assert_eq!(account["signer_public_key"], key);
    assert_eq!(account["username"], "alice", "the other details are kept");
}

async fn a_signer_can_be_revoked_or_approved_by_another_fid(backend: Backend) {
    let t = start(backend).await;
    let session = relay_login(&t, 0).await;
    let rejected = format!("0x{}", "01".repeat(32));
    let pending = request_signer(&t, &session, &rejected).await;
    decide(&t, pending["signer_approval_url"].as_str().unwrap(), None).await;
    assert_eq!(
        signer_status(&t, &session, &rejected).await.body["status"],
        "revoked"
    );
    // Added to bob's fid instead of the caller's: not the caller's signer.
    let elsewhere = format!("0x{}", "02".repeat(32));
    let pending = request_signer(&t, &session, &elsewhere).await;
    decide(
        &t,
        pending["signer_approval_url"].as_str().unwrap(),
        Some(account(1).0),
    )
    .await;
    assert_eq!(
        signer_status(&t, &session, &elsewhere).await.body["status"],
        "revoked"
    );
    let me = t
        .get("/api/v1/users/me")
        .bearer(token(&session))
        .send()
        .await;
    assert_eq!(
        farcaster_account(&me.body["user"]).unwrap()["signer_public_key"],
        Value::Null
    );
    // Another user cannot read (or take over) this user's key.
    let other = relay_login(&t, 1).await;
    signer_status(&t, &other, &elsewhere)
        .await
        .assert_error(404, "not_found");
    t.post(SIGNER_INIT, json!({ "ed25519_public_key": elsewhere }))
        .bearer(token(&other))
        .send()
        .await
        .assert_error(404, "not_found");
}

async fn signers_need_a_farcaster_account_and_the_apps_requester(backend: Backend) {
    let t = start(backend).await;
    let key = format!("0x{}", "cd".repeat(32));
    let email_user = t.login(&unique_email()).await;
    t.post(SIGNER_INIT, json!({ "ed25519_public_key": key }))
        .bearer(token(&email_user))
        .send()
        .await
        .assert_error(404, "linked_account_not_found");
    let session = relay_login(&t, 2).await;
    for bad in ["0x1234", "not hex", ""] {
        t.post(SIGNER_INIT, json!({ "ed25519_public_key": bad }))
            .bearer(token(&session))
            .send()
            .await
            .assert_error(400, "invalid_data");
    }
    signer_status(&t, &session, &key)
        .await
        .assert_error(404, "not_found");
    let mut no_requester = settings();
    no_requester.farcaster.signer_request_fid = None;
    t.set_settings(no_requester).await;
    t.post(SIGNER_INIT, json!({ "ed25519_public_key": key }))
        .bearer(token(&session))
        .send()
        .await
        .assert_error(403, "feature_not_enabled");
}
