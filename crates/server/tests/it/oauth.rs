//! OAuth over HTTP against real providers on loopback: the Google-like OpenID stand-in and the
//! GitHub-style OAuth 2.0 stand-in (`tools/stack`, signed in through their pages by
//! `oauthLoginClient.mjs`), and, for ID tokens the stand-in would never sign, a token endpoint and
//! JWKS served by this test with its own key.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::Json;
use axum::routing::{get, post};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use common::{Backend, Reply, TestApp, services, unique_email};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use ring::rand::SystemRandom;
use ring::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use symbolon_server::app_settings::oauth::{CustomProviderSettings, ProviderSettings};
use symbolon_server::app_settings::{AppSettings, CrossAppProvider};

const CLIENT_ID: &str = "symbolon-dev";
const CLIENT_SECRET: &str = "symbolon-dev-secret";
/// Test servers' public URL: a loopback callback, as the stand-ins require.
const PUBLIC_URL: &str = "http://localhost:8787";
const RETURN_TO: &str = "http://localhost:3000/login?from=oauth";

backend_tests!(
    oidc_login_signs_up_then_in,
    plain_oauth2_login_reads_the_user_info,
    provider_tokens_only_when_the_app_asks,
    pkce_and_state_refusals_are_invalid_pkce_parameters,
    one_state_signs_in_once_under_concurrency,
    a_code_received_by_one_flow_cannot_complete_another,
    one_code_binds_to_one_flow_under_concurrency,
    disabled_unknown_and_misdirected_inits_are_refused,
    a_denied_authorization_returns_the_error_to_the_page,
    a_suspended_account_is_oauth_account_suspended,
    link_transfer_and_unlink_follow_the_account_rules,
    id_tokens_are_checked_for_issuer_audience_nonce_expiry_and_signature,
    custom_providers_render_as_custom_types_and_show_in_the_config,
    cross_app_login_runs_on_our_own_provider_endpoints,
    unreachable_or_oversized_providers_are_a_clear_502,
    a_form_posted_callback_redirects_like_a_query,
);

fn oidc_issuer() -> String {
    services()
        .oidc_issuer
        .clone()
        .expect("the OpenID stand-in (services.mjs --oidc, or SYMBOLON_TEST_OIDC_ISSUER)")
}

fn oauth2_url() -> String {
    services()
        .oauth2_url
        .clone()
        .expect("the OAuth 2.0 stand-in (services.mjs --oauth2, or SYMBOLON_TEST_OAUTH2_URL)")
}

/// Google and GitHub pointed at the stand-ins, both listed after email.
fn settings() -> AppSettings {
    let issuer = oidc_issuer();
    let github = oauth2_url();
    let mut settings = AppSettings::default();
    settings.login_methods.primary = vec!["email".into(), "google".into(), "github".into()];
    settings.oauth.providers.insert(
        "google".into(),
        ProviderSettings {
            client_id: CLIENT_ID.into(),
            client_secret: CLIENT_SECRET.into(),
            issuer: Some(issuer.clone()),
            authorize_url: Some(format!("{issuer}/auth")),
            token_url: Some(format!("{issuer}/token")),
            jwks_url: Some(format!("{issuer}/jwks")),
            ..ProviderSettings::default()
        },
    );
    settings.oauth.providers.insert(
        "github".into(),
        ProviderSettings {
            client_id: CLIENT_ID.into(),
            client_secret: CLIENT_SECRET.into(),
            authorize_url: Some(format!("{github}/login/oauth/authorize")),
            token_url: Some(format!("{github}/login/oauth/access_token")),
            userinfo_url: Some(format!("{github}/user")),
            ..ProviderSettings::default()
        },
    );
    settings
}

async fn start(backend: Backend, settings: AppSettings) -> TestApp {
    let t = TestApp::start_with(backend, |c| c.public_url = PUBLIC_URL.into()).await;
    t.set_settings(settings.checked().expect("valid settings"))
        .await;
    t
}

/// A client's PKCE pair and state (36 random bytes each, spec §9).
struct ClientFlow {
    verifier: String,
    challenge: String,
    state: String,
}

fn client_flow() -> ClientFlow {
    let random = || URL_SAFE_NO_PAD.encode(rand_bytes());
    let verifier = random();
    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
    ClientFlow {
        verifier,
        challenge,
        state: random(),
    }
}

fn rand_bytes() -> [u8; 36] {
    symbolon_server::random::random_bytes::<36>().unwrap()
}

async fn init(t: &TestApp, provider: &str, flow: &ClientFlow, token: Option<&str>) -> Reply {
    let mut call = t.post(
        "/api/v1/oauth/init",
        json!({
            "provider": provider,
            "redirect_to": RETURN_TO,
            "code_challenge": flow.challenge,
            "state_code": flow.state,
        }),
    );
    if let Some(token) = token {
        call = call.bearer(token);
    }
    call.send().await
}

