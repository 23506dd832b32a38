//! Email-code login: the code arrives by mail, and every refusal of the code flow.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::sync::Arc;

use axum::http::StatusCode;
use common::{Backend, TestApp, unique_email};
use serde_json::json;
use symbolon_server::db::otp::OtpKey;
use symbolon_server::random::random_id;
use tokio::task::JoinSet;

const INIT: &str = "/api/v1/passwordless/init";
const AUTH: &str = "/api/v1/passwordless/authenticate";

backend_tests!(
    code_arrives_by_mail_and_signs_the_user_up_then_in,
    emails_and_codes_are_trimmed_and_case_folded,
    invalid_emails_are_refused,
    plus_emails_are_refused_when_the_app_says_so,
    wrong_code_is_refused,
    code_dies_after_five_wrong_tries,
    expired_code_is_refused,
    code_is_single_use,
    the_code_before_a_resend_stays_valid,
    sends_are_rate_limited_per_email,
    resends_wait_for_a_cooldown_and_keep_the_pending_code,
    concurrent_sends_to_one_address_send_one_code,
    sends_are_rate_limited_per_ip,
    no_signup_mode_refuses_unknown_users,
    concurrent_wrong_guesses_check_at_most_five,
    the_right_code_inside_a_burst_counts_as_one_of_five,
    a_new_code_does_not_reset_the_failure_budget,
    malformed_codes_cost_no_attempt,
    code_checks_are_rate_limited_per_ip,
    addresses_the_mailer_cannot_reach_are_refused_before_storing,
    unicode_and_punycode_domains_are_one_mailbox,
    non_ascii_local_parts_are_refused_before_storing,
);

const WRONG_PREFIX: &str = "Invalid code.";
const USED_UP: &str = "Too many wrong attempts for this code. Request a new code.";
const EXPIRED: &str = "This code has expired or was already used. Request a new code.";

fn wrong_for(code: &str) -> &'static str {
    if code == "000000" { "111111" } else { "000000" }
}

/// Fires `guesses` at once (each on its own task), returns every reply's status and message.
async fn burst(t: &Arc<TestApp>, email: &str, guesses: Vec<String>) -> Vec<(u16, String)> {
    let mut tasks = JoinSet::new();
    for code in guesses {
        let (t, email) = (Arc::clone(t), email.to_string());
        tasks.spawn(async move {
            let reply = t
                .post(AUTH, json!({ "email": email, "code": code }))
                .send()
                .await;
            let message = reply.body["error"].as_str().unwrap_or("").to_string();
            (reply.status.as_u16(), message)
        });
    }
    tasks.join_all().await
}

async fn code_arrives_by_mail_and_signs_the_user_up_then_in(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let init = t.post(INIT, json!({ "email": email })).send().await;
    assert_eq!(
        (init.status, init.body),
        (StatusCode::OK, json!({ "success": true }))
    );
    let message = t.latest_message(&email).await;
    let code = t.latest_code(&email).await;
    assert_eq!(code.len(), 6);
    assert!(code.chars().all(|c| c.is_ascii_digit()));
    assert_eq!(
        message["subject"],
        format!("{code} is your login code for Test App")
    );
    assert!(message["text"].as_str().unwrap().contains(&code));
    assert!(message["html"].as_str().unwrap().contains(&code));
    assert!(
        message["from"]
            .as_str()
            .unwrap()
            .contains("login@symbolon.test")
    );

    let reply = t
        .post(AUTH, json!({ "email": email, "code": code }))
        .send()
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let body = &reply.body;
    assert_eq!(body["is_new_user"], true);
    assert_eq!(body["session_update_action"], "set");
    assert!(
        body["user"]["id"]
            .as_str()
            .unwrap()
            .starts_with("did:privy:")
    );
    assert_eq!(body["user"]["linked_accounts"][0]["type"], "email");
    assert_eq!(
        body["user"]["linked_accounts"][0]["address"],
        email.as_str()
    );
    assert_eq!(body["user"]["has_accepted_terms"], false);
    for field in ["token", "refresh_token", "identity_token"] {
        assert!(
            body[field].as_str().is_some_and(|v| v.len() > 20),
            "{field} missing"
        );
    }
    let cookie = reply.header("set-cookie").unwrap();
    assert!(cookie.starts_with("privy-session=t;"), "{cookie}");
    assert!(
        cookie.contains("Max-Age=2592000")
            && cookie.contains("SameSite=Lax")
            && cookie.contains("Path=/")
    );

    let again = t.login(&email).await;
    assert_eq!(again["is_new_user"], false);
    assert_eq!(again["user"]["id"], body["user"]["id"]);
}

