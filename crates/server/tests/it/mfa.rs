//! Second factors (docs/server.md "MFA"): TOTP and SMS enrolment and verification, the MFA
//! token (single use, bound to user and session, 5 minutes), the failure lock-out, and the guard
//! on the wallet's share release (docs/wallet.md "MFA").
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::embedded_wallets::{
    Material, assert_message, create_root, frame_post, has_two_shares, recover_with, unlock_with,
};

use std::sync::Arc;

use axum::http::StatusCode;
use common::authenticator::SoftAuthenticator;
use common::{Backend, ORIGIN, Reply, TestApp, unique_email, unique_phone};
use serde_json::{Value, json};
use symbolon_protocol::constants::{MFA_SIGNING_USES, MFA_SIGNING_WINDOW_S};
use symbolon_server::app_settings::AppSettings;
use totp_rs::{Algorithm, Builder, Secret};

backend_tests!(
    totp_enrols_and_verifies_into_a_token,
    totp_accepts_one_step_each_way_and_no_more,
    a_totp_code_passes_once_even_concurrently,
    sms_enrols_and_verifies_through_the_sms_adapter,
    mfa_codes_and_login_codes_do_not_mix,
    five_failures_lock_the_user_out_even_concurrently,
    locks_grow_with_each_lock_in_a_row_and_start_again,
    a_just_used_code_costs_no_failure,
    malformed_codes_cost_no_failure,
    tokens_are_single_use_even_concurrently,
    tokens_expire_and_belong_to_their_session_and_user,
    frame_routes_refuse_host_origins,
    export_and_recovery_need_a_token,
    protected_transactions_need_a_token_per_signature,
    a_verification_signs_at_most_its_uses_even_concurrently,
    users_without_mfa_are_unaffected,
    a_second_method_and_unenrolling_need_a_token,
    passkeys_enrol_verify_and_unenrol,
    removing_one_mfa_passkey_spends_a_token,
    a_first_factor_needs_a_recent_sign_in,
    factor_changes_are_mailed_and_texted,
);

const VERIFY: &str = "/api/v1/mfa/verify";
const TOTP_INIT: &str = "/api/v1/mfa/totp/init";
const TOTP_ENROLL: &str = "/api/v1/mfa/totp/enroll";
const SMS_INIT: &str = "/api/v1/mfa/passwordless_sms/init";
const SMS_ENROLL: &str = "/api/v1/mfa/passwordless_sms/enroll";
const UNENROLL: &str = "/api/v1/mfa/unenroll";
const PASSKEYS_INIT: &str = "/api/v1/mfa/passkeys/init";
const PASSKEYS_ENROLL: &str = "/api/v1/mfa/passkeys/enroll";
/// The answer to an authenticator code whose step was used.
const CODE_USED: &str = "This code was already used. Wait for the next one.";

/// A server whose default app offers every second factor (and SMS login).
pub(crate) async fn start(backend: Backend, protect_transactions: bool) -> TestApp {
    let t = TestApp::start(backend).await;
    let mut settings = AppSettings::default();
    settings.login_methods.primary = vec!["email".into(), "sms".into(), "passkey".into()];
    settings.mfa.methods = vec!["totp".into(), "sms".into(), "passkey".into()];
    settings.mfa.protect_transactions = protect_transactions;
    t.set_settings(settings).await;
    t
}

/// A fresh user's access token.
async fn sign_in(t: &TestApp) -> String {
    token_of(&t.login(&unique_email()).await)
}

fn token_of(session: &Value) -> String {
    session["token"].as_str().expect("token").to_string()
}

/// The code of `secret` (base32) at unix time `at`, computed here with totp-rs.
fn code_at(secret: &str, at: i64) -> String {
    let bytes = Secret::try_from_base32(secret).unwrap().as_bytes().to_vec();
    let totp = Builder::new()
        .with_algorithm(Algorithm::SHA1)
        .with_secret(bytes)
        .build()
        .unwrap();
    totp.generate(u64::try_from(at).unwrap()).to_string()
}

/// The code `offset` seconds from the server's now.
fn code(t: &TestApp, secret: &str, offset: i64) -> String {
    code_at(secret, t.state.clock.now() + offset)
}

/// Enrols TOTP for the user of `token`; returns the secret.
pub(crate) async fn enroll_totp(t: &TestApp, token: &str) -> String {
    let init = frame_post(t, TOTP_INIT, token, json!({})).await;
    assert_eq!(init.status, StatusCode::OK, "{}", init.text);
    let secret = init.body["totpSecret"].as_str().unwrap().to_string();
    let enrolled = frame_post(
        t,
        TOTP_ENROLL,
        token,
        json!({ "code": code(t, &secret, 0) }),
    )
    .await;
    assert_eq!(enrolled.status, StatusCode::OK, "{}", enrolled.text);
    secret
}

/// Verifies `code` by TOTP.
pub(crate) async fn verify_totp(t: &TestApp, token: &str, code: &str) -> Reply {
    frame_post(t, VERIFY, token, json!({ "method": "totp", "code": code })).await
}

