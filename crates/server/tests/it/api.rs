//! Routing, headers, origins, CORS and the JSON shape of every answer.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use axum::http::{Method, StatusCode};
use common::{Backend, CLIENT_ID, ORIGIN, TestApp};
use serde_json::json;

backend_tests!(
    health_answers_ok,
    unknown_routes_and_methods_answer_json_errors,
    app_config_is_served_with_defaults,
    app_config_refuses_unknown_or_mismatched_ids,
    app_id_header_is_required_and_checked,
    client_id_is_checked_when_present,
    origin_must_be_allowed_for_the_app,
    browser_calls_without_origin_are_refused,
    preflight_is_answered_for_allowed_origins_only,
    actual_responses_carry_cors_headers,
    analytics_never_fails,
    malformed_bodies_are_invalid_data,
);

async fn health_answers_ok(backend: Backend) {
    let t = TestApp::start(backend).await;
    let reply = t
        .get("/health")
        .without("privy-app-id")
        .without("origin")
        .send()
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body, json!({ "status": "ok" }));
}

async fn unknown_routes_and_methods_answer_json_errors(backend: Backend) {
    let t = TestApp::start(backend).await;
    t.get("/api/v1/nope")
        .send()
        .await
        .assert_error(404, "not_found");
    t.get("/nope")
        .without("privy-app-id")
        .send()
        .await
        .assert_error(404, "not_found");
    t.request(Method::DELETE, "/api/v1/passwordless/init")
        .send()
        .await
        .assert_error(405, "not_supported");
    t.post("/health", json!({}))
        .send()
        .await
        .assert_error(405, "not_supported");
}

async fn app_config_is_served_with_defaults(backend: Backend) {
    let t = TestApp::start(backend).await;
    let reply = t.get(&format!("/api/v1/apps/{}", t.app_id)).send().await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["id"], t.app_id.as_str());
    assert_eq!(reply.body["name"], "Test App");
    assert_eq!(reply.body["email_auth"], true);
    assert_eq!(reply.body["disable_plus_emails"], false);
    assert_eq!(
        reply.body["embedded_wallet_config"]["ethereum"]["create_on_login"],
        "off"
    );
    assert!(
        reply.body.get("allowed_origins").is_none(),
        "origins are not public"
    );
    // The published react-auth reads these four while rendering and crashes without them.
    assert_eq!(
        reply.body["allowlist_config"],
        json!({ "error_title": null, "error_detail": null, "cta_text": null, "cta_link": null })
    );
    // Server-to-server: no Origin and no header is fine for the public config.
    let bare = t
        .get(&format!("/api/v1/apps/{}", t.app_id))
        .without("origin")
        .without("privy-app-id")
        .send()
        .await;
    assert_eq!(bare.status, StatusCode::OK);
}

async fn app_config_refuses_unknown_or_mismatched_ids(backend: Backend) {
    let t = TestApp::start(backend).await;
    let unknown = "x".repeat(25);
    t.get(&format!("/api/v1/apps/{unknown}"))
        .header("privy-app-id", &unknown)
        .send()
        .await
        .assert_error(400, "missing_or_invalid_privy_app_id");
    let other = t.create_app(false).await;
    t.get(&format!("/api/v1/apps/{other}"))
        .send()
        .await
        .assert_error(400, "missing_or_invalid_privy_app_id");
    t.get(&format!("/api/v1/apps/{unknown}/jwks.json"))
        .send()
        .await
        .assert_error(400, "missing_or_invalid_privy_app_id");
    t.get(&format!("/v1/apps/{unknown}/jwks.json"))
        .send()
        .await
        .assert_error(400, "missing_or_invalid_privy_app_id");
    // `@privy-io/node` reads the keys at `{apiUrl}/v1/…`: the same set as under `/api`.
    let ours = t
        .get(&format!("/api/v1/apps/{}/jwks.json", t.app_id))
        .send()
        .await;
    let sdk = t
        .get(&format!("/v1/apps/{}/jwks.json", t.app_id))
        .send()
        .await;
    assert_eq!(sdk.status, StatusCode::OK, "{}", sdk.text);
    assert!(!sdk.body["keys"].as_array().unwrap().is_empty());
    assert_eq!(sdk.body, ours.body);
}

async fn app_id_header_is_required_and_checked(backend: Backend) {
    let t = TestApp::start(backend).await;
    let body = json!({ "email": "a@example.com" });
    t.post("/api/v1/passwordless/init", body.clone())
        .without("privy-app-id")
        .send()
        .await
        .assert_error(400, "missing_or_invalid_privy_app_id");
    t.post("/api/v1/passwordless/init", body)
        .header("privy-app-id", &"z".repeat(25))
        .send()
        .await
        .assert_error(400, "missing_or_invalid_privy_app_id");
    t.get("/api/v1/users/me")
        .without("privy-app-id")
        .send()
        .await
        .assert_error(400, "missing_or_invalid_privy_app_id");
}

