//! Email-code login: the code arrives by mail, and every refusal of the code flow.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use axum::http::StatusCode;
use common::{Backend, TestApp, unique_email};
use serde_json::json;

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
    new_code_replaces_the_old_one,
    sends_are_rate_limited_per_email,
    sends_are_rate_limited_per_ip,
    no_signup_mode_refuses_unknown_users,
);

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
    let wrong = if code == "000000" { "111111" } else { "000000" };
    t.post(AUTH, json!({ "email": email, "code": wrong }))
        .send()
        .await
        .assert_error(401, "invalid_credentials");
    // Unknown address: same answer, nothing revealed.
    t.post(AUTH, json!({ "email": unique_email(), "code": code }))
        .send()
        .await
        .assert_error(401, "invalid_credentials");
}

async fn code_dies_after_five_wrong_tries(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let code = t.send_code(&email).await;
    let wrong = if code == "000000" { "111111" } else { "000000" };
    for _ in 0..5 {
        t.post(AUTH, json!({ "email": email, "code": wrong }))
            .send()
            .await
            .assert_error(401, "invalid_credentials");
    }
    t.post(AUTH, json!({ "email": email, "code": code }))
        .send()
        .await
        .assert_error(401, "invalid_credentials");
}

async fn expired_code_is_refused(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let code = t.send_code(&email).await;
    t.state.clock.advance(601);
    t.post(AUTH, json!({ "email": email, "code": code }))
        .send()
        .await
        .assert_error(401, "invalid_credentials");
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

async fn new_code_replaces_the_old_one(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let first = t.send_code(&email).await;
    let mut second = first.clone();
    for _ in 0..5 {
        assert_eq!(
            t.post(INIT, json!({ "email": email })).send().await.status,
            StatusCode::OK
        );
        second = t.latest_code(&email).await;
        if second != first {
            break;
        }
    }
    assert_ne!(first, second, "six sends produced the same code");
    t.post(AUTH, json!({ "email": email, "code": first }))
        .send()
        .await
        .assert_error(401, "invalid_credentials");
    assert_eq!(
        t.post(AUTH, json!({ "email": email, "code": second }))
            .send()
            .await
            .status,
        StatusCode::OK
    );
}

async fn sends_are_rate_limited_per_email(backend: Backend) {
    let t = TestApp::start_with(backend, |c| {
        c.rate_limit.email_per_window = 2;
        c.rate_limit.window_s = 120;
    })
    .await;
    let email = unique_email();
    for _ in 0..2 {
        assert_eq!(
            t.post(INIT, json!({ "email": email })).send().await.status,
            StatusCode::OK
        );
    }
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
    let other_ip = t
        .post(INIT, json!({ "email": unique_email() }))
        .client_ip("10.0.0.8")
        .send()
        .await;
    assert_eq!(other_ip.status, StatusCode::OK);
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