/// Signs in at the stand-in's page as `login` (or denies) the way a browser would; answers the
/// address the provider sends the browser to (our callback with `code` and `state`).
async fn sign_in_at(authorize_url: &str, login: &str, deny: bool, name: Option<&str>) -> url::Url {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let script = "const [url, login, deny, name] = process.argv.slice(1);\
        const { signInAt } = await import('./tools/stack/src/oauthLoginClient.mjs');\
        const back = await signInAt(url, { login, deny: deny === 'deny', name: name || undefined });\
        process.stdout.write(back.href);";
    let args = [
        "--input-type=module".to_string(),
        "-e".into(),
        script.into(),
        authorize_url.into(),
        login.into(),
        if deny { "deny" } else { "allow" }.into(),
        name.unwrap_or_default().into(),
    ];
    let output = tokio::task::spawn_blocking(move || {
        std::process::Command::new("node")
            .args(args)
            .current_dir(root)
            .output()
    })
    .await
    .unwrap()
    .expect("node");
    assert!(
        output.status.success(),
        "signInAt failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    url::Url::parse(&String::from_utf8_lossy(&output.stdout)).expect("callback URL")
}

/// Loads our callback as the browser would; answers the `privy_oauth_*` parameters of the page
/// it redirects to.
async fn follow_callback(t: &TestApp, callback: &url::Url) -> HashMap<String, String> {
    assert_eq!(callback.path(), "/api/v1/oauth/callback");
    let path = format!(
        "/api/v1/oauth/callback?{}",
        callback.query().unwrap_or_default()
    );
    let reply = t.get(&path).without("origin").send().await;
    assert_eq!(reply.status.as_u16(), 302, "callback: {}", reply.text);
    let location = url::Url::parse(reply.header("location").expect("Location")).unwrap();
    assert!(location.as_str().starts_with(RETURN_TO), "{location}");
    location.query_pairs().into_owned().collect()
}

/// init → sign in at the provider → callback: the code and state the page receives.
async fn authorize(
    t: &TestApp,
    provider: &str,
    login: &str,
    token: Option<&str>,
) -> (ClientFlow, HashMap<String, String>) {
    let flow = client_flow();
    let reply = init(t, provider, &flow, token).await;
    assert_eq!(reply.status.as_u16(), 200, "init: {}", reply.text);
    let url = reply.body["url"].as_str().expect("url").to_string();
    let back = sign_in_at(&url, login, false, None).await;
    let params = follow_callback(t, &back).await;
    assert_eq!(params["privy_oauth_state"], flow.state);
    assert_eq!(params["privy_oauth_provider"], provider);
    (flow, params)
}

fn proof(flow: &ClientFlow, params: &HashMap<String, String>, provider: &str) -> Value {
    json!({
        "authorization_code": params["privy_oauth_code"],
        "state_code": params["privy_oauth_state"],
        "code_verifier": flow.verifier,
        "provider": provider,
    })
}

/// Signs in with the callback's `params` of `flow`.
async fn authenticate(
    t: &TestApp,
    flow: &ClientFlow,
    params: &HashMap<String, String>,
    provider: &str,
) -> Reply {
    t.post("/api/v1/oauth/authenticate", proof(flow, params, provider))
        .send()
        .await
}

async fn login(t: &TestApp, provider: &str, login: &str) -> Reply {
    let (flow, params) = authorize(t, provider, login, None).await;
    authenticate(t, &flow, &params, provider).await
}

fn account<'a>(user: &'a Value, account_type: &str) -> Option<&'a Value> {
    user["linked_accounts"]
        .as_array()?
        .iter()
        .find(|a| a["type"] == account_type)
}

async fn oidc_login_signs_up_then_in(backend: Backend) {
    let t = start(backend, settings()).await;
    // Its own account at the provider (which remembers profiles across tests).
    let who = format!("ada{}", &client_flow().state[..8]).replace(['-', '_'], "x");
    let sign_in = |name: &'static str| {
        let (t, who) = (&t, who.clone());
        async move {
            let flow = client_flow();
            let reply = init(t, "google", &flow, None).await;
            let url = reply.body["url"].as_str().unwrap().to_string();
            let back = sign_in_at(&url, &who, false, Some(name)).await;
            let params = follow_callback(t, &back).await;
            authenticate(t, &flow, &params, "google").await
        }
    };
    let first = sign_in("Ada First").await;
    assert_eq!(first.status.as_u16(), 200, "{}", first.text);
    assert_eq!(first.body["is_new_user"], true);
    assert!(first.body.get("oauth_tokens").is_none(), "{}", first.text);
    let google = account(&first.body["user"], "google_oauth").expect("google account");
    assert_eq!(google["subject"], who.as_str());
    assert_eq!(google["email"], format!("{who}@example.com"));
    assert_eq!(google["name"], "Ada First");
    assert!(google["latest_verified_at"].is_number());

    // Signing in again keeps the user and takes what the provider tells now.
    let again = sign_in("Ada Renamed").await;
    assert_eq!(again.status.as_u16(), 200, "{}", again.text);
    assert_eq!(again.body["is_new_user"], false);
    assert_eq!(again.body["user"]["id"], first.body["user"]["id"]);
    let google = account(&again.body["user"], "google_oauth").unwrap();
    assert_eq!(google["name"], "Ada Renamed");
    // The session works like any other.
    let token = again.body["token"].as_str().unwrap();
    let me = t.get("/api/v1/users/me").bearer(token).send().await;
    assert_eq!(me.status.as_u16(), 200, "{}", me.text);
    assert!(account(&me.body["user"], "google_oauth").is_some());
}

