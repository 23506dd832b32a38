//! SMS login over HTTP, through the real Twilio-speaking SMS catcher: codes, numbers, the
//! account rules for phones (link, unlink, update, transfer), and the shared code limits.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::sync::Arc;

use common::{Backend, TestApp, unique_email, unique_phone};
use serde_json::{Value, json};
use symbolon_protocol::accounts::LoginMethodsAndOrder;
use symbolon_protocol::constants::{OTP_REFUSAL_USED_UP, OTP_REFUSAL_WRONG_PREFIX};
use symbolon_server::app_settings::{AppSettings, SmsSettings};
use tokio::task::JoinSet;

const INIT: &str = "/api/v1/passwordless_sms/init";
const AUTH: &str = "/api/v1/passwordless_sms/authenticate";
const LINK: &str = "/api/v1/passwordless_sms/link";
const UNLINK: &str = "/api/v1/passwordless_sms/unlink";
const UPDATE: &str = "/api/v1/passwordless_sms/update";
const TRANSFER: &str = "/api/v1/passwordless_sms/transfer";

backend_tests!(
    a_texted_code_signs_up_then_in,
    numbers_must_be_real_and_in_the_apps_regions,
    apps_that_do_not_offer_sms_send_nothing,
    malformed_and_wrong_codes_are_refused,
    concurrent_wrong_guesses_check_at_most_five,
    a_phone_links_to_an_email_user_and_unlinks,
    the_last_way_in_cannot_be_unlinked,
    update_replaces_the_number,
    a_number_of_another_user_is_transferred_with_the_nonce,
);

async fn start(backend: Backend) -> TestApp {
    let t = TestApp::start(backend).await;
    t.set_settings(sms_settings(SmsSettings::default())).await;
    t
}

fn sms_settings(sms: SmsSettings) -> AppSettings {
    AppSettings {
        login_methods: LoginMethodsAndOrder {
            primary: vec!["email".into(), "sms".into()],
            overflow: vec![],
        },
        sms,
        ..AppSettings::default()
    }
}

/// Texts a code to `number` and reads it from the catcher.
async fn send(t: &TestApp, number: &str) -> String {
    let reply = t.post(INIT, json!({ "phoneNumber": number })).send().await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    t.latest_sms_code(&e164(number)).await
}

fn e164(number: &str) -> String {
    number
        .chars()
        .filter(|c| *c == '+' || c.is_ascii_digit())
        .collect()
}

/// Signs `number` in; returns the session response.
async fn login(t: &TestApp, number: &str) -> Value {
    let code = send(t, number).await;
    let reply = t
        .post(AUTH, json!({ "phoneNumber": number, "code": code }))
        .send()
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.body
}

fn token(session: &Value) -> &str {
    session["token"].as_str().unwrap()
}

