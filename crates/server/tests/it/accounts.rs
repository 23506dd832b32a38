//! The account rules (docs/accounts.md), each from real HTTP calls: sign-up rules, link, unlink,
//! update and transfer, with the limits fired concurrently.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::sync::Arc;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use common::{Backend, TestApp, unique_email};
use serde_json::{Value, json};
use symbolon_protocol::accounts::LoginMethodsAndOrder;
use symbolon_server::app_settings::{Allowlist, AppSettings};
use tokio::task::JoinSet;

const GUEST: &str = "/api/v1/guest/authenticate";
const EMAIL_AUTH: &str = "/api/v1/passwordless/authenticate";
const EMAIL_LINK: &str = "/api/v1/passwordless/link";
const EMAIL_UNLINK: &str = "/api/v1/passwordless/unlink";
const EMAIL_UPDATE: &str = "/api/v1/passwordless/update";
pub(crate) const EMAIL_TRANSFER: &str = "/api/v1/passwordless/transfer";

backend_tests!(
    app_config_lists_the_methods_in_order,
    no_signup_mode_is_user_does_not_exist,
    signup_can_be_disabled,
    methods_the_app_does_not_enable_are_refused,
    allowlist_admits_listed_accounts_and_their_users,
    user_limit_holds_under_concurrent_signups,
    guest_credentials_sign_the_same_guest_in,
    malformed_guest_credentials_are_invalid_data,
    a_guest_who_logs_in_with_email_keeps_their_user,
    linking_needs_a_session,
    a_second_email_is_cannot_link_more_of_type,
    concurrent_links_of_one_type_link_one,
    linking_what_you_have_is_a_no_op,
    an_email_of_another_user_is_offered_for_transfer,
    a_transfer_nonce_works_once_even_concurrently,
    a_transfer_never_strands_a_wallet,
    unlink_refuses_unknown_and_last_accounts,
    update_replaces_the_address,
    update_refuses_taken_and_missing_addresses,
    account_changes_need_a_recent_sign_in,
);

fn settings(adjust: impl FnOnce(&mut AppSettings)) -> AppSettings {
    let mut settings = AppSettings {
        guest_accounts: true,
        ..AppSettings::default()
    };
    adjust(&mut settings);
    settings
}

fn credential(byte: u8) -> String {
    URL_SAFE_NO_PAD.encode([byte; 32])
}

async fn guest(t: &TestApp, credential: &str) -> Value {
    let reply = t
        .post(GUEST, json!({ "guest_credential": credential }))
        .send()
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.body
}

pub(crate) fn token(session: &Value) -> &str {
    session["token"].as_str().expect("access token")
}

/// Sends a code to `email` and links it with the session's token.
async fn link_email(t: &TestApp, session: &Value, email: &str) -> common::Reply {
    let code = t.send_code(email).await;
    t.post(EMAIL_LINK, json!({ "email": email, "code": code }))
        .bearer(token(session))
        .send()
        .await
}

fn account_types(user: &Value) -> Vec<String> {
    user["linked_accounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["type"].as_str().unwrap().to_string())
        .collect()
}

async fn app_config_lists_the_methods_in_order(backend: Backend) {
    let t = TestApp::start(backend).await;
    t.set_settings(settings(|s| {
        s.login_methods = LoginMethodsAndOrder {
            primary: vec!["sms".into(), "email".into()],
            overflow: vec![],
        };
    }))
    .await;
    let reply = t.get(&format!("/api/v1/apps/{}", t.app_id)).send().await;
    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.body["login_methods_and_order"],
        json!({ "primary": ["sms", "email"], "overflow": [] })
    );
    assert_eq!(reply.body["sms_auth"], true);
    assert_eq!(reply.body["email_auth"], true);
    assert_eq!(reply.body["guest_auth"], true);
    assert_eq!(reply.body["custom_jwt_auth"], false);
}

async fn no_signup_mode_is_user_does_not_exist(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let code = t.send_code(&email).await;
    t.post(
        EMAIL_AUTH,
        json!({ "email": email, "code": code, "mode": "no-signup" }),
    )
    .send()
    .await
    .assert_error(400, "user_does_not_exist");
}