async fn plain_oauth2_login_reads_the_user_info(backend: Backend) {
    let t = start(backend, settings()).await;
    let reply = login(&t, "github", "octocat").await;
    assert_eq!(reply.status.as_u16(), 200, "{}", reply.text);
    let github = account(&reply.body["user"], "github_oauth").expect("github account");
    assert_eq!(github["subject"], "583231");
    assert_eq!(github["username"], "octocat");
    assert_eq!(github["email"], "octocat@example.com");
    assert_eq!(github["name"], "The Octocat");
}

async fn provider_tokens_only_when_the_app_asks(backend: Backend) {
    let mut asks = settings();
    asks.oauth.return_provider_tokens = true;
    let t = start(backend, asks).await;
    let reply = login(&t, "github", "octocat").await;
    assert_eq!(reply.status.as_u16(), 200, "{}", reply.text);
    let tokens = &reply.body["oauth_tokens"];
    assert_eq!(tokens["provider"], "github");
    assert!(
        tokens["access_token"]
            .as_str()
            .is_some_and(|t| !t.is_empty())
    );
    let google = login(&t, "google", "bob").await;
    assert_eq!(
        google.body["oauth_tokens"]["provider"], "google",
        "{}",
        google.text
    );
    // A refresh never answers them.
    let refresh = google.body["refresh_token"].as_str().unwrap();
    let refreshed = t
        .post("/api/v1/sessions", json!({ "refresh_token": refresh }))
        .send()
        .await;
    assert_eq!(refreshed.status.as_u16(), 200, "{}", refreshed.text);
    assert!(refreshed.body.get("oauth_tokens").is_none());
}

async fn pkce_and_state_refusals_are_invalid_pkce_parameters(backend: Backend) {
    let t = start(backend, settings()).await;
    let authenticate = |body: Value| t.post("/api/v1/oauth/authenticate", body).send();

    // Wrong verifier: refused, and the flow is used up (the right verifier no longer works).
    let (flow, params) = authorize(&t, "github", "octocat", None).await;
    let mut wrong = proof(&flow, &params, "github");
    wrong["code_verifier"] = json!(client_flow().verifier);
    authenticate(wrong)
        .await
        .assert_error(400, "invalid_pkce_parameters");
    authenticate(proof(&flow, &params, "github"))
        .await
        .assert_error(400, "invalid_pkce_parameters");

    // Another provider than the flow's.
    let (flow, params) = authorize(&t, "github", "octocat", None).await;
    authenticate(proof(&flow, &params, "google"))
        .await
        .assert_error(400, "invalid_pkce_parameters");

    // Reused: the second use of a state that signed in.
    let (flow, params) = authorize(&t, "github", "octocat", None).await;
    let ok = authenticate(proof(&flow, &params, "github")).await;
    assert_eq!(ok.status.as_u16(), 200, "{}", ok.text);
    authenticate(proof(&flow, &params, "github"))
        .await
        .assert_error(400, "invalid_pkce_parameters");

    // Expired: past its 10 minutes.
    let (flow, params) = authorize(&t, "github", "octocat", None).await;
    sqlx::query("UPDATE challenges SET expires_at = $1 WHERE kind = 'oauth_flow' AND scope = $2")
        .bind(t.state.clock.now() - 1)
        .bind(&flow.state)
        .execute(t.state.db.writer())
        .await
        .unwrap();
    authenticate(proof(&flow, &params, "github"))
        .await
        .assert_error(400, "invalid_pkce_parameters");

    // A state nobody started.
    let stranger = client_flow();
    let mut unknown = proof(&stranger, &params, "github");
    unknown["state_code"] = json!(stranger.state);
    authenticate(unknown)
        .await
        .assert_error(400, "invalid_pkce_parameters");

    // One state is one flow: init refuses to reuse it.
    let flow = client_flow();
    assert_eq!(init(&t, "github", &flow, None).await.status.as_u16(), 200);
    init(&t, "github", &flow, None)
        .await
        .assert_error(400, "invalid_data");
}