/// A fresh MFA token: waits one step (each step passes once) and verifies its code.
pub(crate) async fn mfa_token(t: &TestApp, token: &str, secret: &str) -> String {
    t.state.clock.advance(30);
    let reply = verify_totp(t, token, &code(t, secret, 0)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body["token"].as_str().unwrap().to_string()
}

fn methods(user: &Value) -> Vec<String> {
    user["mfa_methods"]
        .as_array()
        .expect("mfa_methods")
        .iter()
        .map(|m| m["type"].as_str().unwrap().to_string())
        .collect()
}

/// The host-page call that texts an MFA code.
async fn sms_init(t: &TestApp, token: &str, body: Value) -> Reply {
    t.post(SMS_INIT, body).bearer(token).send().await
}

/// Enrols `phone` for SMS MFA (with `mfa_token` when the user has a method already).
async fn enroll_sms(t: &TestApp, token: &str, phone: &str, mfa_token: Option<&str>) -> Reply {
    let init = sms_init(
        t,
        token,
        json!({ "action": "enroll", "phoneNumber": phone }),
    )
    .await;
    assert_eq!(init.status, StatusCode::OK, "{}", init.text);
    let code = t.latest_sms_code(phone).await;
    let mut body = json!({ "phoneNumber": phone, "code": code });
    if let Some(mfa_token) = mfa_token {
        body["mfa_token"] = json!(mfa_token);
    }
    frame_post(t, SMS_ENROLL, token, body).await
}

async fn me(t: &TestApp, token: &str) -> Value {
    let reply = t.get("/api/v1/users/me").bearer(token).send().await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body["user"].clone()
}

async fn totp_enrols_and_verifies_into_a_token(backend: Backend) {
    let t = start(backend, false).await;
    let session = t.login(&unique_email()).await;
    let token = token_of(&session);
    let init = frame_post(&t, TOTP_INIT, &token, json!({})).await;
    assert_eq!(init.status, StatusCode::OK, "{}", init.text);
    let secret = init.body["totpSecret"].as_str().unwrap().to_string();
    let url = init.body["totpAuthUrl"].as_str().unwrap();
    assert!(url.starts_with("otpauth://totp/Test%20App:"), "{url}");
    assert!(url.contains(&format!("secret={secret}")), "{url}");
    // The secret is stored sealed, never in the clear.
    let (stored,): (String,) = sqlx::query_as("SELECT pending_secret FROM mfa_totp")
        .fetch_one(t.state.db.pool())
        .await
        .unwrap();
    assert!(stored.starts_with("sealed:v1:") && !stored.contains(&secret));

    // A wrong first code enrols nothing; the right one does.
    let wrong = frame_post(&t, TOTP_ENROLL, &token, json!({ "code": "000000" })).await;
    let wrong = if code(&t, &secret, 0) == "000000" {
        frame_post(&t, TOTP_ENROLL, &token, json!({ "code": "111111" })).await
    } else {
        wrong
    };
    assert_message(
        &wrong,
        401,
        "invalid_credentials",
        "The code you entered is not valid",
    );
    assert!(methods(&me(&t, &token).await).is_empty());
    let first = code(&t, &secret, 0);
    let enrolled = frame_post(&t, TOTP_ENROLL, &token, json!({ "code": first })).await;
    assert_eq!(enrolled.status, StatusCode::OK, "{}", enrolled.text);
    assert_eq!(methods(&enrolled.body["user"]), ["totp"]);
    assert_eq!(methods(&me(&t, &token).await), ["totp"]);
    // A refresh shows it too.
    let refreshed = t
        .post(
            "/api/v1/sessions",
            json!({ "refresh_token": session["refresh_token"] }),
        )
        .send()
        .await;
    assert_eq!(refreshed.status, StatusCode::OK, "{}", refreshed.text);
    assert_eq!(methods(&refreshed.body["user"]), ["totp"]);
    // The enrolment code's step is used: it does not verify again (and says so).
    let used = verify_totp(&t, &token, &first).await;
    assert_message(&used, 401, "token_already_used", CODE_USED);

    t.state.clock.advance(30);
    let verified = verify_totp(&t, &token, &code(&t, &secret, 0)).await;
    assert_eq!(verified.status, StatusCode::OK, "{}", verified.text);
    let mfa = verified.body["token"].as_str().unwrap();
    assert_eq!(mfa.len(), 43, "32 bytes base64url");
    let expires_at = verified.body["expires_at"].as_i64().unwrap();
    assert_eq!(expires_at, t.state.clock.now() + 300);
    // Only its hash is stored.
    let (hash,): (String,) = sqlx::query_as("SELECT token_hash FROM mfa_tokens")
        .fetch_one(t.state.db.pool())
        .await
        .unwrap();
    assert_ne!(hash, mfa);
}

async fn totp_accepts_one_step_each_way_and_no_more(backend: Backend) {
    let t = start(backend, false).await;
    let token = sign_in(&t).await;
    let secret = enroll_totp(&t, &token).await;
    t.state.clock.advance(90);
    // The step before, the current one and the one after: each accepted (in increasing order).
    for offset in [-30, 0, 30] {
        let reply = verify_totp(&t, &token, &code(&t, &secret, offset)).await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "offset {offset}: {}",
            reply.text
        );
    }
    // Two steps off either way: refused.
    t.state.clock.advance(150);
    for offset in [-60, 60] {
        let reply = verify_totp(&t, &token, &code(&t, &secret, offset)).await;
        assert_message(
            &reply,
            401,
            "invalid_credentials",
            "The code you entered is not valid",
        );
    }
}

async fn a_totp_code_passes_once_even_concurrently(backend: Backend) {
    let t = start(backend, false).await;
    let token = sign_in(&t).await;
    let secret = enroll_totp(&t, &token).await;
    t.state.clock.advance(30);
    let once = code(&t, &secret, 0);
    assert_eq!(verify_totp(&t, &token, &once).await.status, StatusCode::OK);
    verify_totp(&t, &token, &once)
        .await
        .assert_error(401, "token_already_used");

    // Another user, 5 verifications of one code at once: exactly one passes.
    let other = sign_in(&t).await;
    let secret = enroll_totp(&t, &other).await;
    t.state.clock.advance(30);
    let shared = code(&t, &secret, 0);
    let t = Arc::new(t);
    let mut calls = tokio::task::JoinSet::new();
    for _ in 0..5 {
        let (t, other, shared) = (t.clone(), other.clone(), shared.clone());
        calls.spawn(async move { verify_totp(&t, &other, &shared).await });
    }
    let mut passed = 0;
    while let Some(reply) = calls.join_next().await {
        let reply = reply.unwrap();
        if reply.status == StatusCode::OK {
            passed += 1;
        } else {
            reply.assert_error(401, "token_already_used");
        }
    }
    assert_eq!(passed, 1);
}

async fn sms_enrols_and_verifies_through_the_sms_adapter(backend: Backend) {
    let t = start(backend, false).await;
    let token = sign_in(&t).await;
    let phone = unique_phone();
    // Nothing enrolled: nothing to text.
    sms_init(&t, &token, json!({ "action": "verify" }))
        .await
        .assert_error(400, "missing_mfa_enrollment");
    let enrolled = enroll_sms(&t, &token, &phone, None).await;
    assert_eq!(enrolled.status, StatusCode::OK, "{}", enrolled.text);
    assert_eq!(methods(&enrolled.body["user"]), ["sms"]);
    let text = t.latest_sms(&phone).await;
    assert!(
        text["body"]
            .as_str()
            .unwrap()
            .contains("is your Test App verification code"),
        "{text}"
    );

    let sent = sms_init(&t, &token, json!({ "action": "verify" })).await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    let code = t.latest_sms_code(&phone).await;
    let verified = frame_post(&t, VERIFY, &token, json!({ "method": "sms", "code": code })).await;
    assert_eq!(verified.status, StatusCode::OK, "{}", verified.text);
    assert!(verified.body["token"].is_string());
    // The code is used up.
    let again = frame_post(&t, VERIFY, &token, json!({ "method": "sms", "code": code })).await;
    assert_message(
        &again,
        401,
        "invalid_credentials",
        "The code you entered is not valid",
    );
    // TOTP is not enrolled.
    verify_totp(&t, &token, "123456")
        .await
        .assert_error(400, "missing_mfa_enrollment");
}