async fn signup_can_be_disabled(backend: Backend) {
    let t = TestApp::start(backend).await;
    let existing = unique_email();
    t.login(&existing).await;
    t.set_settings(settings(|s| s.signup_enabled = false)).await;
    let email = unique_email();
    let code = t.send_code(&email).await;
    t.post(EMAIL_AUTH, json!({ "email": email, "code": code }))
        .send()
        .await
        .assert_error(403, "signup_disabled");
    // Existing users still sign in.
    t.login(&existing).await;
}

async fn methods_the_app_does_not_enable_are_refused(backend: Backend) {
    let t = TestApp::start(backend).await;
    t.post(GUEST, json!({ "guest_credential": credential(1) }))
        .send()
        .await
        .assert_error(403, "disallowed_login_method");
    // A code sent before the app turned email off no longer signs in; no new code is sent.
    let email = unique_email();
    let code = t.send_code(&email).await;
    t.set_settings(settings(|s| s.login_methods.primary = vec!["sms".into()]))
        .await;
    t.post(EMAIL_AUTH, json!({ "email": email, "code": code }))
        .send()
        .await
        .assert_error(403, "disallowed_login_method");
    t.post("/api/v1/passwordless/init", json!({ "email": email }))
        .send()
        .await
        .assert_error(403, "disallowed_login_method");
}

async fn allowlist_admits_listed_accounts_and_their_users(backend: Backend) {
    let t = TestApp::start(backend).await;
    let listed = unique_email();
    t.set_settings(settings(|s| {
        s.allowlist = Some(Allowlist {
            emails: vec![listed.to_uppercase()],
            ..Allowlist::default()
        });
    }))
    .await;
    let stranger = unique_email();
    let code = t.send_code(&stranger).await;
    t.post(EMAIL_AUTH, json!({ "email": stranger, "code": code }))
        .send()
        .await
        .assert_error(403, "allowlist_rejected");
    t.post(GUEST, json!({ "guest_credential": credential(2) }))
        .send()
        .await
        .assert_error(403, "allowlist_rejected");
    let session = t.login(&listed).await;
    assert_eq!(session["is_new_user"], true);
}

async fn user_limit_holds_under_concurrent_signups(backend: Backend) {
    let t = Arc::new(TestApp::start(backend).await);
    t.set_settings(settings(|s| s.max_users = Some(3))).await;
    let mut calls = JoinSet::new();
    for i in 0..12u8 {
        let t = Arc::clone(&t);
        calls.spawn(async move {
            let reply = t
                .post(GUEST, json!({ "guest_credential": credential(100 + i) }))
                .send()
                .await;
            (100 + i, reply)
        });
    }
    let (mut created, mut refused, mut admitted) = (0, 0, 0);
    while let Some(joined) = calls.join_next().await {
        let (byte, reply) = joined.unwrap();
        match reply.status.as_u16() {
            200 => {
                created += 1;
                admitted = byte;
            }
            _ => {
                reply.assert_error(403, "max_accounts_reached");
                refused += 1;
            }
        }
    }
    assert_eq!((created, refused), (3, 9));
    // Existing users still sign in at the limit.
    guest(&t, &credential(admitted)).await;
}

async fn guest_credentials_sign_the_same_guest_in(backend: Backend) {
    let t = TestApp::start(backend).await;
    t.set_settings(settings(|_| {})).await;
    let first = guest(&t, &credential(3)).await;
    assert_eq!(first["is_new_user"], true);
    assert_eq!(first["user"]["is_guest"], true);
    // The credential is a secret: no linked account shows it.
    assert_eq!(first["user"]["linked_accounts"], json!([]));
    let again = guest(&t, &credential(3)).await;
    assert_eq!(again["is_new_user"], false);
    assert_eq!(again["user"]["id"], first["user"]["id"]);
    let other = guest(&t, &credential(4)).await;
    assert_ne!(other["user"]["id"], first["user"]["id"]);
}

async fn malformed_guest_credentials_are_invalid_data(backend: Backend) {
    let t = TestApp::start(backend).await;
    t.set_settings(settings(|_| {})).await;
    for bad in [
        json!({ "guest_credential": URL_SAFE_NO_PAD.encode([1u8; 16]) }),
        json!({ "guest_credential": "****" }),
        json!({ "guest_credential": 5 }),
        json!({}),
    ] {
        t.post(GUEST, bad)
            .send()
            .await
            .assert_error(400, "invalid_data");
    }
}