async fn one_state_signs_in_once_under_concurrency(backend: Backend) {
    let t = Arc::new(start(backend, settings()).await);
    let (flow, params) = authorize(&t, "github", "octocat", None).await;
    let body = proof(&flow, &params, "github");
    let mut calls = tokio::task::JoinSet::new();
    for _ in 0..6 {
        let (t, body) = (Arc::clone(&t), body.clone());
        calls.spawn(async move { t.post("/api/v1/oauth/authenticate", body).send().await });
    }
    let mut signed_in = 0;
    while let Some(reply) = calls.join_next().await {
        let reply = reply.unwrap();
        if reply.status == 200 {
            signed_in += 1;
        } else {
            reply.assert_error(400, "invalid_pkce_parameters");
        }
    }
    assert_eq!(signed_in, 1);
}

/// Issue 19: at a provider that does not enforce PKCE (the GitHub-style stand-in issues a code
/// without a challenge when the authorization asks none), a provider code that leaks from the
/// victim's page (history, Referer, logs) must not sign in through the attacker's own flow,
/// whether presented directly or handed to our callback under the attacker's state.
async fn a_code_received_by_one_flow_cannot_complete_another(backend: Backend) {
    let t = start(backend, settings()).await;
    let victim = client_flow();
    let reply = init(&t, "github", &victim, None).await;
    assert_eq!(reply.status.as_u16(), 200, "{}", reply.text);
    let mut url = url::Url::parse(reply.body["url"].as_str().unwrap()).unwrap();
    let kept: Vec<(String, String)> = url
        .query_pairs()
        .into_owned()
        .filter(|(k, _)| !k.starts_with("code_challenge"))
        .collect();
    url.query_pairs_mut().clear().extend_pairs(kept);
    let back = sign_in_at(url.as_str(), "octocat", false, None).await;
    let victim_params = follow_callback(&t, &back).await;
    let leaked = victim_params["privy_oauth_code"].clone();

    // The attacker's flow presents the leaked code with its own state and verifier.
    let attacker = client_flow();
    provider_state(&t, "github", &attacker).await;
    let mut theirs = HashMap::from([
        ("privy_oauth_code".to_string(), leaked.clone()),
        ("privy_oauth_state".to_string(), attacker.state.clone()),
    ]);
    let refused = authenticate(&t, &attacker, &theirs, "github").await;
    refused.assert_error(401, "invalid_credentials");
    assert!(refused.body.get("user").is_none(), "{}", refused.text);

    // Handed to our callback under another flow of the attacker's: refused there, and that flow
    // has no code to sign in with.
    let attacker = client_flow();
    let state = provider_state(&t, "github", &attacker).await;
    let query = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("code", &leaked)
        .append_pair("state", &state)
        .finish();
    let reply = t
        .get(&format!("/api/v1/oauth/callback?{query}"))
        .without("origin")
        .send()
        .await;
    reply.assert_error(400, "invalid_data");
    assert!(reply.header("location").is_none());
    theirs.insert("privy_oauth_state".into(), attacker.state.clone());
    authenticate(&t, &attacker, &theirs, "github")
        .await
        .assert_error(401, "invalid_credentials");

    // The victim's flow: a reloaded callback is harmless, another code for it is refused, and
    // the code (never exchanged by the refusals above) signs the victim in, once.
    assert_eq!(follow_callback(&t, &back).await, victim_params);
    let state = back
        .query_pairs()
        .find(|(k, _)| k == "state")
        .map(|(_, v)| v.into_owned())
        .unwrap();
    let query = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("code", "another")
        .append_pair("state", &state)
        .finish();
    t.get(&format!("/api/v1/oauth/callback?{query}"))
        .without("origin")
        .send()
        .await
        .assert_error(400, "invalid_data");
    let ok = authenticate(&t, &victim, &victim_params, "github").await;
    assert_eq!(ok.status.as_u16(), 200, "{}", ok.text);
    assert_eq!(
        account(&ok.body["user"], "github_oauth").unwrap()["username"],
        "octocat"
    );
}

/// The binding is one insert under two unique keys: one code handed to the callbacks of six
/// flows at once binds to exactly one of them.
async fn one_code_binds_to_one_flow_under_concurrency(backend: Backend) {
    let t = Arc::new(start(backend, settings()).await);
    let mut states = Vec::new();
    for _ in 0..6 {
        states.push(provider_state(&t, "github", &client_flow()).await);
    }
    let mut calls = tokio::task::JoinSet::new();
    for state in states {
        let t = Arc::clone(&t);
        calls.spawn(async move {
            let query = url::form_urlencoded::Serializer::new(String::new())
                .append_pair("code", "one-leaked-code")
                .append_pair("state", &state)
                .finish();
            t.get(&format!("/api/v1/oauth/callback?{query}"))
                .without("origin")
                .send()
                .await
        });
    }
    let mut bound = 0;
    while let Some(reply) = calls.join_next().await {
        let reply = reply.unwrap();
        if reply.status.as_u16() == 302 {
            bound += 1;
        } else {
            reply.assert_error(400, "invalid_data");
        }
    }
    assert_eq!(bound, 1);
}

