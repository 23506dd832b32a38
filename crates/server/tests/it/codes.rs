//! Who can stop whom from signing in with a code (issue 19): the wrong-code budget per (address,
//! client network) with a short per-address backstop, each login method's own per-network budget,
//! and a second start within the cooldown that answers success without sending.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::sync::Arc;

use axum::http::StatusCode;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use common::{Backend, TestApp, services, unique_email, unique_phone};
use serde_json::json;
use symbolon_protocol::accounts::LoginMethodsAndOrder;
use symbolon_server::app_settings::AppSettings;
use symbolon_server::app_settings::oauth::ProviderSettings;
use symbolon_server::db::otp::OtpKey;
use tokio::task::JoinSet;

const INIT: &str = "/api/v1/passwordless/init";
const AUTH: &str = "/api/v1/passwordless/authenticate";
const SMS_INIT: &str = "/api/v1/passwordless_sms/init";
const SMS_AUTH: &str = "/api/v1/passwordless_sms/authenticate";
const OAUTH_INIT: &str = "/api/v1/oauth/init";

const WRONG_PREFIX: &str = "Invalid code.";
const LOCKED_PREFIX: &str = "Too many wrong codes for this address.";

const ATTACKER: &str = "203.0.113.9";
const ATTACKER_NEIGHBOUR: &str = "203.0.113.77";
const VICTIM: &str = "198.51.100.7";

backend_tests!(
    an_attacker_network_cannot_lock_the_victim_out,
    concurrent_guesses_from_one_network_never_exceed_its_budget,
    many_networks_meet_a_short_backstop_and_a_fresh_code_still_passes,
    each_login_method_has_its_own_network_budget,
    a_second_start_within_the_cooldown_answers_success_and_sends_nothing,
    a_second_sms_start_within_the_cooldown_texts_nothing,
    a_resend_after_no_attempts_left_is_a_real_one,
);

fn wrong_for(code: &str) -> &'static str {
    if code == "000000" { "111111" } else { "000000" }
}

async fn init_from(t: &TestApp, email: &str, ip: &str) -> common::Reply {
    t.post(INIT, json!({ "email": email }))
        .client_ip(ip)
        .send()
        .await
}

async fn guess_from(t: &TestApp, email: &str, code: &str, ip: &str) -> common::Reply {
    t.post(AUTH, json!({ "email": email, "code": code }))
        .client_ip(ip)
        .send()
        .await
}

/// Fires one guess per `(ip, code)` at once; answers each reply's status and message.
async fn burst(
    t: &Arc<TestApp>,
    email: &str,
    guesses: Vec<(String, String)>,
) -> Vec<(u16, String)> {
    let mut tasks = JoinSet::new();
    for (ip, code) in guesses {
        let (t, email) = (Arc::clone(t), email.to_string());
        tasks.spawn(async move {
            let reply = guess_from(&t, &email, &code, &ip).await;
            let message = reply.body["error"].as_str().unwrap_or("").to_string();
            (reply.status.as_u16(), message)
        });
    }
    tasks.join_all().await
}

fn checked(replies: &[(u16, String)]) -> usize {
    replies
        .iter()
        .filter(|(_, m)| m.starts_with(WRONG_PREFIX))
        .count()
}