async fn emails_and_codes_are_trimmed_and_case_folded(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let shouted = format!("  {}  ", email.to_uppercase());
    assert_eq!(
        t.post(INIT, json!({ "email": shouted }))
            .send()
            .await
            .status,
        StatusCode::OK
    );
    let code = t.latest_code(&email).await;
    let reply = t
        .post(
            AUTH,
            json!({ "email": email.to_uppercase(), "code": format!(" {code}\n") }),
        )
        .send()
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(
        reply.body["user"]["linked_accounts"][0]["address"],
        email.as_str()
    );
}

async fn invalid_emails_are_refused(backend: Backend) {
    let t = TestApp::start(backend).await;
    for bad in [
        "",
        "not-an-email",
        "a@",
        "@example.com",
        "a b@example.com",
        "Ada <ada@example.com>",
    ] {
        let reply = t.post(INIT, json!({ "email": bad })).send().await;
        reply.assert_error(400, "invalid_data");
        assert_eq!(reply.body["error"], "Invalid email address");
    }
    t.post(AUTH, json!({ "email": "nope", "code": "123456" }))
        .send()
        .await
        .assert_error(400, "invalid_data");
}

async fn plus_emails_are_refused_when_the_app_says_so(backend: Backend) {
    let t = TestApp::start(backend).await;
    let strict = t.create_app(true).await;
    let plus = unique_email().replace('@', "+tag@");
    let refused = t
        .post(INIT, json!({ "email": plus }))
        .header("privy-app-id", &strict)
        .send()
        .await;
    refused.assert_error(403, "disallowed_plus_email");
    // The spec's message (§ validation: plus-addresses).
    assert_eq!(
        refused.body["error"],
        "Please enter a valid email address without a '+'."
    );
    assert_eq!(
        t.post(INIT, json!({ "email": plus })).send().await.status,
        StatusCode::OK,
        "default app allows +"
    );
    // Only the accepted send produced a mail.
    assert_eq!(t.messages(&plus).await.len(), 1);
}

async fn wrong_code_is_refused(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let code = t.send_code(&email).await;
    let reply = t
        .post(AUTH, json!({ "email": email, "code": wrong_for(&code) }))
        .send()
        .await;
    reply.assert_error(401, "invalid_credentials");
    assert_eq!(reply.body["error"], "Invalid code. 4 attempts left.");
    // Unknown address: told there is no live code, nothing else revealed.
    let unknown = t
        .post(AUTH, json!({ "email": unique_email(), "code": code }))
        .send()
        .await;
    unknown.assert_error(401, "invalid_credentials");
    assert_eq!(unknown.body["error"], EXPIRED);
}

