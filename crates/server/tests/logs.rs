//! Logs never contain login codes, tokens or keys.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::OnceLock;

use axum::http::StatusCode;
use common::{Backend, Capture, TestApp, unique_email};
use serde_json::json;

fn capture() -> &'static Capture {
    static CAPTURE: OnceLock<Capture> = OnceLock::new();
    CAPTURE.get_or_init(|| {
        let capture = Capture::default();
        let writer = capture.clone();
        // Global and at TRACE, so every layer (ours, tower-http, sqlx) is captured.
        tracing_subscriber::fmt()
            .with_env_filter("trace")
            .without_time()
            .with_writer(move || writer.clone())
            .try_init()
            .expect("first subscriber in this binary");
        capture
    })
}

backend_tests!(login_refresh_and_logout_log_no_secrets);

async fn login_refresh_and_logout_log_no_secrets(backend: Backend) {
    let logs = capture();
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let code = t.send_code(&email).await;
    let session = t
        .post(
            "/api/v1/passwordless/authenticate",
            json!({ "email": email, "code": code }),
        )
        .send()
        .await
        .body;
    let refresh = session["refresh_token"].as_str().unwrap().to_string();
    let refreshed = t
        .post("/api/v1/sessions", json!({ "refresh_token": refresh }))
        .send()
        .await;
    assert_eq!(refreshed.status, StatusCode::OK);
    let logout = t
        .post(
            "/api/v1/sessions/logout",
            json!({ "refresh_token": refreshed.body["refresh_token"] }),
        )
        .send()
        .await;
    assert_eq!(logout.status, StatusCode::OK);

    let text = String::from_utf8_lossy(&logs.0.lock().unwrap()).to_string();
    assert!(text.contains("login code sent"), "logging was not captured");
    assert!(
        !contains_code(&text, &code),
        "the login code appeared in the logs"
    );
    let mut secrets = vec![refresh];
    for field in ["token", "identity_token"] {
        secrets.push(session[field].as_str().unwrap().to_string());
    }
    for field in ["token", "refresh_token", "identity_token"] {
        secrets.push(refreshed.body[field].as_str().unwrap().to_string());
    }
    for secret in &secrets {
        assert!(
            !text.contains(secret.as_str()),
            "a secret appeared in the logs"
        );
    }
    // Nor is the stored private key, in the logs or in the key ring's Debug output.
    let stored = t.state.db.signing_keys().await.unwrap();
    let private_key = &stored[0].private_key;
    assert!(!text.contains(private_key.as_str()));
    assert!(!format!("{:?}", t.state.tokens.keys()).contains(private_key.as_str()));
}

/// Whether `code` occurs as a number of its own: not inside a longer digit run or after a decimal
/// point (sqlx logs durations like `1.234567ms`, which could collide with a code by chance).
fn contains_code(text: &str, code: &str) -> bool {
    text.match_indices(code).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + code.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_digit() || c == '.')
            && !after.is_some_and(|c| c.is_ascii_digit())
    })
}

#[test]
fn contains_code_finds_standalone_codes_only() {
    assert!(contains_code("code=123456 sent", "123456"));
    assert!(contains_code("123456 is your login code", "123456"));
    assert!(!contains_code("elapsed=1.123456ms", "123456"));
    assert!(!contains_code("id 91234567", "123456"));
}