async fn an_attacker_network_cannot_lock_the_victim_out(backend: Backend) {
    // Production limits, but no resend cooldown so the attack is quick to write down.
    let t = TestApp::start_with(backend, |c| {
        c.rate_limit = Default::default();
        c.rate_limit.resend_cooldown_s = 0;
    })
    .await;
    let email = unique_email();
    // The attacker asks for codes to the victim's address and guesses until refused: before, 4
    // sends and 20 wrong guesses locked the address for an hour (the victim's right code: 429).
    let mut wrong = 0;
    let mut refused = None;
    for _ in 0..6 {
        let sent = init_from(&t, &email, ATTACKER).await;
        assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
        for _ in 0..5 {
            let reply = guess_from(&t, &email, "000000", ATTACKER).await;
            let message = reply.body["error"].as_str().unwrap_or("").to_string();
            if message.starts_with(WRONG_PREFIX) {
                wrong += 1;
            } else if reply.status == StatusCode::TOO_MANY_REQUESTS {
                refused = Some(reply);
                break;
            }
        }
        if refused.is_some() {
            break;
        }
    }
    let refused = refused.expect("the attacker's network is refused in the end");
    assert!(
        wrong <= 20,
        "{wrong} wrong guesses checked from one network"
    );
    assert!(
        refused.body["error"]
            .as_str()
            .unwrap()
            .starts_with(LOCKED_PREFIX)
    );
    let retry: i64 = refused.header("retry-after").unwrap().parse().unwrap();
    assert!((3_000..=3_600).contains(&retry), "Retry-After {retry}");
    // The whole /24 is the attacker's network: a neighbour address is refused too.
    guess_from(&t, &email, "123456", ATTACKER_NEIGHBOUR)
        .await
        .assert_error(429, "too_many_requests");
    // The victim, on another network, asks for a code and signs in at once.
    let sent = init_from(&t, &email, VICTIM).await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    let code = t.latest_code(&email).await;
    let reply = guess_from(&t, &email, &code, VICTIM).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

async fn concurrent_guesses_from_one_network_never_exceed_its_budget(backend: Backend) {
    let t =
        Arc::new(TestApp::start_with(backend, |c| c.rate_limit.code_failures_per_hour = 3).await);
    let email = unique_email();
    let code = t.send_code(&email).await;
    // 120 wrong guesses at once from three addresses of one /24.
    let guesses = (0..120)
        .map(|n| {
            (
                format!("203.0.113.{}", n % 3 + 1),
                wrong_for(&code).to_string(),
            )
        })
        .collect();
    let replies = burst(&t, &email, guesses).await;
    assert_eq!(checked(&replies), 3, "{replies:?}");
    assert!(
        replies.iter().all(|(status, m)| m.starts_with(WRONG_PREFIX)
            || (*status == 429 && m.starts_with(LOCKED_PREFIX))),
        "{replies:?}"
    );
    // The code itself is untouched for everyone else: the victim's network signs in with it.
    let reply = guess_from(&t, &email, &code, VICTIM).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

async fn many_networks_meet_a_short_backstop_and_a_fresh_code_still_passes(backend: Backend) {
    let t = Arc::new(
        TestApp::start_with(backend, |c| c.rate_limit.code_failures_per_address = 6).await,
    );
    let email = unique_email();
    let old_code = t.send_code(&email).await;
    // 40 networks guess at once, one wrong guess each: only the backstop's 6 are checked.
    let guesses = (0..40)
        .map(|n| (format!("10.{n}.0.1"), wrong_for(&old_code).to_string()))
        .collect();
    let replies = burst(&t, &email, guesses).await;
    assert_eq!(checked(&replies), 6, "{replies:?}");
    let limited = guess_from(&t, &email, &old_code, "10.99.0.1").await;
    limited.assert_error(429, "too_many_requests");
    let retry: i64 = limited.header("retry-after").unwrap().parse().unwrap();
    assert!(
        (1..=60).contains(&retry),
        "a short lock: Retry-After {retry}"
    );
    // The victim's code from before the lock is refused, like every guess...
    let victim_old = guess_from(&t, &email, &old_code, VICTIM).await;
    victim_old.assert_error(429, "too_many_requests");
    assert!(
        victim_old.body["error"]
            .as_str()
            .unwrap()
            .contains("Request a new code")
    );
    // ...but a code the victim asks for now passes for the victim's network.
    let sent = init_from(&t, &email, VICTIM).await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    let fresh = t.latest_code(&email).await;
    // Another network cannot use (or burn) that fresh code during the lock.
    guess_from(&t, &email, &fresh, "10.98.0.1")
        .await
        .assert_error(429, "too_many_requests");
    // An attacker network asking for a code of its own during the lock gets one guess at it...
    let sent = init_from(&t, &email, "10.97.0.1").await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    let theirs = t.latest_code(&email).await;
    let first = guess_from(&t, &email, wrong_for(&theirs), "10.97.0.1").await;
    first.assert_error(401, "invalid_credentials");
    assert_eq!(
        first.body["error"],
        "Invalid code. No attempts left: request a new code."
    );
    guess_from(&t, &email, &theirs, "10.97.0.1")
        .await
        .assert_error(429, "too_many_requests");
    // ...and its send does not strand the victim's code, which passes for the victim's network.
    let reply = guess_from(&t, &email, &fresh, VICTIM).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    // The lock ends after a minute; a second one in a row lasts twice as long.
    t.state.clock.advance(61);
    let code = t.send_code(&email).await;
    let guesses = (0..20)
        .map(|n| (format!("10.{}.1.1", 100 + n), wrong_for(&code).to_string()))
        .collect();
    let replies = burst(&t, &email, guesses).await;
    // The attacker's guess during the lock counted too: 5 more make the backstop's 6.
    assert_eq!(checked(&replies), 5, "{replies:?}");
    let limited = guess_from(&t, &email, &code, "10.99.1.1").await;
    let retry: i64 = limited.header("retry-after").unwrap().parse().unwrap();
    assert!((61..=120).contains(&retry), "backoff: Retry-After {retry}");
}

/// Email, SMS and GitHub (pointed at the OAuth 2.0 stand-in) on.
fn three_methods() -> AppSettings {
    let github = services()
        .oauth2_url
        .clone()
        .expect("the OAuth 2.0 stand-in");
    let mut settings = AppSettings {
        login_methods: LoginMethodsAndOrder {
            primary: vec!["email".into(), "sms".into(), "github".into()],
            overflow: vec![],
        },
        ..AppSettings::default()
    };
    settings.oauth.providers.insert(
        "github".into(),
        ProviderSettings {
            client_id: "symbolon-dev".into(),
            client_secret: "symbolon-dev-secret".into(),
            authorize_url: Some(format!("{github}/login/oauth/authorize")),
            token_url: Some(format!("{github}/login/oauth/access_token")),
            userinfo_url: Some(format!("{github}/user")),
            ..ProviderSettings::default()
        },
    );
    settings
}

async fn oauth_init_from(t: &TestApp, ip: &str) -> common::Reply {
    let random = || URL_SAFE_NO_PAD.encode(symbolon_server::random::random_bytes::<36>().unwrap());
    t.post(
        OAUTH_INIT,
        json!({
            "provider": "github",
            "redirect_to": "http://localhost:3000/login",
            "code_challenge": URL_SAFE_NO_PAD.encode([7u8; 32]),
            "state_code": random(),
        }),
    )
    .client_ip(ip)
    .send()
    .await
}

async fn each_login_method_has_its_own_network_budget(backend: Backend) {
    let t = TestApp::start_with(backend, |c| {
        c.rate_limit.ip_per_window = 3;
        c.rate_limit.sms_ip_per_window = 2;
        c.rate_limit.window_s = 600;
    })
    .await;
    t.set_settings(three_methods().checked().expect("valid settings"))
        .await;
    let office = ["10.20.30.1", "10.20.30.2", "10.20.30.3"];
    for ip in office {
        let sent = init_from(&t, &unique_email(), ip).await;
        assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    }
    // Email's burst is spent for the whole /24...
    let limited = init_from(&t, &unique_email(), "10.20.30.200").await;
    limited.assert_error(429, "too_many_requests");
    let retry: u64 = limited.header("retry-after").unwrap().parse().unwrap();
    // ...and comes back one send at a time (600 s / 3), not after a whole window.
    assert!((1..=200).contains(&retry), "Retry-After {retry}");
    // SMS and OAuth have budgets of their own: the same network still starts them.
    let texted = t
        .post(SMS_INIT, json!({ "phoneNumber": unique_phone() }))
        .client_ip("10.20.30.4")
        .send()
        .await;
    assert_eq!(texted.status, StatusCode::OK, "{}", texted.text);
    let oauth = oauth_init_from(&t, "10.20.30.5").await;
    assert_eq!(oauth.status, StatusCode::OK, "{}", oauth.text);
    assert!(oauth.body["url"].as_str().is_some(), "{}", oauth.text);
    // Another network's email budget is whole.
    let elsewhere = init_from(&t, &unique_email(), "10.20.31.1").await;
    assert_eq!(elsewhere.status, StatusCode::OK, "{}", elsewhere.text);
    // Once one send's share is back, the office sends again.
    t.state.clock.advance(i64::try_from(retry).unwrap());
    let again = init_from(&t, &unique_email(), "10.20.30.6").await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
}

async fn a_second_start_within_the_cooldown_answers_success_and_sends_nothing(backend: Backend) {
    let t = TestApp::start_with(backend, |c| {
        c.rate_limit.resend_cooldown_s = 20;
        c.rate_limit.email_per_window = 2;
    })
    .await;
    let email = unique_email();
    t.send_code(&email).await;
    // Logging in again, or "Change email" and Submit with the same address: the code already sent
    // is still valid, so the answer is success (the client shows the code screen), with no mail.
    for _ in 0..3 {
        let again = t.post(INIT, json!({ "email": email })).send().await;
        assert_eq!(
            (again.status, &again.body),
            (StatusCode::OK, &json!({ "success": true })),
            "{}",
            again.text
        );
    }
    assert_eq!(t.messages(&email).await.len(), 1, "nothing sent again");
    // It spent no send: after the cooldown the second of the window's two sends goes out.
    t.state.clock.advance(20);
    let second = t.send_code(&email).await;
    assert_eq!(t.messages(&email).await.len(), 2);
    let key = OtpKey {
        app_id: &t.app_id,
        channel: "email",
        subject: &email,
    };
    assert_eq!(t.state.db.otp_state(key).await.unwrap().unwrap().sends, 2);
    // Past the window's sends, a start still answers success while a code is valid...
    t.state.clock.advance(20);
    let third = t.post(INIT, json!({ "email": email })).send().await;
    assert_eq!(third.status, StatusCode::OK, "{}", third.text);
    assert_eq!(t.messages(&email).await.len(), 2);
    let reply = t
        .post(AUTH, json!({ "email": email, "code": second }))
        .send()
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    // ...and once no valid code is left (this one was used), it is the 429 with Retry-After.
    let limited = t.post(INIT, json!({ "email": email })).send().await;
    limited.assert_error(429, "too_many_requests");
    let retry: u64 = limited.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=600).contains(&retry), "Retry-After {retry}");
    assert_eq!(t.messages(&email).await.len(), 2);
}