async fn code_dies_after_five_wrong_tries(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let code = t.send_code(&email).await;
    let mut messages = Vec::new();
    for _ in 0..5 {
        let reply = t
            .post(AUTH, json!({ "email": email, "code": wrong_for(&code) }))
            .send()
            .await;
        reply.assert_error(401, "invalid_credentials");
        messages.push(reply.body["error"].as_str().unwrap().to_string());
    }
    assert_eq!(
        messages,
        [
            "Invalid code. 4 attempts left.",
            "Invalid code. 3 attempts left.",
            "Invalid code. 2 attempts left.",
            "Invalid code. 1 attempt left.",
            "Invalid code. No attempts left: request a new code.",
        ]
    );
    // The right code now gets a different answer than a wrong one: used up, resend.
    let right = t
        .post(AUTH, json!({ "email": email, "code": code }))
        .send()
        .await;
    right.assert_error(401, "invalid_credentials");
    assert_eq!(right.body["error"], USED_UP);
    // A new code works again.
    let fresh = t.send_code(&email).await;
    let reply = t
        .post(AUTH, json!({ "email": email, "code": fresh }))
        .send()
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

async fn expired_code_is_refused(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let code = t.send_code(&email).await;
    t.state.clock.advance(601);
    let reply = t
        .post(AUTH, json!({ "email": email, "code": code }))
        .send()
        .await;
    reply.assert_error(401, "invalid_credentials");
    assert_eq!(reply.body["error"], EXPIRED);
}

async fn code_is_single_use(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let code = t.send_code(&email).await;
    assert_eq!(
        t.post(AUTH, json!({ "email": email, "code": code }))
            .send()
            .await
            .status,
        StatusCode::OK
    );
    t.post(AUTH, json!({ "email": email, "code": code }))
        .send()
        .await
        .assert_error(401, "invalid_credentials");
}

/// Two distinct codes for `email`, sent one after the other.
async fn two_codes(t: &TestApp, email: &str) -> (String, String) {
    let first = t.send_code(email).await;
    for _ in 0..5 {
        let second = t.send_code(email).await;
        if second != first {
            return (first, second);
        }
    }
    panic!("six sends produced the same code");
}

async fn the_code_before_a_resend_stays_valid(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    // A resend (by the user, or by someone else asking for the user's address) never strands
    // the code the user is typing.
    let (first, second) = two_codes(&t, &email).await;
    let reply = t
        .post(AUTH, json!({ "email": email, "code": first }))
        .send()
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    // One login uses both: neither works again.
    let again = t
        .post(AUTH, json!({ "email": email, "code": second }))
        .send()
        .await;
    again.assert_error(401, "invalid_credentials");
    assert_eq!(again.body["error"], EXPIRED);
    // Only the newest two stay valid.
    let (oldest, _) = two_codes(&t, &email).await;
    let mut third = t.send_code(&email).await;
    while third == oldest {
        third = t.send_code(&email).await;
    }
    let reply = t
        .post(AUTH, json!({ "email": email, "code": oldest }))
        .send()
        .await;
    reply.assert_error(401, "invalid_credentials");
    let reply = t
        .post(AUTH, json!({ "email": email, "code": third }))
        .send()
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

async fn sends_are_rate_limited_per_email(backend: Backend) {
    let t = TestApp::start_with(backend, |c| {
        c.rate_limit.email_per_window = 2;
        c.rate_limit.window_s = 120;
    })
    .await;
    let email = unique_email();
    t.send_code(&email).await;
    let code = t.send_code(&email).await;
    // While a code is valid a third start answers success and sends nothing (tests/it/codes.rs);
    // once it is used, the window's limit shows.
    let reply = t
        .post(AUTH, json!({ "email": email, "code": code }))
        .send()
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let limited = t.post(INIT, json!({ "email": email })).send().await;
    limited.assert_error(429, "too_many_requests");
    let retry: u64 = limited.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=120).contains(&retry), "Retry-After {retry}");
    assert_eq!(
        t.messages(&email).await.len(),
        2,
        "no mail for the refused send"
    );
    // Another address is unaffected; the window passing lifts the limit.
    assert_eq!(
        t.post(INIT, json!({ "email": unique_email() }))
            .send()
            .await
            .status,
        StatusCode::OK
    );
    t.state.clock.advance(121);
    assert_eq!(
        t.post(INIT, json!({ "email": email })).send().await.status,
        StatusCode::OK
    );
    assert_eq!(t.messages(&email).await.len(), 3);
}

