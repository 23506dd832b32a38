//! Cross-app login, provider side: the consent page, consent, the code exchange with PKCE, user
//! info, connections and details (issue 10 §2). App A (the default test app) is the provider;
//! app B lists it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::PathBuf;

use axum::http::Method;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use common::{Backend, PUBLIC_URL, TestApp, unique_email};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use symbolon_server::app_settings::{AppSettings, CrossAppProvider, CrossAppSettings};
use tokio::task::JoinSet;

backend_tests!(
    consent_code_token_and_userinfo,
    a_wrong_verifier_burns_the_code,
    codes_work_once_for_their_client_and_redirect_only,
    codes_expire_after_a_minute,
    two_concurrent_exchanges_one_wins,
    only_listed_apps_and_willing_providers,
    consent_needs_the_providers_page_and_token,
    connections_show_read_only_flags,
);

const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";

fn challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

fn callback() -> String {
    format!("{PUBLIC_URL}/api/v1/oauth/callback")
}

/// The provider A (default app, a provider), B listing A, B2 listing A read-only, C listing nobody.
struct Apps {
    t: TestApp,
    a: String,
    b: String,
    b_read_only: String,
    c: String,
}

async fn set(t: &TestApp, id: &str, settings: AppSettings) {
    let mut record = t.state.db.find_app(id).await.unwrap().unwrap();
    record.settings = settings;
    t.state
        .db
        .upsert_app(&record, t.state.clock.now())
        .await
        .unwrap();
}

fn lists(provider: &str, read_only: bool) -> AppSettings {
    AppSettings {
        cross_app: CrossAppSettings {
            providers: vec![CrossAppProvider {
                app_id: provider.into(),
                read_only,
            }],
            allow_as_provider: false,
        },
        ..AppSettings::default()
    }
}

async fn apps(backend: Backend) -> Apps {
    let page = page_dir();
    let t = TestApp::start_with(backend, |c| c.cross_app_page_dir = page).await;
    let a = t.app_id.clone();
    t.set_settings(AppSettings {
        cross_app: CrossAppSettings {
            providers: Vec::new(),
            allow_as_provider: true,
        },
        ..AppSettings::default()
    })
    .await;
    let b = t.create_app(false).await;
    set(&t, &b, lists(&a, false)).await;
    let b_read_only = t.create_app(false).await;
    set(&t, &b_read_only, lists(&a, true)).await;
    let c = t.create_app(false).await;
    Apps {
        t,
        a,
        b,
        b_read_only,
        c,
    }
}

/// A stand-in for the built page: the server only inserts its meta tag.
fn page_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("symbolon-xapp-page-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    std::fs::write(
        dir.join("index.html"),
        "<!doctype html><html><head><title>x</title></head><body></body></html>",
    )
    .unwrap();
    dir
}

impl Apps {
    /// A's access token for a new user.
    async fn a_token(&self) -> (String, String) {
        let session = self.t.login(&unique_email()).await;
        (
            session["token"].as_str().unwrap().to_string(),
            session["user"]["id"].as_str().unwrap().to_string(),
        )
    }

    fn consent_body(&self, client: &str) -> Value {
        json!({
            "client_id": client,
            "redirect_uri": callback(),
            "state": "st-1",
            "code_challenge": challenge(VERIFIER),
            "code_challenge_method": "S256",
        })
    }

    /// POST consent from the server's own origin with `token`.
    async fn consent(&self, token: &str, body: Value) -> common::Reply {
        self.t
            .post(&format!("/api/v1/apps/{}/oauth/consent", self.a), body)
            .header("origin", PUBLIC_URL)
            .without("privy-app-id")
            .bearer(token)
            .send()
            .await
    }

    async fn code(&self, client: &str) -> String {
        let (token, _) = self.a_token().await;
        let reply = self.consent(&token, self.consent_body(client)).await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        reply.body["code"].as_str().unwrap().to_string()
    }

    async fn exchange(
        &self,
        code: &str,
        client: &str,
        redirect: &str,
        verifier: &str,
    ) -> common::Reply {
        let form = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("grant_type", "authorization_code")
            .append_pair("code", code)
            .append_pair("redirect_uri", redirect)
            .append_pair("client_id", client)
            .append_pair("code_verifier", verifier)
            .finish();
        self.t
            .request(
                Method::POST,
                &format!("/api/v1/apps/{}/oauth/token", self.a),
            )
            .without("origin")
            .without("privy-app-id")
            .header("content-type", "application/x-www-form-urlencoded")
            .raw_body(&form)
            .send()
            .await
    }
}