async fn mfa_codes_and_login_codes_do_not_mix(backend: Backend) {
    let t = start(backend, false).await;
    let token = sign_in(&t).await;
    let phone = unique_phone();
    let enrolled = enroll_sms(&t, &token, &phone, None).await;
    assert_eq!(enrolled.status, StatusCode::OK, "{}", enrolled.text);

    // An MFA code does not sign anybody in with the number.
    let sent = sms_init(&t, &token, json!({ "action": "verify" })).await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    let mfa_code = t.latest_sms_code(&phone).await;
    let login = t
        .post(
            "/api/v1/passwordless_sms/authenticate",
            json!({ "phoneNumber": phone, "code": mfa_code }),
        )
        .send()
        .await;
    login.assert_error(401, "invalid_credentials");

    // A login code does not pass MFA.
    let sent = t
        .post(
            "/api/v1/passwordless_sms/init",
            json!({ "phoneNumber": phone }),
        )
        .send()
        .await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    let login_code = t.latest_sms_code(&phone).await;
    let verify = frame_post(
        &t,
        VERIFY,
        &token,
        json!({ "method": "sms", "code": login_code }),
    )
    .await;
    assert_message(
        &verify,
        401,
        "invalid_credentials",
        "The code you entered is not valid",
    );
    // The MFA code still passes MFA, and the login code still signs in.
    let verify = frame_post(
        &t,
        VERIFY,
        &token,
        json!({ "method": "sms", "code": mfa_code }),
    )
    .await;
    assert_eq!(verify.status, StatusCode::OK, "{}", verify.text);
    let login = t
        .post(
            "/api/v1/passwordless_sms/authenticate",
            json!({ "phoneNumber": phone, "code": login_code }),
        )
        .send()
        .await;
    assert_eq!(login.status, StatusCode::OK, "{}", login.text);
}

/// A code of `secret` that is not the one at the server's now (nor one step around it).
fn wrong_code(t: &TestApp, secret: &str) -> String {
    let near: Vec<String> = [-30, 0, 30].iter().map(|o| code(t, secret, *o)).collect();
    (0..)
        .map(|n| format!("{:06}", 123_456 + n))
        .find(|c| !near.contains(c))
        .unwrap()
}

/// The `Retry-After` of a refusal, in seconds.
fn retry_after(reply: &Reply) -> i64 {
    reply
        .header("retry-after")
        .expect("retry-after")
        .parse()
        .unwrap()
}

/// Checks a lock-out's refusal: `Retry-After` is `expected` seconds (one less when the server's
/// real-time clock ticked meanwhile) and the message says the same in the MFA screen's words (the
/// spec §8 line for 10 seconds). Answers the seconds.
fn assert_lock(reply: &Reply, expected: i64) -> i64 {
    reply.assert_error(429, "too_many_requests");
    let wait = retry_after(reply);
    assert!(
        (expected - 1..=expected).contains(&wait),
        "{wait} for {expected}"
    );
    assert_eq!(
        reply.body["error"],
        format!(
            "You have exceeded the maximum number of attempts. Please close this window and try \
             again in {wait} seconds."
        )
    );
    wait
}

/// Five wrong codes lock the user out; answers the lock's refusal of the right code.
async fn lock_out(t: &TestApp, token: &str, secret: &str) -> Reply {
    for _ in 0..5 {
        verify_totp(t, token, &wrong_code(t, secret))
            .await
            .assert_error(401, "invalid_credentials");
    }
    let locked = verify_totp(t, token, &code(t, secret, 0)).await;
    locked.assert_error(429, "too_many_requests");
    locked
}

/// The first lock lasts the 10 seconds the spec's line tells the user to wait, and the right code
/// works once they are over (it was 15 minutes); concurrent guesses never exceed the budget.
async fn five_failures_lock_the_user_out_even_concurrently(backend: Backend) {
    let t = start(backend, false).await;
    let token = sign_in(&t).await;
    let secret = enroll_totp(&t, &token).await;
    t.state.clock.advance(30);
    // Locked out: even the right code is refused, with when to retry, in the screen's words.
    let locked = lock_out(&t, &token, &secret).await;
    let wait = assert_lock(&locked, 10);
    if wait == 10 {
        assert_eq!(
            locked.body["error"],
            "You have exceeded the maximum number of attempts. Please close this window and try \
             again in 10 seconds."
        );
    }
    // The time left counts down; the right code is refused until the stated wait is over.
    t.state.clock.advance(wait - 2);
    let almost = verify_totp(&t, &token, &code(&t, &secret, 0)).await;
    almost.assert_error(429, "too_many_requests");
    assert!((1..=2).contains(&retry_after(&almost)), "{}", almost.text);
    t.state.clock.advance(2);
    let reply = verify_totp(&t, &token, &code(&t, &secret, 0)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);

    // 12 wrong codes at once: at most 5 are compared, the rest are refused unseen.
    let other = sign_in(&t).await;
    let secret = enroll_totp(&t, &other).await;
    t.state.clock.advance(30);
    let wrong = wrong_code(&t, &secret);
    let t = Arc::new(t);
    let concurrent_wrong = async |n: usize| {
        let mut calls = tokio::task::JoinSet::new();
        for _ in 0..n {
            let (t, other, wrong) = (t.clone(), other.clone(), wrong.clone());
            calls.spawn(async move { verify_totp(&t, &other, &wrong).await });
        }
        let (mut compared, mut limited) = (0, 0);
        while let Some(reply) = calls.join_next().await {
            match reply.unwrap().status.as_u16() {
                401 => compared += 1,
                429 => limited += 1,
                other => panic!("unexpected {other}"),
            }
        }
        (compared, limited)
    };
    assert_eq!(concurrent_wrong(12).await, (5, 7));
    let locked = verify_totp(&t, &other, &code(&t, &secret, 0)).await;
    locked.assert_error(429, "too_many_requests");
    assert_lock(&locked, 10);
    // After the lock, another burst: again 5 at most, and the next lock is longer.
    t.state.clock.advance(10);
    assert_eq!(concurrent_wrong(12).await, (5, 7));
    let locked = verify_totp(&t, &other, &code(&t, &secret, 0)).await;
    assert_lock(&locked, 30);
}