async fn resends_wait_for_a_cooldown_and_keep_the_pending_code(backend: Backend) {
    let t = TestApp::start_with(backend, |c| c.rate_limit.resend_cooldown_s = 20).await;
    let email = unique_email();
    let code = t.send_code(&email).await;
    // Five quick requests (the old limit locked the address out for 10 minutes; then each was a
    // 429) only meet the cooldown: the pending code is valid, so each answers success, nothing is
    // sent, the pending code is untouched.
    for _ in 0..5 {
        let again = t.post(INIT, json!({ "email": email })).send().await;
        assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    }
    assert_eq!(t.messages(&email).await.len(), 1);
    t.state.clock.advance(20);
    assert_eq!(
        t.post(INIT, json!({ "email": email })).send().await.status,
        StatusCode::OK
    );
    assert_eq!(t.messages(&email).await.len(), 2);
    let reply = t
        .post(AUTH, json!({ "email": email, "code": code }))
        .send()
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    // With no valid code left, the cooldown is a 429 with Retry-After.
    let limited = t.post(INIT, json!({ "email": email })).send().await;
    limited.assert_error(429, "too_many_requests");
    let retry: u64 = limited.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=20).contains(&retry), "Retry-After {retry}");
}

async fn concurrent_sends_to_one_address_send_one_code(backend: Backend) {
    let t = Arc::new(TestApp::start_with(backend, |c| c.rate_limit.resend_cooldown_s = 20).await);
    let email = unique_email();
    let mut tasks = JoinSet::new();
    for _ in 0..30 {
        let (t, email) = (Arc::clone(&t), email.clone());
        tasks.spawn(async move { t.post(INIT, json!({ "email": email })).send().await.status });
    }
    let statuses = tasks.join_all().await;
    // One stores and sends a code; the others meet the cooldown with that code valid: success,
    // nothing sent.
    assert!(
        statuses.iter().all(|s| *s == StatusCode::OK),
        "{statuses:?}"
    );
    assert_eq!(t.messages(&email).await.len(), 1, "one mail for 30 sends");
    let key = OtpKey {
        app_id: &t.app_id,
        channel: "email",
        subject: &email,
    };
    assert_eq!(t.state.db.otp_state(key).await.unwrap().unwrap().sends, 1);
}

async fn sends_are_rate_limited_per_ip(backend: Backend) {
    let t = TestApp::start_with(backend, |c| c.rate_limit.ip_per_window = 3).await;
    for _ in 0..3 {
        let reply = t
            .post(INIT, json!({ "email": unique_email() }))
            .client_ip("10.0.0.7")
            .send()
            .await;
        assert_eq!(reply.status, StatusCode::OK);
    }
    let limited = t
        .post(INIT, json!({ "email": unique_email() }))
        .client_ip("10.0.0.7")
        .send()
        .await;
    limited.assert_error(429, "too_many_requests");
    assert!(limited.header("retry-after").is_some());
    // The budget is the client's network (a /24): a neighbour shares it, another network not.
    t.post(INIT, json!({ "email": unique_email() }))
        .client_ip("10.0.0.8")
        .send()
        .await
        .assert_error(429, "too_many_requests");
    let other_network = t
        .post(INIT, json!({ "email": unique_email() }))
        .client_ip("10.0.1.8")
        .send()
        .await;
    assert_eq!(other_network.status, StatusCode::OK);
}

async fn no_signup_mode_refuses_unknown_users(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let code = t.send_code(&email).await;
    t.post(
        AUTH,
        json!({ "email": email, "code": code, "mode": "no-signup" }),
    )
    .send()
    .await
    .assert_error(400, "user_does_not_exist");
    // A known user may sign in with no-signup.
    let known = unique_email();
    t.login(&known).await;
    let code = t.send_code(&known).await;
    let reply = t
        .post(
            AUTH,
            json!({ "email": known, "code": code, "mode": "no-signup" }),
        )
        .send()
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body["is_new_user"], false);
}