async fn consent_code_token_and_userinfo(backend: Backend) {
    let x = apps(backend).await;
    let query = format!(
        "response_type=code&client_id={}&redirect_uri={}&state=st-1&code_challenge={}&code_challenge_method=S256",
        x.b,
        url::form_urlencoded::byte_serialize(callback().as_bytes()).collect::<String>(),
        challenge(VERIFIER)
    );
    let page =
        x.t.get(&format!("/apps/{}/oauth/authorize?{query}", x.a))
            .send()
            .await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(
        page.text.contains("name=\"symbolon-cross-app\""),
        "{}",
        page.text
    );
    assert!(page.text.contains(&x.b), "the page names the requester");
    let csp = page.header("content-security-policy").unwrap();
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");

    let (token, user_id) = x.a_token().await;
    let reply = x.consent(&token, x.consent_body(&x.b)).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    let code = reply.body["code"].as_str().unwrap();
    let redirect = reply.body["redirect_to"].as_str().unwrap();
    assert!(
        redirect.starts_with(&format!("{}?code=", callback())),
        "{redirect}"
    );
    assert!(redirect.ends_with("&state=st-1"), "{redirect}");

    let reply = x.exchange(code, &x.b, &callback(), VERIFIER).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.body["token_type"], "Bearer");
    assert_eq!(reply.body["expires_in"], 3600);
    let provider_token = reply.body["access_token"].as_str().unwrap();

    let info =
        x.t.get(&format!("/api/v1/apps/{}/oauth/userinfo", x.a))
            .without("origin")
            .bearer(provider_token)
            .send()
            .await;
    assert_eq!(info.status, 200, "{}", info.text);
    assert_eq!(info.body["sub"], user_id.as_str());
    assert_eq!(info.body["embedded_wallets"], json!([]));
    assert_eq!(info.body["smart_wallets"], json!([]));

    // The signing page's view of the token: B's origins, not read-only.
    let context =
        x.t.get("/api/v1/cross-app/transact")
            .header("origin", PUBLIC_URL)
            .bearer(provider_token)
            .send()
            .await;
    assert_eq!(context.status, 200, "{}", context.text);
    assert_eq!(context.body["requester_app_id"], x.b.as_str());
    assert_eq!(context.body["read_only"], false);
    assert_eq!(context.body["user_id"], user_id.as_str());

    // A's access token is no provider token, and the provider token is A's only.
    x.t.get(&format!("/api/v1/apps/{}/oauth/userinfo", x.a))
        .bearer(&token)
        .send()
        .await
        .assert_error(401, "missing_or_invalid_token");
    x.t.get(&format!("/api/v1/apps/{}/oauth/userinfo", x.b))
        .bearer(provider_token)
        .send()
        .await
        .assert_error(401, "missing_or_invalid_token");
}

async fn a_wrong_verifier_burns_the_code(backend: Backend) {
    let x = apps(backend).await;
    let code = x.code(&x.b).await;
    let wrong = "x".repeat(43);
    x.exchange(&code, &x.b, &callback(), &wrong)
        .await
        .assert_error(400, "invalid_pkce_parameters");
    x.exchange(&code, &x.b, &callback(), VERIFIER)
        .await
        .assert_error(401, "invalid_credentials");
}

async fn codes_work_once_for_their_client_and_redirect_only(backend: Backend) {
    let x = apps(backend).await;
    let code = x.code(&x.b).await;
    x.exchange(&code, &x.b, &callback(), VERIFIER).await;
    x.exchange(&code, &x.b, &callback(), VERIFIER)
        .await
        .assert_error(401, "invalid_credentials");
    let code = x.code(&x.b).await;
    x.exchange(&code, &x.b_read_only, &callback(), VERIFIER)
        .await
        .assert_error(401, "invalid_credentials");
    let code = x.code(&x.b).await;
    x.exchange(
        &code,
        &x.b,
        "http://evil.test/api/v1/oauth/callback",
        VERIFIER,
    )
    .await
    .assert_error(401, "invalid_credentials");
    x.exchange("no-such-code", &x.b, &callback(), VERIFIER)
        .await
        .assert_error(401, "invalid_credentials");
    let bad_grant =
        x.t.request(Method::POST, &format!("/api/v1/apps/{}/oauth/token", x.a))
            .header("content-type", "application/x-www-form-urlencoded")
            .raw_body("grant_type=password&code=x&redirect_uri=x&client_id=x&code_verifier=x")
            .send()
            .await;
    bad_grant.assert_error(400, "invalid_data");
    let missing =
        x.t.request(Method::POST, &format!("/api/v1/apps/{}/oauth/token", x.a))
            .header("content-type", "application/x-www-form-urlencoded")
            .raw_body("grant_type=authorization_code")
            .send()
            .await;
    missing.assert_error(400, "invalid_data");
}

async fn codes_expire_after_a_minute(backend: Backend) {
    let x = apps(backend).await;
    let code = x.code(&x.b).await;
    x.t.state.clock.advance(61);
    x.exchange(&code, &x.b, &callback(), VERIFIER)
        .await
        .assert_error(401, "invalid_credentials");
}

async fn two_concurrent_exchanges_one_wins(backend: Backend) {
    let x = std::sync::Arc::new(apps(backend).await);
    for _ in 0..3 {
        let code = x.code(&x.b).await;
        let mut set = JoinSet::new();
        for _ in 0..2 {
            let (x, code) = (x.clone(), code.clone());
            set.spawn(async move {
                x.exchange(&code, &x.b, &callback(), VERIFIER)
                    .await
                    .status
                    .as_u16()
            });
        }
        let mut statuses = set.join_all().await;
        statuses.sort_unstable();
        assert_eq!(statuses, vec![200, 401]);
    }
}