async fn disabled_unknown_and_misdirected_inits_are_refused(backend: Backend) {
    let t = start(backend, settings()).await;
    let flow = client_flow();
    init(&t, "discord", &flow, None)
        .await
        .assert_error(403, "disallowed_login_method");
    init(&t, "myspace", &flow, None)
        .await
        .assert_error(403, "disallowed_login_method");
    init(&t, "privy:someotherapp0000000000", &flow, None)
        .await
        .assert_error(403, "disallowed_login_method");
    // Configured but no longer listed: refused at init and at authenticate.
    let (listed, params) = authorize(&t, "github", "octocat", None).await;
    let mut unlisted = settings();
    unlisted.login_methods.primary = vec!["email".into(), "google".into()];
    t.set_settings(unlisted).await;
    init(&t, "github", &flow, None)
        .await
        .assert_error(403, "disallowed_login_method");
    authenticate(&t, &listed, &params, "github")
        .await
        .assert_error(403, "disallowed_login_method");
    // The code goes only to the app's own pages.
    let reply = t
        .post(
            "/api/v1/oauth/init",
            json!({
                "provider": "google",
                "redirect_to": "https://evil.example/steal",
                "code_challenge": flow.challenge,
                "state_code": flow.state,
            }),
        )
        .send()
        .await;
    reply.assert_error(403, "invalid_origin");
    // Not an S256 challenge.
    let reply = t
        .post(
            "/api/v1/oauth/init",
            json!({
                "provider": "google",
                "redirect_to": RETURN_TO,
                "code_challenge": "plain",
                "state_code": flow.state,
            }),
        )
        .send()
        .await;
    reply.assert_error(400, "invalid_data");
    // An unknown state at the callback is an error page, not a redirect.
    let reply = t
        .get("/api/v1/oauth/callback?code=x&state=nobody-started-this")
        .send()
        .await;
    reply.assert_error(400, "invalid_data");
}

async fn a_denied_authorization_returns_the_error_to_the_page(backend: Backend) {
    let t = start(backend, settings()).await;
    for provider in ["google", "github"] {
        let flow = client_flow();
        let reply = init(&t, provider, &flow, None).await;
        let url = reply.body["url"].as_str().unwrap().to_string();
        let back = sign_in_at(&url, "alice", true, None).await;
        let params = follow_callback(&t, &back).await;
        assert_eq!(params["privy_oauth_error"], "access_denied");
        assert_eq!(params["privy_oauth_state"], flow.state);
        assert_eq!(params["privy_oauth_provider"], provider);
        assert!(!params.contains_key("privy_oauth_code"));
    }
}

async fn a_suspended_account_is_oauth_account_suspended(backend: Backend) {
    let t = start(backend, settings()).await;
    login(&t, "github", "suspended")
        .await
        .assert_error(403, "oauth_account_suspended");
}

async fn link_transfer_and_unlink_follow_the_account_rules(backend: Backend) {
    let t = start(backend, settings()).await;
    let email = unique_email();
    let session = t.login(&email).await;
    let token = session["token"].as_str().unwrap().to_string();

    // Link GitHub to the email user.
    let (flow, params) = authorize(&t, "github", "linker", Some(&token)).await;
    let mut body = proof(&flow, &params, "github");
    body.as_object_mut().unwrap().remove("mode");
    let linked = t
        .post("/api/v1/oauth/link", body)
        .bearer(&token)
        .send()
        .await;
    assert_eq!(linked.status.as_u16(), 200, "{}", linked.text);
    let github = account(&linked.body, "github_oauth").expect("linked");
    let subject = github["subject"].as_str().unwrap().to_string();
    assert!(account(&linked.body, "email").is_some());

    // A second GitHub account: one per type.
    let (flow, params) = authorize(&t, "github", "second", Some(&token)).await;
    t.post("/api/v1/oauth/link", proof(&flow, &params, "github"))
        .bearer(&token)
        .send()
        .await
        .assert_error(422, "cannot_link_more_of_type");

    // Another user (Google only, no wallet) links that GitHub account: it may move.
    let other = login(&t, "google", "carol").await;
    let other_token = other.body["token"].as_str().unwrap().to_string();
    let (flow, params) = authorize(&t, "github", "linker", Some(&other_token)).await;
    let refused = t
        .post("/api/v1/oauth/link", proof(&flow, &params, "github"))
        .bearer(&other_token)
        .send()
        .await;
    refused.assert_error(403, "account_transfer_required");
    let data = &refused.body["data"];
    assert_eq!(data["account_type"], "github_oauth");
    assert_eq!(data["oauth_user_info"]["provider"], "github");
    assert_eq!(data["oauth_user_info"]["subject"], subject.as_str());
    let moved = t
        .post(
            "/api/v1/oauth/transfer",
            json!({ "nonce": data["nonce"], "userInfo": data["oauth_user_info"] }),
        )
        .bearer(&other_token)
        .send()
        .await;
    assert_eq!(moved.status.as_u16(), 200, "{}", moved.text);
    assert!(account(&moved.body, "github_oauth").is_some());

    // Unlink: the subject must match; never the last way in.
    let unlink = |token: &str, provider: &str, subject: &str| {
        t.post(
            "/api/v1/oauth/unlink",
            json!({ "provider": provider, "subject": subject }),
        )
        .bearer(token)
        .send()
    };
    unlink(&other_token, "github", "someone-else")
        .await
        .assert_error(404, "linked_account_not_found");
    let left = unlink(&other_token, "github", &subject).await;
    assert_eq!(left.status.as_u16(), 200, "{}", left.text);
    assert!(account(&left.body, "github_oauth").is_none());
    unlink(&other_token, "google", "carol")
        .await
        .assert_error(422, "cannot_unlink_sole_account");
    unlink(&other_token, "myspace", "carol")
        .await
        .assert_error(400, "invalid_data");
}