async fn concurrent_wrong_guesses_check_at_most_five(backend: Backend) {
    let t = Arc::new(TestApp::start(backend).await);
    let email = unique_email();
    let code = t.send_code(&email).await;
    let replies = burst(&t, &email, vec![wrong_for(&code).to_string(); 200]).await;
    let checked = replies
        .iter()
        .filter(|(_, m)| m.starts_with(WRONG_PREFIX))
        .count();
    assert_eq!(checked, 5, "guesses checked against one code: {replies:?}");
    assert!(
        replies
            .iter()
            .all(|(status, m)| *status == 401 && (m.starts_with(WRONG_PREFIX) || m == USED_UP)),
        "{replies:?}"
    );
    let right = t
        .post(AUTH, json!({ "email": email, "code": code }))
        .send()
        .await;
    right.assert_error(401, "invalid_credentials");
    assert_eq!(right.body["error"], USED_UP);
}

async fn the_right_code_inside_a_burst_counts_as_one_of_five(backend: Backend) {
    let t = Arc::new(TestApp::start(backend).await);
    for _ in 0..3 {
        let email = unique_email();
        let code = t.send_code(&email).await;
        let mut guesses = vec![wrong_for(&code).to_string(); 60];
        guesses.insert(30, code.clone());
        let replies = burst(&t, &email, guesses).await;
        let signed_in = replies.iter().filter(|(status, _)| *status == 200).count();
        let wrong = replies
            .iter()
            .filter(|(_, m)| m.starts_with(WRONG_PREFIX))
            .count();
        assert!(signed_in <= 1, "{replies:?}");
        assert!(
            wrong + signed_in <= 5,
            "{wrong} wrong and {signed_in} right guesses checked: {replies:?}"
        );
    }
}