/// Each lock in a row lasts longer (10 s, 30 s, 60 s, 120 s, then 300 s each), so guessing stays
/// slow; a right code, or an hour without a failure, starts again at 10 s (a shorter memory would
/// let a guesser restart the ladder for more guesses than the 300 s cap allows). Failures on any
/// screen count.
async fn locks_grow_with_each_lock_in_a_row_and_start_again(backend: Backend) {
    let t = start(backend, false).await;
    let (email, mut token) = email_user(&t).await;
    let secret = enroll_totp(&t, &token).await;
    t.state.clock.advance(30);
    for expected in [10, 30, 60, 120, 300, 300] {
        assert_lock(&lock_out(&t, &token, &secret).await, expected);
        t.state.clock.advance(expected);
    }
    // A right code starts the ladder again.
    t.state.clock.advance(30);
    let reply = verify_totp(&t, &token, &code(&t, &secret, 0)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_lock(&lock_out(&t, &token, &secret).await, 10);
    t.state.clock.advance(10);
    assert_lock(&lock_out(&t, &token, &secret).await, 30);
    // 50 minutes without a failure: remembered (the next lock is the third in a row)… (a new
    // session: access tokens last an hour; the budget is the user's)
    t.state.clock.advance(3000);
    token = token_of(&t.login(&email).await);
    let locked = lock_out(&t, &token, &secret).await;
    assert_lock(&locked, 60);
    // …an hour: forgotten.
    t.state.clock.advance(3600);
    token = token_of(&t.login(&email).await);
    assert_lock(&lock_out(&t, &token, &secret).await, 10);
    t.state.clock.advance(10);

    // Wrong codes on the enrolment screens and on verification add up (one budget per user):
    // four wrong verifications and one wrong code for a second factor lock.
    t.state.clock.advance(30);
    let mfa = verify_totp(&t, &token, &code(&t, &secret, 0)).await;
    assert_eq!(mfa.status, StatusCode::OK, "{}", mfa.text);
    let mfa = mfa.body["token"].as_str().unwrap().to_string();
    let phone = unique_phone();
    let init = sms_init(
        &t,
        &token,
        json!({ "action": "enroll", "phoneNumber": phone }),
    )
    .await;
    assert_eq!(init.status, StatusCode::OK, "{}", init.text);
    let sms_code = t.latest_sms_code(&phone).await;
    let wrong_sms = if sms_code == "000000" {
        "111111"
    } else {
        "000000"
    };
    for _ in 0..4 {
        verify_totp(&t, &token, &wrong_code(&t, &secret))
            .await
            .assert_error(401, "invalid_credentials");
    }
    let body = json!({ "phoneNumber": phone, "code": wrong_sms, "mfa_token": mfa });
    frame_post(&t, SMS_ENROLL, &token, body)
        .await
        .assert_error(401, "invalid_credentials");
    let locked = verify_totp(&t, &token, &code(&t, &secret, 0)).await;
    locked.assert_error(429, "too_many_requests");
    // The ladder started again at the success.
    assert_lock(&locked, 10);
}

/// The code still shown in the authenticator app after it was used (enrolment or verification) is
/// refused as used, `token_already_used` with a message saying to wait for the next one, and costs
/// no failure: re-entering it ten times locks nobody out; the next step's code passes.
async fn a_just_used_code_costs_no_failure(backend: Backend) {
    let t = start(backend, false).await;
    let token = sign_in(&t).await;
    let init = frame_post(&t, TOTP_INIT, &token, json!({})).await;
    let secret = init.body["totpSecret"].as_str().unwrap().to_string();
    let first = code(&t, &secret, 0);
    let enrolled = frame_post(&t, TOTP_ENROLL, &token, json!({ "code": first })).await;
    assert_eq!(enrolled.status, StatusCode::OK, "{}", enrolled.text);
    // The code the app still shows after the enrolment (its step, or the next one's window).
    for _ in 0..10 {
        let used = verify_totp(&t, &token, &first).await;
        assert_message(&used, 401, "token_already_used", CODE_USED);
    }
    t.state.clock.advance(30);
    let code_now = code(&t, &secret, 0);
    let reply = verify_totp(&t, &token, &code_now).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    for _ in 0..10 {
        verify_totp(&t, &token, &code_now)
            .await
            .assert_error(401, "token_already_used");
    }
    // Still the full budget: four wrong codes, then the next step's code passes.
    for _ in 0..4 {
        verify_totp(&t, &token, &wrong_code(&t, &secret))
            .await
            .assert_error(401, "invalid_credentials");
    }
    t.state.clock.advance(30);
    let reply = verify_totp(&t, &token, &code(&t, &secret, 0)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    // A wrong code is still a failure: five of them lock.
    let locked = lock_out(&t, &token, &secret).await;
    assert_lock(&locked, 10);
}

/// A code that is not 6 digits compares nothing: `400 invalid_data` with the spec's passcode
/// message, before the failure budget, so it neither counts toward a lock-out nor is refused by one.
async fn malformed_codes_cost_no_failure(backend: Backend) {
    let t = start(backend, false).await;
    let token = sign_in(&t).await;
    let secret = enroll_totp(&t, &token).await;
    t.state.clock.advance(30);
    for _ in 0..3 {
        for (code, message) in [
            ("12a456", "Passcode can only be numbers"),
            ("12345", "Passcode must be exactly 6 numbers"),
            ("1234567", "Passcode must be exactly 6 numbers"),
        ] {
            let reply = verify_totp(&t, &token, code).await;
            reply.assert_error(400, "invalid_data");
            assert_eq!(reply.body["error"], message);
        }
    }
    // Nine malformed codes later the user is not locked out: four wrong codes, then the right one.
    for _ in 0..4 {
        verify_totp(&t, &token, &wrong_code(&t, &secret))
            .await
            .assert_error(401, "invalid_credentials");
    }
    let reply = verify_totp(&t, &token, &format!(" {} ", code(&t, &secret, 0))).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

/// A user with a root wallet and TOTP enrolled: `(access token, secret, material)`.
async fn wallet_user(t: &TestApp) -> (String, String, Material) {
    let token = sign_in(t).await;
    let material = Material::new();
    create_root(t, &token, &material).await;
    let secret = enroll_totp(t, &token).await;
    (token, secret, material)
}

async fn tokens_are_single_use_even_concurrently(backend: Backend) {
    let t = start(backend, false).await;
    let (token, secret, material) = wallet_user(&t).await;
    let address = material.address(0);
    let mfa = mfa_token(&t, &token, &secret).await;
    let export = json!({ "intent": "export", "mfa_token": mfa });
    let first = unlock_with(&t, &token, &material.device, &address, export.clone()).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let again = unlock_with(&t, &token, &material.device, &address, export).await;
    again.assert_error(403, "expired_or_invalid_mfa_token");

    // 6 exports with one token at once: exactly one gets the share.
    let mfa = mfa_token(&t, &token, &secret).await;
    let body = json!({ "intent": "export", "mfa_token": mfa });
    let released = concurrent_unlocks(t, &token, material, &address, body, 6).await;
    assert_eq!(released, 1);
}

async fn tokens_expire_and_belong_to_their_session_and_user(backend: Backend) {
    let t = start(backend, false).await;
    let email = unique_email();
    let token = token_of(&t.login(&email).await);
    let material = Material::new();
    create_root(&t, &token, &material).await;
    let address = material.address(0);
    let secret = enroll_totp(&t, &token).await;
    let export = |mfa: &str| json!({ "intent": "export", "mfa_token": mfa });

    // Another session of the same user cannot spend it.
    let mfa = mfa_token(&t, &token, &secret).await;
    let second_session = token_of(&t.login(&email).await);
    unlock_with(
        &t,
        &second_session,
        &material.device,
        &address,
        export(&mfa),
    )
    .await
    .assert_error(403, "expired_or_invalid_mfa_token");
    // Nor another user (on their own wallet).
    let (stranger, _, stranger_material) = wallet_user(&t).await;
    let stranger_address = stranger_material.address(0);
    unlock_with(
        &t,
        &stranger,
        &stranger_material.device,
        &stranger_address,
        export(&mfa),
    )
    .await
    .assert_error(403, "expired_or_invalid_mfa_token");
    // Those refusals did not spend it: its own session still can.
    let own = unlock_with(&t, &token, &material.device, &address, export(&mfa)).await;
    assert_eq!(own.status, StatusCode::OK, "{}", own.text);

    // Five minutes later it is gone.
    let mfa = mfa_token(&t, &token, &secret).await;
    t.state.clock.advance(301);
    unlock_with(&t, &token, &material.device, &address, export(&mfa))
        .await
        .assert_error(403, "expired_or_invalid_mfa_token");
}

async fn frame_routes_refuse_host_origins(backend: Backend) {
    let t = start(backend, false).await;
    let token = sign_in(&t).await;
    for path in [
        VERIFY,
        TOTP_INIT,
        TOTP_ENROLL,
        SMS_ENROLL,
        PASSKEYS_ENROLL,
        UNENROLL,
    ] {
        let reply = t
            .post(path, json!({ "method": "totp", "code": "123456" }))
            .header("origin", ORIGIN)
            .bearer(&token)
            .send()
            .await;
        reply.assert_error(403, "invalid_origin");
        assert!(reply.header("access-control-allow-origin").is_none());
    }
    // Nothing was made for the host page's call.
    let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM mfa_totp")
        .fetch_one(t.state.db.pool())
        .await
        .unwrap();
    assert_eq!(count, 0);
}

async fn export_and_recovery_need_a_token(backend: Backend) {
    let t = start(backend, false).await;
    let (token, secret, material) = wallet_user(&t).await;
    let address = material.address(0);
    let device = &material.device;

    // Export without a token: refused before any share is read.
    let export = unlock_with(&t, &token, device, &address, json!({ "intent": "export" })).await;
    assert_message(
        &export,
        403,
        "missing_or_invalid_mfa",
        "MFA verification is required",
    );
    assert!(export.body.get("auth_share").is_none());
    // Recovery without a token: refused, and the session's one recovery is not spent.
    let recovery = recover_with(&t, &token, &address, json!({})).await;
    assert_message(
        &recovery,
        403,
        "missing_or_invalid_mfa",
        "MFA verification is required",
    );
    let bogus = recover_with(&t, &token, &address, json!({ "mfa_token": "bogus" })).await;
    bogus.assert_error(403, "expired_or_invalid_mfa_token");

    // With a token: the shares, and the token is used up.
    let mfa = mfa_token(&t, &token, &secret).await;
    let export = unlock_with(
        &t,
        &token,
        device,
        &address,
        json!({ "intent": "export", "mfa_token": mfa }),
    )
    .await;
    assert_eq!(export.status, StatusCode::OK, "{}", export.text);
    assert!(export.body["auth_share"].is_string());
    assert_eq!(export.body["single_use"], false);
    let mfa = mfa_token(&t, &token, &secret).await;
    let recovery = recover_with(&t, &token, &address, json!({ "mfa_token": mfa })).await;
    assert!(has_two_shares(&recovery), "{}", recovery.text);
    let (left,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM mfa_tokens")
        .fetch_one(t.state.db.pool())
        .await
        .unwrap();
    assert_eq!(left, 0);
    // Signing without protection needs no token.
    let sign = unlock_with(&t, &token, device, &address, json!({ "intent": "sign" })).await;
    assert_eq!(sign.status, StatusCode::OK, "{}", sign.text);
    assert_eq!(sign.body["single_use"], false);
}

async fn protected_transactions_need_a_token_per_signature(backend: Backend) {
    let t = start(backend, true).await;
    let (token, secret, material) = wallet_user(&t).await;
    let address = material.address(0);
    let device = &material.device;
    // The default intent is sign.
    let sign = unlock_with(&t, &token, device, &address, json!({})).await;
    sign.assert_error(403, "missing_or_invalid_mfa");
    let mfa = mfa_token(&t, &token, &secret).await;
    // One verification covers a run of signatures: a second one right after needs no new code (the
    // authenticator's next one is up to 30 s away), and the frame still forgets the key after each.
    for n in 1..=MFA_SIGNING_USES {
        let sign = unlock_with(&t, &token, device, &address, json!({ "mfa_token": mfa })).await;
        assert_eq!(sign.status, StatusCode::OK, "signature {n}: {}", sign.text);
        assert_eq!(sign.body["single_use"], true);
    }
    // ... up to MFA_SIGNING_USES of them.
    let past_uses = unlock_with(&t, &token, device, &address, json!({ "mfa_token": mfa })).await;
    past_uses.assert_error(403, "expired_or_invalid_mfa_token");
    // A verification spent on signatures does not also export: that asks for its own.
    let export = json!({ "mfa_token": mfa, "intent": "export" });
    let export_after_signing = unlock_with(&t, &token, device, &address, export).await;
    export_after_signing.assert_error(403, "expired_or_invalid_mfa_token");
    // ... and within MFA_SIGNING_WINDOW_S of the verification only (the token itself lives longer,
    // for an export).
    let mfa = mfa_token(&t, &token, &secret).await;
    t.state.clock.advance(MFA_SIGNING_WINDOW_S as i64);
    let late = unlock_with(&t, &token, device, &address, json!({ "mfa_token": mfa })).await;
    late.assert_error(403, "expired_or_invalid_mfa_token");
    let export = unlock_with(
        &t,
        &token,
        device,
        &address,
        json!({ "mfa_token": mfa, "intent": "export" }),
    )
    .await;
    assert_eq!(export.status, StatusCode::OK, "{}", export.text);
    // An export uses the token up, signing window or not.
    let after_export = unlock_with(&t, &token, device, &address, json!({ "mfa_token": mfa })).await;
    after_export.assert_error(403, "expired_or_invalid_mfa_token");
    // The app's config tells the client.
    let config = t.get(&format!("/api/v1/apps/{}", t.app_id)).send().await;
    assert_eq!(config.body["mfa_protect_transactions"], true);
    assert_eq!(
        config.body["mfa_methods"],
        json!(["totp", "sms", "passkey"])
    );
}

/// Concurrent signatures on one verification: exactly MFA_SIGNING_USES get the key.
async fn a_verification_signs_at_most_its_uses_even_concurrently(backend: Backend) {
    let t = start(backend, true).await;
    let (token, secret, material) = wallet_user(&t).await;
    let address = material.address(0);
    let mfa = mfa_token(&t, &token, &secret).await;
    let body = json!({ "mfa_token": mfa });
    let attempts = 2 * MFA_SIGNING_USES as usize;
    let released = concurrent_unlocks(t, &token, material, &address, body, attempts).await;
    assert_eq!(released, MFA_SIGNING_USES as usize);
}

/// Sends `count` key-material requests with `body` at once; how many got the shares (every other
/// one must be refused as `expired_or_invalid_mfa_token`).
async fn concurrent_unlocks(
    t: TestApp,
    token: &str,
    material: Material,
    address: &str,
    body: Value,
    count: usize,
) -> usize {
    let t = Arc::new(t);
    let material = Arc::new(material);
    let mut calls = tokio::task::JoinSet::new();
    for _ in 0..count {
        let (t, token, material, address, body) = (
            t.clone(),
            token.to_string(),
            material.clone(),
            address.to_string(),
            body.clone(),
        );
        calls.spawn(async move { unlock_with(&t, &token, &material.device, &address, body).await });
    }
    let mut released = 0;
    while let Some(reply) = calls.join_next().await {
        let reply = reply.unwrap();
        if reply.status == StatusCode::OK {
            released += 1;
        } else {
            reply.assert_error(403, "expired_or_invalid_mfa_token");
        }
    }
    released
}

async fn users_without_mfa_are_unaffected(backend: Backend) {
    let t = start(backend, true).await;
    let token = sign_in(&t).await;
    let material = Material::new();
    create_root(&t, &token, &material).await;
    let address = material.address(0);
    for intent in ["sign", "export"] {
        let reply = unlock_with(
            &t,
            &token,
            &material.device,
            &address,
            json!({ "intent": intent }),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{intent}: {}", reply.text);
        assert_eq!(reply.body["single_use"], false);
    }
    let recovery = recover_with(&t, &token, &address, json!({ "intent": "export" })).await;
    assert!(has_two_shares(&recovery), "{}", recovery.text);
    assert_eq!(methods(&me(&t, &token).await), Vec::<String>::new());
}

async fn a_second_method_and_unenrolling_need_a_token(backend: Backend) {
    let t = start(backend, false).await;
    let token = sign_in(&t).await;
    let secret = enroll_totp(&t, &token).await;
    let phone = unique_phone();

    // A second method without a token: refused, and its code is not spent.
    let refused = enroll_sms(&t, &token, &phone, None).await;
    assert_message(
        &refused,
        403,
        "missing_or_invalid_mfa",
        "MFA verification is required",
    );
    let code = t.latest_sms_code(&phone).await;
    let mfa = mfa_token(&t, &token, &secret).await;
    let body = json!({ "phoneNumber": phone, "code": code, "mfa_token": mfa });
    let enrolled = frame_post(&t, SMS_ENROLL, &token, body).await;
    assert_eq!(enrolled.status, StatusCode::OK, "{}", enrolled.text);
    assert_eq!(methods(&enrolled.body["user"]), ["totp", "sms"]);

    // Unenrolling: never without a live token of this session.
    let body = |mfa: &str| json!({ "method": "totp", "mfa_token": mfa });
    frame_post(&t, UNENROLL, &token, body(""))
        .await
        .assert_error(403, "missing_or_invalid_mfa");
    frame_post(&t, UNENROLL, &token, body(&mfa))
        .await
        .assert_error(403, "expired_or_invalid_mfa_token");
    let mfa = mfa_token(&t, &token, &secret).await;
    let removed = frame_post(&t, UNENROLL, &token, body(&mfa)).await;
    assert_eq!(removed.status, StatusCode::OK, "{}", removed.text);
    assert_eq!(methods(&removed.body["user"]), ["sms"]);
    verify_totp(&t, &token, &code_at(&secret, t.state.clock.now()))
        .await
        .assert_error(400, "missing_mfa_enrollment");
    let (rows,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM mfa_totp")
        .fetch_one(t.state.db.pool())
        .await
        .unwrap();
    assert_eq!(rows, 0);
}

/// Links a new passkey of `auth` to the user of `token`; returns its credential id.
async fn link_passkey(t: &TestApp, token: &str, auth: &mut SoftAuthenticator) -> String {
    let init = t
        .post("/api/v1/passkeys/link/init", json!({}))
        .bearer(token)
        .send()
        .await;
    assert_eq!(init.status, StatusCode::OK, "{}", init.text);
    let response = auth.register(&init.body, ORIGIN);
    let linked = t
        .post(
            "/api/v1/passkeys/link",
            json!({ "authenticator_response": response }),
        )
        .bearer(token)
        .send()
        .await;
    assert_eq!(linked.status, StatusCode::OK, "{}", linked.text);
    auth.last().id_b64()
}

/// Whether the user's passkey `id` is linked, and enrolled in MFA.
fn passkey_state(user: &Value, id: &str) -> Option<bool> {
    user["linked_accounts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["type"] == "passkey" && a["credential_id"] == id)
        .map(|a| a["enrolled_in_mfa"] == true)
}

/// `/mfa/passkeys/init` on the host page, the authenticator's answer, `/mfa/verify` in the frame.
async fn verify_passkey(t: &TestApp, token: &str, auth: &mut SoftAuthenticator) -> Reply {
    let init = t.post(PASSKEYS_INIT, json!({})).bearer(token).send().await;
    assert_eq!(init.status, StatusCode::OK, "{}", init.text);
    let response = auth.assert(&init.body, ORIGIN);
    let body = json!({ "method": "passkey", "authenticator_response": response });
    frame_post(t, VERIFY, token, body).await
}

async fn passkeys_enrol_verify_and_unenrol(backend: Backend) {
    let t = start(backend, false).await;
    let token = sign_in(&t).await;
    let mut auth = SoftAuthenticator::new("localhost");
    let first = link_passkey(&t, &token, &mut auth).await;
    let second = link_passkey(&t, &token, &mut auth).await;
    // No MFA passkey yet: no options.
    t.post(PASSKEYS_INIT, json!({}))
        .bearer(&token)
        .send()
        .await
        .assert_error(400, "missing_mfa_enrollment");
    // Only the user's own passkeys, at least one.
    for ids in [json!([]), json!(["not-a-passkey"])] {
        frame_post(
            &t,
            PASSKEYS_ENROLL,
            &token,
            json!({ "credential_ids": ids }),
        )
        .await
        .assert_error(400, "invalid_data");
    }
    let enrolled = frame_post(
        &t,
        PASSKEYS_ENROLL,
        &token,
        json!({ "credential_ids": [first] }),
    )
    .await;
    assert_eq!(enrolled.status, StatusCode::OK, "{}", enrolled.text);
    let user = &enrolled.body["user"];
    assert_eq!(methods(user), ["passkey"]);
    assert_eq!(passkey_state(user, &first), Some(true));
    assert_eq!(passkey_state(user, &second), Some(false));

    // The options name the MFA passkey only; its assertion verifies into a token.
    let init = t.post(PASSKEYS_INIT, json!({})).bearer(&token).send().await;
    let allowed = &init.body["options"]["allow_credentials"];
    assert_eq!(allowed.as_array().unwrap().len(), 1, "{}", init.text);
    assert_eq!(allowed[0]["id"], first);
    auth.use_credential = Some(0);
    let response = auth.assert(&init.body, ORIGIN);
    let body = json!({ "method": "passkey", "authenticator_response": response });
    let verified = frame_post(&t, VERIFY, &token, body.clone()).await;
    assert_eq!(verified.status, StatusCode::OK, "{}", verified.text);
    let mfa = verified.body["token"].as_str().unwrap().to_string();
    // Replayed: refused.
    let replayed = frame_post(&t, VERIFY, &token, body).await;
    assert_message(
        &replayed,
        401,
        "invalid_credentials",
        "Passkey verification failed",
    );
    // A passkey that is not an MFA passkey, or an assertion made on a page the app does not
    // allow, does not pass.
    auth.use_credential = Some(1);
    let other = verify_passkey(&t, &token, &mut auth).await;
    assert_message(
        &other,
        401,
        "invalid_credentials",
        "Passkey verification failed",
    );
    auth.use_credential = Some(0);
    auth.origin_override = Some("https://evil.example".into());
    verify_passkey(&t, &token, &mut auth)
        .await
        .assert_error(401, "invalid_credentials");
    auth.origin_override = None;

    // Moving MFA to the second passkey (a token of the first) and unlinking the first.
    let moved = frame_post(
        &t,
        PASSKEYS_ENROLL,
        &token,
        json!({ "credential_ids": [second], "remove_for_login": true, "mfa_token": mfa }),
    )
    .await;
    assert_eq!(moved.status, StatusCode::OK, "{}", moved.text);
    assert_eq!(passkey_state(&moved.body["user"], &first), None);
    assert_eq!(passkey_state(&moved.body["user"], &second), Some(true));

    // Unenrolling with a token of the second; it stays linked (the email is another way in,
    // but remove_for_login was not asked).
    auth.use_credential = Some(1);
    let verified = verify_passkey(&t, &token, &mut auth).await;
    assert_eq!(verified.status, StatusCode::OK, "{}", verified.text);
    let mfa = verified.body["token"].as_str().unwrap();
    let removed = frame_post(
        &t,
        UNENROLL,
        &token,
        json!({ "method": "passkey", "mfa_token": mfa }),
    )
    .await;
    assert_eq!(removed.status, StatusCode::OK, "{}", removed.text);
    assert!(methods(&removed.body["user"]).is_empty());
    assert_eq!(passkey_state(&removed.body["user"], &second), Some(false));
}

/// `privy:auth:unlink-passkey`: a passkey that is a second factor is unlinked only by the frame
/// route with `remove_as_mfa` and a token of the session, spent once; the last MFA passkey takes
/// the method with it; any other passkey only within the account-change window.
async fn removing_one_mfa_passkey_spends_a_token(backend: Backend) {
    const UNLINK: &str = "/api/v1/mfa/passkeys/unlink";
    let t = start(backend, false).await;
    let token = sign_in(&t).await;
    let mut auth = SoftAuthenticator::new("localhost");
    let first = link_passkey(&t, &token, &mut auth).await;
    let second = link_passkey(&t, &token, &mut auth).await;
    let body = json!({ "credential_ids": [first, second] });
    let enrolled = frame_post(&t, PASSKEYS_ENROLL, &token, body).await;
    assert_eq!(enrolled.status, StatusCode::OK, "{}", enrolled.text);
    let fresh_token = async |auth: &mut SoftAuthenticator| {
        let reply = verify_passkey(&t, &token, auth).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        reply.body["token"].as_str().unwrap().to_string()
    };

    // The host page cannot: neither its route nor the frame's.
    let host = json!({ "credential_id": first, "remove_as_mfa": true });
    t.post("/api/v1/passkeys/unlink", host.clone())
        .bearer(&token)
        .send()
        .await
        .assert_error(403, "missing_or_invalid_mfa");
    t.post(UNLINK, host)
        .header("origin", ORIGIN)
        .bearer(&token)
        .send()
        .await
        .assert_error(403, "invalid_origin");
    // Without remove_as_mfa, or without a token: refused, nothing changes.
    frame_post(&t, UNLINK, &token, json!({ "credential_id": first }))
        .await
        .assert_error(400, "invalid_data");
    let no_token = json!({ "credential_id": first, "remove_as_mfa": true });
    frame_post(&t, UNLINK, &token, no_token)
        .await
        .assert_error(403, "missing_or_invalid_mfa");
    assert_eq!(passkey_state(&me(&t, &token).await, &first), Some(true));

    let mfa = fresh_token(&mut auth).await;
    let with = |id: &str| json!({ "credential_id": id, "remove_as_mfa": true, "mfa_token": mfa });
    let removed = frame_post(&t, UNLINK, &token, with(&first)).await;
    assert_eq!(removed.status, StatusCode::OK, "{}", removed.text);
    assert_eq!(passkey_state(&removed.body, &first), None, "unlinked");
    // Spent: the same token does not remove the second.
    frame_post(&t, UNLINK, &token, with(&second))
        .await
        .assert_error(403, "expired_or_invalid_mfa_token");
    let user = me(&t, &token).await;
    assert_eq!(passkey_state(&user, &second), Some(true));
    assert_eq!(methods(&user), ["passkey"]);

    // The last one takes the method with it.
    let mfa = fresh_token(&mut auth).await;
    let last = json!({ "credential_id": second, "remove_as_mfa": true, "mfa_token": mfa });
    let removed = frame_post(&t, UNLINK, &token, last).await;
    assert_eq!(removed.status, StatusCode::OK, "{}", removed.text);
    assert_eq!(passkey_state(&removed.body, &second), None);
    assert!(methods(&removed.body).is_empty());

    // A passkey that is no second factor goes by the host route's rule: a session that signed in
    // over 10 minutes ago cannot unlink it through the frame route either.
    let third = link_passkey(&t, &token, &mut auth).await;
    t.state.clock.advance(601);
    frame_post(&t, UNLINK, &token, json!({ "credential_id": third }))
        .await
        .assert_error(403, "missing_or_invalid_mfa");
    // Nor by claiming to remove it as a second factor (it is none) with any token.
    let claimed = json!({ "credential_id": third, "remove_as_mfa": true, "mfa_token": "x" });
    frame_post(&t, UNLINK, &token, claimed)
        .await
        .assert_error(403, "missing_or_invalid_mfa");
    assert_eq!(passkey_state(&me(&t, &token).await, &third), Some(false));
}

/// A user whose access token may be stolen: signed in by email (the notices' address), the app
/// offering every factor. Answers `(email, access token)`.
async fn email_user(t: &TestApp) -> (String, String) {
    let email = unique_email();
    let token = token_of(&t.login(&email).await);
    (email, token)
}

/// The notice mails to `email` whose subject has `subject`, newest first (waits up to 5 s for one).
async fn notices(t: &TestApp, email: &str, subject: &str) -> Vec<Value> {
    for _ in 0..50 {
        let found: Vec<Value> = t
            .messages(email)
            .await
            .into_iter()
            .filter(|m| m["subject"].as_str().unwrap_or_default().contains(subject))
            .collect();
        if !found.is_empty() {
            return found;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    Vec::new()
}

/// The text of a captured mail.
fn mail_text(message: &Value) -> String {
    ["text", "body", "html"]
        .iter()
        .find_map(|k| message[k].as_str())
        .unwrap_or_default()
        .to_string()
}

/// How many rows `sql` counts.
async fn count(t: &TestApp, sql: &'static str) -> i64 {
    let (n,): (i64,) = sqlx::query_as(sql)
        .fetch_one(t.state.db.pool())
        .await
        .unwrap();
    n
}

/// A stolen access token of a session that signed in over 10 minutes ago cannot make the
/// attacker's authenticator, phone or passkey the user's first second factor (which would lock the
/// user out of export, recovery and signing): every first-enrolment route is `403` and stores
/// nothing. A session that just signed in can, and the user is told by mail.
async fn a_first_factor_needs_a_recent_sign_in(backend: Backend) {
    let t = start(backend, false).await;
    let (email, token) = email_user(&t).await;
    let mut auth = SoftAuthenticator::new("localhost");
    let passkey = link_passkey(&t, &token, &mut auth).await;
    // A pending authenticator secret made while the session was fresh.
    let init = frame_post(&t, TOTP_INIT, &token, json!({})).await;
    assert_eq!(init.status, StatusCode::OK, "{}", init.text);
    let pending = init.body["totpSecret"].as_str().unwrap().to_string();
    let stored_pending = || async {
        let (sealed,): (String,) = sqlx::query_as("SELECT pending_secret FROM mfa_totp")
            .fetch_one(t.state.db.pool())
            .await
            .unwrap();
        sealed
    };
    let before = stored_pending().await;
    t.state.clock.advance(601);

    let stale = |reply: Reply| {
        assert_message(
            &reply,
            403,
            "missing_or_invalid_mfa",
            "Sign in again to change the accounts you sign in with",
        );
    };
    stale(frame_post(&t, TOTP_INIT, &token, json!({})).await);
    let enroll = json!({ "code": code(&t, &pending, 0) });
    stale(frame_post(&t, TOTP_ENROLL, &token, enroll).await);
    let attacker_phone = unique_phone();
    let sms_enroll_init = json!({ "action": "enroll", "phoneNumber": attacker_phone });
    stale(sms_init(&t, &token, sms_enroll_init).await);
    let sms_body = json!({ "phoneNumber": attacker_phone, "code": "123456" });
    stale(frame_post(&t, SMS_ENROLL, &token, sms_body).await);
    let passkeys = json!({ "credential_ids": [passkey] });
    stale(frame_post(&t, PASSKEYS_ENROLL, &token, passkeys).await);
    // Nothing stored: no method, no new pending secret, no code texted, no MFA passkey.
    let user = me(&t, &token).await;
    assert!(methods(&user).is_empty());
    assert_eq!(passkey_state(&user, &passkey), Some(false));
    assert_eq!(
        count(&t, "SELECT COUNT(*) FROM mfa_totp WHERE secret IS NOT NULL").await,
        0
    );
    assert_eq!(
        count(
            &t,
            "SELECT COUNT(*) FROM otp_codes WHERE channel = 'mfa_sms'"
        )
        .await,
        0
    );
    assert_eq!(
        stored_pending().await,
        before,
        "the stale init made no new secret"
    );
    assert!(notices(&t, &email, "second factor").await.is_empty());

    // Signing in again (a fresh proof: the emailed code) opens the window: the enrolment works,
    // and the user's address is told which method was added, when, and what to do otherwise.
    let fresh = token_of(&t.login(&email).await);
    let secret = enroll_totp(&t, &fresh).await;
    assert_eq!(methods(&me(&t, &fresh).await), ["totp"]);
    let mail = notices(&t, &email, "second factor was added").await;
    assert_eq!(mail.len(), 1, "{mail:?}");
    let text = mail_text(&mail[0]);
    assert!(text.contains("An authenticator app was added to the two-step verification of your Test App account on"), "{text}");
    assert!(text.contains(" UTC"), "{text}");
    assert!(text.contains("If this wasn't you"), "{text}");

    // A later factor needs an MFA token in any session, fresh or not.
    enroll_sms(&t, &fresh, &unique_phone(), None)
        .await
        .assert_error(403, "missing_or_invalid_mfa");
    t.state.clock.advance(601);
    let mfa = mfa_token(&t, &token, &secret).await;
    let phone = unique_phone();
    let added = enroll_sms(&t, &token, &phone, Some(&mfa)).await;
    assert_eq!(added.status, StatusCode::OK, "{}", added.text);
    assert_eq!(methods(&added.body["user"]), ["totp", "sms"]);
}

/// Adding or removing a second factor is mailed to the user's email and texted to their linked
/// phone (never to the number being enrolled), naming the method and the time.
async fn factor_changes_are_mailed_and_texted(backend: Backend) {
    let t = start(backend, false).await;
    let (email, token) = email_user(&t).await;
    // The intruder's number as the first factor: the user's address hears of it (the last digits).
    let intruder = unique_phone();
    let enrolled = enroll_sms(&t, &token, &intruder, None).await;
    assert_eq!(enrolled.status, StatusCode::OK, "{}", enrolled.text);
    let added = notices(&t, &email, "second factor was added").await;
    assert_eq!(added.len(), 1);
    let text = mail_text(&added[0]);
    let last4 = &intruder[intruder.len() - 4..];
    assert!(
        text.contains(&format!(
            "SMS to a phone number ending in {last4} was added"
        )),
        "{text}"
    );
    let texts = common::sms_messages(&t.http, &intruder).await;
    assert!(
        texts.iter().all(|m| !m["body"]
            .as_str()
            .unwrap()
            .contains("two-step verification")),
        "{texts:?}"
    );
    // Removing it (with a code texted to it) is told too.
    let sent = sms_init(&t, &token, json!({ "action": "verify" })).await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    let code = t.latest_sms_code(&intruder).await;
    let verified = frame_post(&t, VERIFY, &token, json!({ "method": "sms", "code": code })).await;
    assert_eq!(verified.status, StatusCode::OK, "{}", verified.text);
    let mfa = verified.body["token"].as_str().unwrap();
    let removed = frame_post(
        &t,
        UNENROLL,
        &token,
        json!({ "method": "sms", "mfa_token": mfa }),
    )
    .await;
    assert_eq!(removed.status, StatusCode::OK, "{}", removed.text);
    let gone = notices(&t, &email, "second factor was removed").await;
    assert_eq!(gone.len(), 1);
    let text = mail_text(&gone[0]);
    assert!(
        text.contains(&format!(
            "ending in {last4} was removed from the two-step verification"
        )),
        "{text}"
    );
    assert!(text.contains("If this wasn't you"), "{text}");

    // A user who signs in by SMS is texted at their number.
    let phone = unique_phone();
    let sent = t
        .post(
            "/api/v1/passwordless_sms/init",
            json!({ "phoneNumber": phone }),
        )
        .send()
        .await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    let login_code = t.latest_sms_code(&phone).await;
    let session = t
        .post(
            "/api/v1/passwordless_sms/authenticate",
            json!({ "phoneNumber": phone, "code": login_code }),
        )
        .send()
        .await;
    assert_eq!(session.status, StatusCode::OK, "{}", session.text);
    let phone_token = token_of(&session.body);
    enroll_totp(&t, &phone_token).await;
    let text = t.latest_sms(&phone).await;
    let body = text["body"].as_str().unwrap();
    assert!(
        body.starts_with(
            "Test App: An authenticator app was added to your account's two-step verification on"
        ),
        "{body}"
    );
    assert!(body.contains("If this wasn't you"), "{body}");
}