/// A provider this test plays itself: its token endpoint answers the ID token the test minted,
/// and its JWKS holds the test's key.
struct FakeIssuer {
    url: String,
    key: EncodingKey,
    next_id_token: Arc<Mutex<String>>,
}

async fn fake_issuer() -> FakeIssuer {
    let rng = SystemRandom::new();
    let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng).unwrap();
    let pair =
        EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8.as_ref(), &rng).unwrap();
    let point = pair.public_key().as_ref();
    let jwk = json!({
        "kty": "EC", "crv": "P-256", "kid": "test", "alg": "ES256", "use": "sig",
        "x": URL_SAFE_NO_PAD.encode(&point[1..33]),
        "y": URL_SAFE_NO_PAD.encode(&point[33..65]),
    });
    let next_id_token = Arc::new(Mutex::new(String::new()));
    let answer = next_id_token.clone();
    let router = axum::Router::new()
        .route(
            "/jwks",
            get(move || async move { Json(json!({ "keys": [jwk] })) }),
        )
        .route(
            "/token",
            post(move || async move {
                let id_token = answer.lock().unwrap().clone();
                Json(json!({
                    "access_token": "at", "token_type": "Bearer", "expires_in": 3600,
                    "id_token": id_token,
                }))
            }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
    tokio::spawn(async move { axum::serve(listener, router).await });
    FakeIssuer {
        url,
        key: EncodingKey::from_ec_der(pkcs8.as_ref()),
        next_id_token,
    }
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

async fn id_tokens_are_checked_for_issuer_audience_nonce_expiry_and_signature(backend: Backend) {
    let issuer = fake_issuer().await;
    let other_key = fake_issuer().await.key;
    let mut s = settings();
    s.oauth.providers.insert(
        "google".into(),
        ProviderSettings {
            client_id: "google-client".into(),
            client_secret: "secret".into(),
            issuer: Some(issuer.url.clone()),
            authorize_url: Some(format!("{}/auth", issuer.url)),
            token_url: Some(format!("{}/token", issuer.url)),
            jwks_url: Some(format!("{}/jwks", issuer.url)),
            ..ProviderSettings::default()
        },
    );
    let t = start(backend, s).await;
    let good = |nonce: &str| {
        json!({
            "iss": issuer.url, "aud": "google-client", "sub": "g-123", "nonce": nonce,
            "email": "g@example.com", "email_verified": true, "iat": now(), "exp": now() + 300,
        })
    };
    type Defect = fn(&mut Value);
    let cases: [(&str, Defect, bool); 6] = [
        (
            "wrong issuer",
            |c| c["iss"] = json!("https://accounts.evil.example"),
            false,
        ),
        (
            "wrong audience",
            |c| c["aud"] = json!("someone-else"),
            false,
        ),
        ("wrong nonce", |c| c["nonce"] = json!("replayed"), false),
        ("expired", |c| c["exp"] = json!(now() - 3600), false),
        ("bad signature", |_| {}, false),
        // Last, so every refusal above is proven to be about its defect.
        ("good", |_| {}, true),
    ];
    for (name, defect, accepted) in cases {
        let flow = client_flow();
        let reply = init(&t, "google", &flow, None).await;
        assert_eq!(reply.status.as_u16(), 200, "{name}: {}", reply.text);
        let url = url::Url::parse(reply.body["url"].as_str().unwrap()).unwrap();
        let query: HashMap<String, String> = url.query_pairs().into_owned().collect();
        assert_eq!(query["code_challenge_method"], "S256");
        assert_eq!(
            query["redirect_uri"],
            format!("{PUBLIC_URL}/api/v1/oauth/callback")
        );
        let mut claims = good(&query["nonce"]);
        defect(&mut claims);
        let key = if name == "bad signature" {
            &other_key
        } else {
            &issuer.key
        };
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some("test".into());
        *issuer.next_id_token.lock().unwrap() =
            jsonwebtoken::encode(&header, &claims, key).unwrap();
        let back = url::Url::parse(&format!(
            "{PUBLIC_URL}/api/v1/oauth/callback?code=c-{name}&state={}",
            query["state"]
        ))
        .unwrap();
        let params = follow_callback(&t, &back).await;
        let reply = authenticate(&t, &flow, &params, "google").await;
        if accepted {
            assert_eq!(reply.status.as_u16(), 200, "{name}: {}", reply.text);
            let google = account(&reply.body["user"], "google_oauth").unwrap();
            assert_eq!(google["subject"], "g-123");
            assert_eq!(google["email"], "g@example.com");
        } else {
            reply.assert_error(401, "invalid_credentials");
        }
    }
}

async fn custom_providers_render_as_custom_types_and_show_in_the_config(backend: Backend) {
    let github = oauth2_url();
    let mut s = settings();
    s.oauth.custom_providers.push(CustomProviderSettings {
        provider: "custom:octo".into(),
        display_name: "Octo".into(),
        client_id: CLIENT_ID.into(),
        client_secret: CLIENT_SECRET.into(),
        authorize_url: format!("{github}/login/oauth/authorize"),
        token_url: format!("{github}/login/oauth/access_token"),
        userinfo_url: Some(format!("{github}/user")),
        subject_claim: Some("id".into()),
        username_claim: Some("login".into()),
        ..CustomProviderSettings::default()
    });
    s.login_methods.overflow.push("custom:octo".into());
    let t = start(backend, s).await;
    let config = t.get(&format!("/api/v1/apps/{}", t.app_id)).send().await;
    assert_eq!(config.body["google_oauth"], true, "{}", config.text);
    assert_eq!(config.body["github_oauth"], true);
    assert_eq!(config.body["discord_oauth"], false);
    assert_eq!(
        config.body["custom_oauth_providers"][0]["provider"],
        "custom:octo"
    );
    assert_eq!(
        config.body["custom_oauth_providers"][0]["provider_display_name"],
        "Octo"
    );
    assert!(
        !config.text.contains(CLIENT_SECRET),
        "secrets stay on the server"
    );

    let reply = login(&t, "custom:octo", "octocat").await;
    assert_eq!(reply.status.as_u16(), 200, "{}", reply.text);
    let custom = account(&reply.body["user"], "custom:octo").expect("custom account");
    assert_eq!(custom["subject"], "583231");
    assert_eq!(custom["username"], "octocat");
}

/// App B signs its user in with their account of app A (provider `privy:A`): the engine runs
/// against this server's own authorize, token and user-info endpoints, served on loopback.
async fn cross_app_login_runs_on_our_own_provider_endpoints(backend: Backend) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let public_url = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
    let url = public_url.clone();
    let t = TestApp::start_with(backend, move |c| c.public_url = url).await;
    let router = t.router.clone();
    tokio::spawn(async move {
        let service = router.into_make_service_with_connect_info::<std::net::SocketAddr>();
        axum::serve(listener, service).await
    });
    let a = t.app_id.clone();
    let mut provider = AppSettings::default();
    provider.cross_app.allow_as_provider = true;
    t.set_settings(provider).await;
    let b = t.create_app(false).await;
    let mut requester = AppSettings::default();
    requester.cross_app.providers.push(CrossAppProvider {
        app_id: a.clone(),
        read_only: false,
    });
    let mut record = t.state.db.find_app(&b).await.unwrap().unwrap();
    record.settings = requester.checked().unwrap();
    t.state
        .db
        .upsert_app(&record, t.state.clock.now())
        .await
        .unwrap();
    let provider_name = format!("privy:{a}");

    // B starts the flow: the authorization URL is A's consent page on this server.
    let flow = client_flow();
    let reply = t
        .post(
            "/api/v1/oauth/init",
            json!({
                "provider": provider_name, "redirect_to": RETURN_TO,
                "code_challenge": flow.challenge, "state_code": flow.state,
            }),
        )
        .header("privy-app-id", &b)
        .send()
        .await;
    assert_eq!(reply.status.as_u16(), 200, "{}", reply.text);
    let authorize = url::Url::parse(reply.body["url"].as_str().unwrap()).unwrap();
    assert_eq!(authorize.path(), format!("/apps/{a}/oauth/authorize"));
    let query: HashMap<String, String> = authorize.query_pairs().into_owned().collect();
    assert_eq!(query["client_id"], b);

    // The user, signed in to A on A's page, consents.
    let session = t.login(&unique_email()).await;
    let a_user = session["user"]["id"].as_str().unwrap().to_string();
    let consent = t
        .post(
            &format!("/api/v1/apps/{a}/oauth/consent"),
            json!({
                "client_id": query["client_id"], "redirect_uri": query["redirect_uri"],
                "state": query["state"], "code_challenge": query["code_challenge"],
                "code_challenge_method": query["code_challenge_method"],
            }),
        )
        .header("origin", &public_url)
        .without("privy-app-id")
        .bearer(session["token"].as_str().unwrap())
        .send()
        .await;
    assert_eq!(consent.status.as_u16(), 200, "{}", consent.text);
    let back = url::Url::parse(consent.body["redirect_to"].as_str().unwrap()).unwrap();
    let params = follow_callback(&t, &back).await;

    // B signs in: the code is exchanged and the user read over HTTP, on this server.
    let reply = t
        .post(
            "/api/v1/oauth/authenticate",
            proof(&flow, &params, &provider_name),
        )
        .header("privy-app-id", &b)
        .send()
        .await;
    assert_eq!(reply.status.as_u16(), 200, "{}", reply.text);
    let cross = account(&reply.body["user"], "cross_app").expect("cross_app account");
    assert_eq!(cross["subject"], a_user.as_str());
    assert_eq!(cross["provider_app_id"], a.as_str());
    assert_eq!(cross["embedded_wallets"], json!([]));
    assert_eq!(cross["smart_wallets"], json!([]));
    // Always answered for cross-app: the client needs A's token to sign with A's wallet.
    let tokens = &reply.body["oauth_tokens"];
    assert_eq!(tokens["provider"], provider_name.as_str());
    assert!(
        tokens["access_token"]
            .as_str()
            .is_some_and(|t| !t.is_empty())
    );
    // A lists nobody: A's users cannot sign in to A with B.
    init(&t, &format!("privy:{b}"), &client_flow(), None)
        .await
        .assert_error(403, "disallowed_login_method");
}

/// init, then the provider's return as our callback would get it: the flow and the page's
/// parameters, without visiting any provider page.
/// Starts `flow` at `provider` and returns the `state` the provider's authorization URL carries.
async fn provider_state(t: &TestApp, provider: &str, flow: &ClientFlow) -> String {
    let reply = init(t, provider, flow, None).await;
    assert_eq!(reply.status.as_u16(), 200, "{}", reply.text);
    let url = url::Url::parse(reply.body["url"].as_str().unwrap()).unwrap();
    url.query_pairs()
        .find(|(k, _)| k == "state")
        .map(|(_, v)| v.into_owned())
        .unwrap()
}

async fn returned(
    t: &TestApp,
    provider: &str,
    code: &str,
) -> (ClientFlow, HashMap<String, String>) {
    let flow = client_flow();
    let state = provider_state(t, provider, &flow).await;
    let back = url::Url::parse(&format!(
        "{PUBLIC_URL}/api/v1/oauth/callback?code={code}&state={state}"
    ))
    .unwrap();
    (flow, follow_callback(t, &back).await)
}

async fn unreachable_or_oversized_providers_are_a_clear_502(backend: Backend) {
    // A token endpoint whose answer is far over the 64 KiB cap.
    let router = axum::Router::new().route(
        "/token",
        post(|| async {
            Json(json!({ "access_token": "x".repeat(200_000), "token_type": "Bearer" }))
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let big = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
    tokio::spawn(async move { axum::serve(listener, router).await });
    // A port nothing listens on.
    let closed = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://127.0.0.1:{}", probe.local_addr().unwrap().port())
    };
    for token_url in [format!("{closed}/token"), format!("{big}/token")] {
        let mut s = settings();
        let github = s.oauth.providers.get_mut("github").unwrap();
        github.token_url = Some(token_url.clone());
        let t = start(backend, s).await;
        let (flow, params) = returned(&t, "github", "some-code").await;
        let started = std::time::Instant::now();
        let reply = authenticate(&t, &flow, &params, "github").await;
        reply.assert_error(502, "internal_error");
        assert!(
            reply.body["error"].as_str().unwrap().contains("github"),
            "{token_url}"
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }
}

async fn a_form_posted_callback_redirects_like_a_query(backend: Backend) {
    let t = start(backend, settings()).await;
    let flow = client_flow();
    let state = provider_state(&t, "google", &flow).await;
    let form = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("code", "posted-code")
        .append_pair("state", &state)
        .finish();
    let reply = t
        .request(axum::http::Method::POST, "/api/v1/oauth/callback")
        .without("origin")
        .without("privy-app-id")
        .header("content-type", "application/x-www-form-urlencoded")
        .raw_body(&form)
        .send()
        .await;
    assert_eq!(reply.status.as_u16(), 302, "{}", reply.text);
    let location = url::Url::parse(reply.header("location").unwrap()).unwrap();
    let params: HashMap<String, String> = location.query_pairs().into_owned().collect();
    assert_eq!(params["privy_oauth_code"], "posted-code");
    assert_eq!(params["privy_oauth_state"], flow.state);
    assert_eq!(params["privy_oauth_provider"], "google");
    // The page's own query is kept.
    assert_eq!(params["from"], "oauth");
}