async fn a_second_sms_start_within_the_cooldown_texts_nothing(backend: Backend) {
    let t = TestApp::start_with(backend, |c| c.rate_limit.resend_cooldown_s = 20).await;
    t.set_settings(three_methods().checked().expect("valid settings"))
        .await;
    let number = unique_phone();
    let first = t
        .post(SMS_INIT, json!({ "phoneNumber": number }))
        .send()
        .await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let code = t.latest_sms_code(&number).await;
    let again = t
        .post(SMS_INIT, json!({ "phoneNumber": number }))
        .send()
        .await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(
        common::sms_messages(&t.http, &number).await.len(),
        1,
        "nothing texted again"
    );
    let reply = t
        .post(SMS_AUTH, json!({ "phoneNumber": number, "code": code }))
        .send()
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

async fn a_resend_after_no_attempts_left_is_a_real_one(backend: Backend) {
    let t = TestApp::start_with(backend, |c| c.rate_limit.resend_cooldown_s = 20).await;
    let email = unique_email();
    let code = t.send_code(&email).await;
    for _ in 0..5 {
        guess_from(&t, &email, wrong_for(&code), "127.0.0.1")
            .await
            .assert_error(401, "invalid_credentials");
    }
    // This network cannot use the pending code any more: "Resend code" within the cooldown is not
    // answered as sent (nothing would arrive); it is the 429 with the wait.
    let limited = t.post(INIT, json!({ "email": email })).send().await;
    limited.assert_error(429, "too_many_requests");
    let retry: u64 = limited.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=20).contains(&retry), "Retry-After {retry}");
    // Another network could still type it, so for it a start within the cooldown is success.
    let elsewhere = init_from(&t, &email, VICTIM).await;
    assert_eq!(elsewhere.status, StatusCode::OK, "{}", elsewhere.text);
    let reply = guess_from(&t, &email, &code, VICTIM).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(t.messages(&email).await.len(), 1);
    // After the wait, the resend sends a new code.
    t.state.clock.advance(20);
    let fresh = t.send_code(&email).await;
    assert_eq!(t.messages(&email).await.len(), 2);
    let reply = t
        .post(AUTH, json!({ "email": email, "code": fresh }))
        .send()
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}