async fn a_guest_who_logs_in_with_email_keeps_their_user(backend: Backend) {
    let t = TestApp::start(backend).await;
    t.set_settings(settings(|_| {})).await;
    let guest_session = guest(&t, &credential(5)).await;
    let email = unique_email();
    let code = t.send_code(&email).await;
    let reply = t
        .post(EMAIL_AUTH, json!({ "email": email, "code": code }))
        .bearer(token(&guest_session))
        .send()
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.body["user"]["id"], guest_session["user"]["id"]);
    assert_eq!(reply.body["user"]["is_guest"], false);
    assert_eq!(reply.body["is_new_user"], false);
    // The upgraded guest's credential is no way in any more (it was a standing password in the
    // host page's storage): presented again, it makes a new, empty guest.
    let replayed = guest(&t, &credential(5)).await;
    assert_eq!(replayed["is_new_user"], true);
    assert_ne!(replayed["user"]["id"], guest_session["user"]["id"]);
    // A guest token does not move an email someone else already owns: that is their login.
    let owner = unique_email();
    let owner_session = t.login(&owner).await;
    let other_guest = guest(&t, &credential(6)).await;
    let code = t.send_code(&owner).await;
    let reply = t
        .post(EMAIL_AUTH, json!({ "email": owner, "code": code }))
        .bearer(token(&other_guest))
        .send()
        .await;
    assert_eq!(reply.body["user"]["id"], owner_session["user"]["id"]);
}

async fn linking_needs_a_session(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let code = t.send_code(&email).await;
    t.post(EMAIL_LINK, json!({ "email": email, "code": code }))
        .send()
        .await
        .assert_error(401, "missing_or_invalid_token");
}

async fn a_second_email_is_cannot_link_more_of_type(backend: Backend) {
    let t = TestApp::start(backend).await;
    let session = t.login(&unique_email()).await;
    let reply = link_email(&t, &session, &unique_email()).await;
    reply.assert_error(422, "cannot_link_more_of_type");
    assert_eq!(
        reply.body["error"],
        "User already has an account of type email linked."
    );
}

async fn concurrent_links_of_one_type_link_one(backend: Backend) {
    let t = Arc::new(TestApp::start(backend).await);
    t.set_settings(settings(|_| {})).await;
    let session = Arc::new(guest(&t, &credential(7)).await);
    let mut codes = Vec::new();
    for _ in 0..6 {
        let email = unique_email();
        codes.push((t.send_code(&email).await, email));
    }
    let mut calls = JoinSet::new();
    for (code, email) in codes {
        let (t, session) = (Arc::clone(&t), Arc::clone(&session));
        calls.spawn(async move {
            t.post(EMAIL_LINK, json!({ "email": email, "code": code }))
                .bearer(token(&session))
                .send()
                .await
        });
    }
    let mut linked = 0;
    while let Some(reply) = calls.join_next().await {
        let reply = reply.unwrap();
        if reply.status == 200 {
            linked += 1;
        } else {
            reply.assert_error(422, "cannot_link_more_of_type");
        }
    }
    assert_eq!(linked, 1);
    let me = t
        .get("/api/v1/users/me")
        .bearer(token(&session))
        .send()
        .await;
    assert_eq!(account_types(&me.body["user"]), vec!["email"]);
    assert_eq!(me.body["user"]["is_guest"], false);
}

async fn linking_what_you_have_is_a_no_op(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let session = t.login(&email).await;
    let reply = link_email(&t, &session, &email).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(account_types(&reply.body), vec!["email"]);
}

/// A guest links an email that belongs to a user signed up by email: a transfer offer.
pub(crate) async fn offer(t: &TestApp, byte: u8) -> (Value, Value, String, String) {
    t.set_settings(settings(|_| {})).await;
    let email = unique_email();
    let owner = t.login(&email).await;
    let taker = guest(t, &credential(byte)).await;
    let reply = link_email(t, &taker, &email).await;
    reply.assert_error(403, "account_transfer_required");
    let data = &reply.body["data"];
    assert_eq!(data["account_type"], "email");
    assert_eq!(data["display_name"], email.as_str());
    let nonce = data["nonce"].as_str().expect("nonce").to_string();
    (owner, taker, email, nonce)
}