async fn client_id_is_checked_when_present(backend: Backend) {
    let t = TestApp::start(backend).await;
    let path = format!("/api/v1/apps/{}", t.app_id);
    t.get(&path)
        .header("privy-client-id", "someone-else")
        .send()
        .await
        .assert_error(400, "missing_or_invalid_privy_client_id");
    assert_eq!(
        t.get(&path)
            .header("privy-client-id", CLIENT_ID)
            .send()
            .await
            .status,
        StatusCode::OK
    );
}

async fn origin_must_be_allowed_for_the_app(backend: Backend) {
    let t = TestApp::start(backend).await;
    t.get(&format!("/api/v1/apps/{}", t.app_id))
        .header("origin", "https://evil.example")
        .send()
        .await
        .assert_error(403, "invalid_origin");
    t.post(
        "/api/v1/passwordless/init",
        json!({ "email": "a@example.com" }),
    )
    .header("origin", "http://localhost:3001")
    .send()
    .await
    .assert_error(403, "invalid_origin");
}

async fn browser_calls_without_origin_are_refused(backend: Backend) {
    let t = TestApp::start(backend).await;
    for (path, body) in [
        (
            "/api/v1/passwordless/init",
            json!({ "email": "a@example.com" }),
        ),
        (
            "/api/v1/passwordless/authenticate",
            json!({ "email": "a@example.com", "code": "123456" }),
        ),
        ("/api/v1/sessions", json!({ "refresh_token": "x" })),
        ("/api/v1/sessions/logout", json!({ "refresh_token": "x" })),
    ] {
        t.post(path, body)
            .without("origin")
            .send()
            .await
            .assert_error(403, "missing_origin");
    }
}

async fn preflight_is_answered_for_allowed_origins_only(backend: Backend) {
    let t = TestApp::start(backend).await;
    let preflight = |origin: &str| {
        t.request(Method::OPTIONS, "/api/v1/passwordless/init")
            .without("privy-app-id")
            .without("content-type")
            .header("origin", origin)
            .header("access-control-request-method", "POST")
            .header(
                "access-control-request-headers",
                "privy-app-id,privy-client-id,privy-ca-id,content-type,authorization",
            )
    };
    let ok = preflight(ORIGIN).send().await;
    assert_eq!(ok.status, StatusCode::OK);
    assert_eq!(ok.header("access-control-allow-origin"), Some(ORIGIN));
    assert_eq!(ok.header("access-control-allow-credentials"), Some("true"));
    let allowed = ok
        .header("access-control-allow-headers")
        .unwrap_or_default()
        .to_lowercase();
    for name in [
        "privy-app-id",
        "privy-client-id",
        "privy-client",
        "privy-ca-id",
        "x-native-app-identifier",
        "privy-retry-attempt",
        "privy-idempotency-key",
        "authorization",
        "content-type",
    ] {
        assert!(allowed.contains(name), "{name} not allowed: {allowed}");
    }
    assert!(ok.headers.get_all("vary").iter().any(|v| {
        v.to_str()
            .unwrap_or_default()
            .to_lowercase()
            .contains("origin")
    }));

    let denied = preflight("https://evil.example").send().await;
    assert!(
        denied.header("access-control-allow-origin").is_none(),
        "evil origin allowed"
    );
}

async fn actual_responses_carry_cors_headers(backend: Backend) {
    let t = TestApp::start(backend).await;
    let reply = t.get(&format!("/api/v1/apps/{}", t.app_id)).send().await;
    assert_eq!(reply.header("access-control-allow-origin"), Some(ORIGIN));
    assert_eq!(
        reply.header("access-control-allow-credentials"),
        Some("true")
    );
    // Errors for a refused origin carry no CORS grant either.
    let refused = t
        .get(&format!("/api/v1/apps/{}", t.app_id))
        .header("origin", "https://evil.example")
        .send()
        .await;
    assert!(refused.header("access-control-allow-origin").is_none());
}

async fn analytics_never_fails(backend: Backend) {
    let t = TestApp::start(backend).await;
    let good = t
        .post(
            "/api/v1/analytics_events",
            json!({ "event_name": "sdk_initialize", "payload": {"a": 1} }),
        )
        .send()
        .await;
    assert_eq!(
        (good.status, good.body.clone()),
        (StatusCode::OK, json!({ "success": true }))
    );
    let junk = t
        .request(Method::POST, "/api/v1/analytics_events")
        .raw_body("{not json")
        .without("privy-app-id")
        .send()
        .await;
    assert_eq!(
        (junk.status, junk.body),
        (StatusCode::OK, json!({ "success": true }))
    );
}

async fn malformed_bodies_are_invalid_data(backend: Backend) {
    let t = TestApp::start(backend).await;
    t.request(Method::POST, "/api/v1/passwordless/init")
        .raw_body("{oops")
        .send()
        .await
        .assert_error(400, "invalid_data");
    t.post(
        "/api/v1/passwordless/init",
        json!({ "mail": "a@example.com" }),
    )
    .send()
    .await
    .assert_error(400, "invalid_data");
    t.post("/api/v1/sessions", json!({}))
        .send()
        .await
        .assert_error(400, "invalid_data");
}