async fn a_new_code_does_not_reset_the_failure_budget(backend: Backend) {
    let t = TestApp::start_with(backend, |c| c.rate_limit.code_failures_per_hour = 7).await;
    let email = unique_email();
    let first = t.send_code(&email).await;
    for _ in 0..5 {
        let reply = t
            .post(AUTH, json!({ "email": email, "code": wrong_for(&first) }))
            .send()
            .await;
        reply.assert_error(401, "invalid_credentials");
    }
    let code = t.send_code(&email).await;
    for _ in 0..2 {
        let reply = t
            .post(AUTH, json!({ "email": email, "code": wrong_for(&code) }))
            .send()
            .await;
        reply.assert_error(401, "invalid_credentials");
    }
    // Budget spent: even the right, fresh code is not checked.
    let limited = t
        .post(AUTH, json!({ "email": email, "code": code }))
        .send()
        .await;
    limited.assert_error(429, "too_many_requests");
    let retry: i64 = limited.header("retry-after").unwrap().parse().unwrap();
    assert!((3_000..=3_600).contains(&retry), "Retry-After {retry}");
    assert!(
        limited.body["error"]
            .as_str()
            .unwrap()
            .starts_with("Too many wrong codes")
    );
    // Another address is unaffected.
    t.login(&unique_email()).await;
    // After the hour, a new code signs in.
    t.state.clock.advance(3_601);
    let fresh = t.send_code(&email).await;
    let reply = t
        .post(AUTH, json!({ "email": email, "code": fresh }))
        .send()
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

async fn malformed_codes_cost_no_attempt(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let code = t.send_code(&email).await;
    for (bad, message) in [
        ("abcdef", "Passcode can only be numbers"),
        ("12 456", "Passcode can only be numbers"),
        ("1234567", "Passcode must be exactly 6 numbers"),
        ("12345", "Passcode must be exactly 6 numbers"),
        ("", "Passcode must be exactly 6 numbers"),
    ] {
        for _ in 0..3 {
            let reply = t
                .post(AUTH, json!({ "email": email, "code": bad }))
                .send()
                .await;
            reply.assert_error(400, "invalid_data");
            assert_eq!(reply.body["error"], message, "{bad:?}");
        }
    }
    // 15 malformed codes later, the first real guess still has all its attempts.
    let reply = t
        .post(AUTH, json!({ "email": email, "code": wrong_for(&code) }))
        .send()
        .await;
    assert_eq!(reply.body["error"], "Invalid code. 4 attempts left.");
    // Surrounding white space is trimmed (spec §5).
    let reply = t
        .post(
            AUTH,
            json!({ "email": email, "code": format!(" {code}\n") }),
        )
        .send()
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

async fn code_checks_are_rate_limited_per_ip(backend: Backend) {
    let t = TestApp::start_with(backend, |c| c.rate_limit.ip_authenticate_per_window = 3).await;
    let email = unique_email();
    let code = t.send_code(&email).await;
    for _ in 0..3 {
        t.post(AUTH, json!({ "email": unique_email(), "code": "123456" }))
            .client_ip("10.0.0.9")
            .send()
            .await
            .assert_error(401, "invalid_credentials");
    }
    let limited = t
        .post(AUTH, json!({ "email": email, "code": code }))
        .client_ip("10.0.0.9")
        .send()
        .await;
    limited.assert_error(429, "too_many_requests");
    assert!(limited.header("retry-after").is_some());
    // The limit is the network's, not the address's: the user elsewhere signs in.
    let reply = t
        .post(AUTH, json!({ "email": email, "code": code }))
        .client_ip("10.0.1.10")
        .send()
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

async fn addresses_the_mailer_cannot_reach_are_refused_before_storing(backend: Backend) {
    let t = TestApp::start(backend).await;
    for email in ["\"a b\"@example.com", "\"ada\"@example.com"] {
        let reply = t.post(INIT, json!({ "email": email })).send().await;
        reply.assert_error(400, "invalid_data");
        let key = OtpKey {
            app_id: &t.app_id,
            channel: "email",
            subject: email,
        };
        assert_eq!(t.state.db.otp_state(key).await.unwrap(), None, "{email}");
    }
}

async fn unicode_and_punycode_domains_are_one_mailbox(backend: Backend) {
    let t = TestApp::start(backend).await;
    let local = format!("idn-{}", random_id(10).unwrap());
    let unicode = format!("{local}@Bücher.example");
    let ascii = format!("{local}@xn--bcher-kva.example");
    // Before: the mailer refused the Unicode domain after the code was stored (500), and the two
    // forms were two addresses, so two users.
    let init = t.post(INIT, json!({ "email": unicode })).send().await;
    assert_eq!(init.status, StatusCode::OK, "{}", init.text);
    // The capture's SMTP server shows the envelope's punycode domain in Unicode again.
    let code = t.latest_code(&unicode.to_lowercase()).await;
    let first = t
        .post(AUTH, json!({ "email": unicode, "code": code }))
        .send()
        .await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert_eq!(first.body["user"]["linked_accounts"][0]["address"], ascii);
    // The punycode form is the same mailbox: the same row (its cooldown, its codes), the same user.
    let init = t.post(INIT, json!({ "email": ascii })).send().await;
    assert_eq!(init.status, StatusCode::OK, "{}", init.text);
    assert_eq!(t.messages(&unicode.to_lowercase()).await.len(), 2);
    let code = t.latest_code(&unicode.to_lowercase()).await;
    let again = t
        .post(AUTH, json!({ "email": ascii.to_uppercase(), "code": code }))
        .send()
        .await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(again.body["is_new_user"], false);
    assert_eq!(again.body["user"]["id"], first.body["user"]["id"]);
}

async fn non_ascii_local_parts_are_refused_before_storing(backend: Backend) {
    let t = TestApp::start_with(backend, |c| c.rate_limit.resend_cooldown_s = 20).await;
    let email = format!("jörg-{}@example.com", random_id(10).unwrap());
    for _ in 0..2 {
        let reply = t.post(INIT, json!({ "email": email })).send().await;
        reply.assert_error(400, "invalid_data");
        assert!(
            reply.body["error"]
                .as_str()
                .unwrap()
                .contains("not supported"),
            "{}",
            reply.text
        );
    }
    for subject in [email.as_str(), &email.to_lowercase()] {
        let key = OtpKey {
            app_id: &t.app_id,
            channel: "email",
            subject,
        };
        assert_eq!(t.state.db.otp_state(key).await.unwrap(), None);
    }
}