async fn only_listed_apps_and_willing_providers(backend: Backend) {
    let x = apps(backend).await;
    let (token, _) = x.a_token().await;
    x.consent(&token, x.consent_body(&x.c))
        .await
        .assert_error(403, "feature_not_enabled");
    x.consent(&token, x.consent_body("nosuchapp"))
        .await
        .assert_error(400, "invalid_data");
    let mut body = x.consent_body(&x.b);
    body["redirect_uri"] = json!("http://evil.test/cb");
    x.consent(&token, body)
        .await
        .assert_error(400, "invalid_data");
    let mut body = x.consent_body(&x.b);
    body["code_challenge_method"] = json!("plain");
    x.consent(&token, body)
        .await
        .assert_error(400, "invalid_pkce_parameters");
    // The page refuses the same requests without redirecting anywhere.
    let page = x
        .t
        .get(&format!(
            "/apps/{}/oauth/authorize?response_type=code&client_id={}&redirect_uri=x&code_challenge={}&code_challenge_method=S256",
            x.a,
            x.c,
            challenge(VERIFIER)
        ))
        .send()
        .await;
    assert_eq!(page.status, 400);
    assert!(page.header("location").is_none());
    // A provider that stops allowing it: B lists it, but A no longer answers.
    x.t.set_settings(AppSettings::default()).await;
    x.consent(&token, x.consent_body(&x.b))
        .await
        .assert_error(403, "feature_not_enabled");
}

async fn consent_needs_the_providers_page_and_token(backend: Backend) {
    let x = apps(backend).await;
    let (token, _) = x.a_token().await;
    // From a host page (even A's own origin): refused, so page script cannot mint codes.
    x.t.post(
        &format!("/api/v1/apps/{}/oauth/consent", x.a),
        x.consent_body(&x.b),
    )
    .bearer(&token)
    .send()
    .await
    .assert_error(403, "invalid_origin");
    // B's session is no A session.
    let b_session =
        x.t.post(
            "/api/v1/passwordless/init",
            json!({ "email": "b@example.com" }),
        )
        .header("privy-app-id", &x.b)
        .send()
        .await;
    assert_eq!(b_session.status, 200);
    let code = x.t.latest_code("b@example.com").await;
    let b_login =
        x.t.post(
            "/api/v1/passwordless/authenticate",
            json!({ "email": "b@example.com", "code": code }),
        )
        .header("privy-app-id", &x.b)
        .send()
        .await;
    let b_token = b_login.body["token"].as_str().unwrap();
    x.t.post(
        &format!("/api/v1/apps/{}/oauth/consent", x.a),
        x.consent_body(&x.b),
    )
    .header("origin", PUBLIC_URL)
    .header("privy-app-id", &x.b)
    .bearer(b_token)
    .send()
    .await
    .assert_error(401, "missing_or_invalid_token");
}

async fn connections_show_read_only_flags(backend: Backend) {
    let x = apps(backend).await;
    for (app, read_only) in [(&x.b, false), (&x.b_read_only, true)] {
        let reply =
            x.t.get(&format!("/api/v1/apps/{app}/cross-app/connections"))
                .header("privy-app-id", app)
                .send()
                .await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        let connections = reply.body["connections"].as_array().unwrap();
        assert_eq!(connections.len(), 1);
        assert_eq!(connections[0]["provider_app_id"], x.a.as_str());
        assert_eq!(connections[0]["provider_app_name"], "Test App");
        assert_eq!(connections[0]["read_only"], read_only);
    }
    let none =
        x.t.get(&format!("/api/v1/apps/{}/cross-app/connections", x.c))
            .header("privy-app-id", &x.c)
            .send()
            .await;
    assert_eq!(none.body["connections"], json!([]));
    // The signing page learns the flag from the token: a read-only requester may not sign.
    let code = x.code(&x.b_read_only).await;
    let token = x
        .exchange(&code, &x.b_read_only, &callback(), VERIFIER)
        .await;
    let context =
        x.t.get("/api/v1/cross-app/transact")
            .bearer(token.body["access_token"].as_str().unwrap())
            .send()
            .await;
    assert_eq!(context.body["read_only"], true, "{}", context.text);
    x.t.get("/api/v1/cross-app/transact")
        .bearer("not-a-token")
        .send()
        .await
        .assert_error(401, "missing_or_invalid_token");
    // A provider's wallet frame may be embedded by the server's own pages; another app's may not.
    for (app, embeddable) in [(&x.a, true), (&x.c, false)] {
        let page =
            x.t.get(&format!("/apps/{app}/embedded-wallets"))
                .send()
                .await;
        let csp = page.header("content-security-policy").unwrap_or_default();
        assert_eq!(csp.contains(PUBLIC_URL), embeddable, "{csp}");
    }
    let details =
        x.t.get(&format!("/api/v1/apps/{}/cross-app/details", x.a))
            .header("privy-app-id", &x.b)
            .send()
            .await;
    assert_eq!(details.status, 200, "{}", details.text);
    assert_eq!(details.body["allow_as_provider"], true);
    assert_eq!(details.body["id"], x.a.as_str());
}