async fn an_email_of_another_user_is_offered_for_transfer(backend: Backend) {
    let t = TestApp::start(backend).await;
    let (owner, taker, email, nonce) = offer(&t, 8).await;
    // The nonce is bound to the account and the user it was offered to.
    let stranger = guest(&t, &credential(9)).await;
    t.post(EMAIL_TRANSFER, json!({ "nonce": nonce, "email": email }))
        .bearer(token(&stranger))
        .send()
        .await
        .assert_error(401, "token_already_used");
    let reply = t
        .post(EMAIL_TRANSFER, json!({ "nonce": nonce, "email": email }))
        .bearer(token(&taker))
        .send()
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(account_types(&reply.body), vec!["email"]);
    // The former owner had nothing else: the user is gone, and so is its session.
    t.get("/api/v1/users/me")
        .bearer(token(&owner))
        .send()
        .await
        .assert_error(401, "missing_or_invalid_token");
    let again = t.login(&email).await;
    assert_eq!(again["user"]["id"], taker["user"]["id"]);
}

async fn a_transfer_nonce_works_once_even_concurrently(backend: Backend) {
    let t = Arc::new(TestApp::start(backend).await);
    let (_, taker, email, nonce) = offer(&t, 10).await;
    let taker = Arc::new(taker);
    let mut calls = JoinSet::new();
    for _ in 0..10 {
        let (t, taker, email, nonce) = (
            Arc::clone(&t),
            Arc::clone(&taker),
            email.clone(),
            nonce.clone(),
        );
        calls.spawn(async move {
            t.post(EMAIL_TRANSFER, json!({ "nonce": nonce, "email": email }))
                .bearer(token(&taker))
                .send()
                .await
        });
    }
    let mut moved = 0;
    while let Some(reply) = calls.join_next().await {
        let reply = reply.unwrap();
        if reply.status == 200 {
            moved += 1;
        } else {
            reply.assert_error(401, "token_already_used");
        }
    }
    assert_eq!(moved, 1);
}

async fn a_transfer_never_strands_a_wallet(backend: Backend) {
    let t = TestApp::start(backend).await;
    t.set_settings(settings(|_| {})).await;
    let email = unique_email();
    let owner = t.login(&email).await;
    let owner_id = owner["user"]["id"].as_str().unwrap();
    give_embedded_wallet(&t, owner_id).await;
    let taker = guest(&t, &credential(11)).await;
    // The owner's only way in is this email and they have a wallet: no transfer is offered.
    link_email(&t, &taker, &email)
        .await
        .assert_error(422, "linked_to_another_user");
}

async fn unlink_refuses_unknown_and_last_accounts(backend: Backend) {
    let t = TestApp::start(backend).await;
    t.set_settings(settings(|_| {})).await;
    let email = unique_email();
    let session = t.login(&email).await;
    t.post(EMAIL_UNLINK, json!({ "address": unique_email() }))
        .bearer(token(&session))
        .send()
        .await
        .assert_error(404, "linked_account_not_found");
    t.post(EMAIL_UNLINK, json!({ "address": email }))
        .bearer(token(&session))
        .send()
        .await
        .assert_error(422, "cannot_unlink_sole_account");
    // A guest who links an email stops being a guest and loses the credential as a way in (it would
    // be a hidden password in the host page's storage): the email is now their last way in.
    let guest_session = guest(&t, &credential(12)).await;
    let linked = unique_email();
    assert_eq!(link_email(&t, &guest_session, &linked).await.status, 200);
    t.post(EMAIL_UNLINK, json!({ "address": linked.to_uppercase() }))
        .bearer(token(&guest_session))
        .send()
        .await
        .assert_error(422, "cannot_unlink_sole_account");
    let replayed = guest(&t, &credential(12)).await;
    assert_ne!(replayed["user"]["id"], guest_session["user"]["id"]);
}