async fn a_texted_code_signs_up_then_in(backend: Backend) {
    let t = start(backend).await;
    let number = unique_phone();
    // The spec client's display form: spaces after the country code.
    let spaced = format!("{} {} {}", &number[..2], &number[2..5], &number[5..]);
    let code = send(&t, &spaced).await;
    let message = t.latest_sms(&number).await;
    assert!(
        message["body"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{code} is your")),
        "{message}"
    );
    let first = t
        .post(AUTH, json!({ "phoneNumber": spaced, "code": code }))
        .send()
        .await;
    assert_eq!(first.status, 200, "{}", first.text);
    assert_eq!(first.body["is_new_user"], true);
    let account = &first.body["user"]["linked_accounts"][0];
    assert_eq!(account["type"], "phone");
    assert_eq!(account["phoneNumber"], number.as_str());
    let again = login(&t, &number).await;
    assert_eq!(again["user"]["id"], first.body["user"]["id"]);
    assert_eq!(again["is_new_user"], false);
}

async fn numbers_must_be_real_and_in_the_apps_regions(backend: Backend) {
    let t = start(backend).await;
    for bad in [
        "+1 555 0100",
        "2015550123",
        "+1 201 555 012a",
        "",
        "+999 1234",
    ] {
        t.post(INIT, json!({ "phoneNumber": bad }))
            .send()
            .await
            .assert_error(400, "invalid_data");
    }
    t.set_settings(sms_settings(SmsSettings {
        allowed_regions: vec!["GB".into()],
    }))
    .await;
    let reply = t
        .post(INIT, json!({ "phoneNumber": unique_phone() }))
        .send()
        .await;
    reply.assert_error(400, "invalid_data");
    assert_eq!(
        reply.body["error"],
        "This app does not send codes to numbers in this region"
    );
    let british = "+44 7400 123456";
    send(&t, british).await;
}

async fn apps_that_do_not_offer_sms_send_nothing(backend: Backend) {
    let t = TestApp::start(backend).await;
    let number = unique_phone();
    t.post(INIT, json!({ "phoneNumber": number }))
        .send()
        .await
        .assert_error(403, "disallowed_login_method");
    assert!(common::sms_messages(&t.http, &number).await.is_empty());
}

async fn malformed_and_wrong_codes_are_refused(backend: Backend) {
    let t = start(backend).await;
    let number = unique_phone();
    let code = send(&t, &number).await;
    for (bad, message) in [
        ("12a456", "Passcode can only be numbers"),
        ("1234567", "Passcode must be exactly 6 numbers"),
    ] {
        let reply = t
            .post(AUTH, json!({ "phoneNumber": number, "code": bad }))
            .send()
            .await;
        reply.assert_error(400, "invalid_data");
        assert_eq!(reply.body["error"], message);
    }
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let reply = t
        .post(AUTH, json!({ "phoneNumber": number, "code": wrong }))
        .send()
        .await;
    reply.assert_error(401, "invalid_credentials");
    assert!(
        reply.body["error"]
            .as_str()
            .unwrap()
            .starts_with(OTP_REFUSAL_WRONG_PREFIX)
    );
}

async fn concurrent_wrong_guesses_check_at_most_five(backend: Backend) {
    let t = Arc::new(start(backend).await);
    let number = unique_phone();
    let code = send(&t, &number).await;
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let mut tasks = JoinSet::new();
    for _ in 0..60 {
        let (t, number) = (Arc::clone(&t), number.clone());
        tasks.spawn(async move {
            let reply = t
                .post(AUTH, json!({ "phoneNumber": number, "code": wrong }))
                .send()
                .await;
            reply.body["error"].as_str().unwrap_or("").to_string()
        });
    }
    let messages = tasks.join_all().await;
    let checked = messages
        .iter()
        .filter(|m| m.starts_with(OTP_REFUSAL_WRONG_PREFIX))
        .count();
    assert_eq!(checked, 5, "{messages:?}");
    // The right code now comes too late: every guess of it is spent.
    let reply = t
        .post(AUTH, json!({ "phoneNumber": number, "code": code }))
        .send()
        .await;
    reply.assert_error(401, "invalid_credentials");
    assert_eq!(reply.body["error"], OTP_REFUSAL_USED_UP);
}

async fn a_phone_links_to_an_email_user_and_unlinks(backend: Backend) {
    let t = start(backend).await;
    let session = t.login(&unique_email()).await;
    let number = unique_phone();
    let code = send(&t, &number).await;
    let reply = t
        .post(LINK, json!({ "phoneNumber": number, "code": code }))
        .bearer(token(&session))
        .send()
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert!(
        reply.body["linked_accounts"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["type"] == "phone" && a["phoneNumber"] == number.as_str())
    );
    // The phone now signs in to the same user.
    assert_eq!(
        login(&t, &number).await["user"]["id"],
        session["user"]["id"]
    );
    let reply = t
        .post(UNLINK, json!({ "phoneNumber": number }))
        .bearer(token(&session))
        .send()
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.body["linked_accounts"].as_array().unwrap().len(), 1);
}

async fn the_last_way_in_cannot_be_unlinked(backend: Backend) {
    let t = start(backend).await;
    let number = unique_phone();
    let session = login(&t, &number).await;
    t.post(UNLINK, json!({ "phoneNumber": number }))
        .bearer(token(&session))
        .send()
        .await
        .assert_error(422, "cannot_unlink_sole_account");
    t.post(UNLINK, json!({ "phoneNumber": unique_phone() }))
        .bearer(token(&session))
        .send()
        .await
        .assert_error(404, "linked_account_not_found");
}

async fn update_replaces_the_number(backend: Backend) {
    let t = start(backend).await;
    let old = unique_phone();
    let session = login(&t, &old).await;
    let new = unique_phone();
    let code = send(&t, &new).await;
    let reply = t
        .post(
            UPDATE,
            json!({ "old_phone_number": old, "new_phone_number": new, "code": code }),
        )
        .bearer(token(&session))
        .send()
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(
        reply.body["linked_accounts"][0]["phoneNumber"],
        new.as_str()
    );
    assert_eq!(login(&t, &new).await["user"]["id"], session["user"]["id"]);
}

async fn a_number_of_another_user_is_transferred_with_the_nonce(backend: Backend) {
    let t = start(backend).await;
    let number = unique_phone();
    let owner = login(&t, &number).await;
    let taker = t.login(&unique_email()).await;
    let code = send(&t, &number).await;
    let reply = t
        .post(LINK, json!({ "phoneNumber": number, "code": code }))
        .bearer(token(&taker))
        .send()
        .await;
    reply.assert_error(403, "account_transfer_required");
    assert_eq!(reply.body["data"]["account_type"], "phone");
    let nonce = reply.body["data"]["nonce"].as_str().unwrap();
    let moved = t
        .post(TRANSFER, json!({ "nonce": nonce, "phoneNumber": number }))
        .bearer(token(&taker))
        .send()
        .await;
    assert_eq!(moved.status, 200, "{}", moved.text);
    assert_eq!(login(&t, &number).await["user"]["id"], taker["user"]["id"]);
    assert_ne!(owner["user"]["id"], taker["user"]["id"]);
    t.post(TRANSFER, json!({ "nonce": nonce, "phoneNumber": number }))
        .bearer(token(&taker))
        .send()
        .await
        .assert_error(401, "token_already_used");
}