async fn update_replaces_the_address(backend: Backend) {
    let t = TestApp::start(backend).await;
    let old = unique_email();
    let session = t.login(&old).await;
    let new = unique_email();
    let code = t.send_code(&new).await;
    let reply = t
        .post(
            EMAIL_UPDATE,
            json!({ "oldAddress": old, "newAddress": new, "code": code }),
        )
        .bearer(token(&session))
        .send()
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.body["linked_accounts"][0]["address"], new.as_str());
    let again = t.login(&new).await;
    assert_eq!(again["user"]["id"], session["user"]["id"]);
    // The old address now belongs to nobody: it signs up a new user.
    assert_eq!(t.login(&old).await["is_new_user"], true);
}

async fn update_refuses_taken_and_missing_addresses(backend: Backend) {
    let t = TestApp::start(backend).await;
    let mine = unique_email();
    let session = t.login(&mine).await;
    let taken = unique_email();
    t.login(&taken).await;
    let code = t.send_code(&taken).await;
    t.post(
        EMAIL_UPDATE,
        json!({ "oldAddress": mine, "newAddress": taken, "code": code }),
    )
    .bearer(token(&session))
    .send()
    .await
    .assert_error(422, "linked_to_another_user");
    // "Updating" another user's address to itself is not a way to touch their account: the same
    // address is refused before anything else.
    let code = t.send_code(&taken).await;
    t.post(
        EMAIL_UPDATE,
        json!({ "oldAddress": taken, "newAddress": taken, "code": code }),
    )
    .bearer(token(&session))
    .send()
    .await
    .assert_error(400, "invalid_data");
    // Nor is one's own address (in another case) a silent success: a clear 400 names it.
    let code = t.send_code(&mine).await;
    let same = t
        .post(
            EMAIL_UPDATE,
            json!({ "oldAddress": mine, "newAddress": mine.to_uppercase(), "code": code }),
        )
        .bearer(token(&session))
        .send()
        .await;
    assert_eq!(same.status, 400, "{}", same.text);
    assert_eq!(same.body["code"], "invalid_data");
    assert_eq!(
        same.body["error"],
        "The new address is the same as the current one."
    );
    let fresh = unique_email();
    let code = t.send_code(&fresh).await;
    t.post(
        EMAIL_UPDATE,
        json!({ "oldAddress": unique_email(), "newAddress": fresh, "code": code }),
    )
    .bearer(token(&session))
    .send()
    .await
    .assert_error(404, "linked_account_not_found");
}

/// Stores an embedded wallet row for `user_id` (no shares: only its existence matters here).
async fn give_embedded_wallet(t: &TestApp, user_id: &str) {
    let wallet = symbolon_server::db::wallets::EmbeddedWalletRecord {
        id: symbolon_server::random::random_id(25).unwrap(),
        app_id: t.app_id.clone(),
        user_id: user_id.into(),
        address: "0x52908400098527886E0F7030069857D2E4169EE7".into(),
        chain_type: "ethereum".into(),
        wallet_index: 0,
        recovery_method: "privy".into(),
        imported: false,
        created_at: 1,
    };
    t.state
        .db
        .create_embedded_wallet(&wallet, None, &[])
        .await
        .unwrap();
}

/// A stolen access token must not add the thief's way in (a fresh sign-in through it would get
/// the wallet's recovery share): account changes need a sign-in within 10 minutes, and a refresh
/// does not renew it.
async fn account_changes_need_a_recent_sign_in(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let session = t.login(&email).await;
    t.state.clock.advance(601);
    let refreshed = t
        .post(
            "/api/v1/sessions",
            json!({ "refresh_token": session["refresh_token"] }),
        )
        .send()
        .await;
    assert_eq!(refreshed.status, 200, "{}", refreshed.text);
    let thief = unique_email();
    let code = t.send_code(&thief).await;
    for bearer in [token(&session), token(&refreshed.body)] {
        t.post(EMAIL_LINK, json!({ "email": thief, "code": code }))
            .bearer(bearer)
            .send()
            .await
            .assert_error(403, "missing_or_invalid_mfa");
    }
    t.post(EMAIL_UNLINK, json!({ "address": email }))
        .bearer(token(&refreshed.body))
        .send()
        .await
        .assert_error(403, "missing_or_invalid_mfa");
    // The refused link spent no guess: the code still links after a fresh sign-in.
    let fresh = t.login(&email).await;
    let reply = t
        .post(
            EMAIL_UPDATE,
            json!({ "oldAddress": email, "newAddress": thief, "code": code }),
        )
        .bearer(token(&fresh))
        .send()
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
}
