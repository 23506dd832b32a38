//! The `/v1` API of host back ends: app secrets (HTTP Basic), and the users API the vendor's server
//! SDK drives (docs/server-api.md). On both databases.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use common::{Backend, TestApp, unique_email, unique_phone};
use serde_json::{Value, json};
use symbolon_server::api_secrets::make_secret;
use tokio::task::JoinSet;

backend_tests!(
    v1_refuses_missing_wrong_revoked_and_other_apps_secrets,
    v1_secret_guessing_is_limited_per_app_and_network_and_never_locks_out_the_real_secret,
    v1_gets_lists_and_deletes_the_apps_users,
    v1_finds_users_by_their_accounts,
    v1_custom_metadata_replaces_and_shows_in_the_user_and_identity_token,
    v1_create_imports_accounts_all_or_nothing,
    v1_concurrent_creates_of_one_email_make_one_user,
    v1_an_idempotency_key_runs_a_post_once_and_replays_its_answer,
    v1_concurrent_posts_with_one_idempotency_key_create_one_user,
    v1_unlinks_an_account_by_its_handle_under_the_account_rules,
    v1_a_delete_racing_a_login_leaves_no_live_session_and_no_server_error,
    v1_imports_many_users_each_on_its_own,
    v1_search_finds_one_user_by_term_or_lists,
    v1_app_settings_are_the_calling_apps_with_its_verification_key
);

/// A new live secret of `app_id`.
pub(crate) async fn secret(t: &TestApp, app_id: &str) -> String {
    let made = make_secret(app_id, t.state.clock.now()).unwrap();
    t.state.db.insert_api_secret(&made.record).await.unwrap();
    made.secret.to_string()
}

/// A `/v1` call as a host back end makes it: Basic `app_id:secret`, `privy-app-id`, no `Origin`.
pub(crate) fn v1<'a>(
    t: &'a TestApp,
    method: Method,
    path: &str,
    app_id: &str,
    secret: &str,
) -> common::Call<'a> {
    let basic = STANDARD.encode(format!("{app_id}:{secret}"));
    t.request(method, path)
        .without("origin")
        .header("privy-app-id", app_id)
        .header("authorization", &format!("Basic {basic}"))
}

/// `count` calls made by `make`, sent at once, each on its own task; the replies.
pub(crate) async fn at_once<F>(t: &Arc<TestApp>, count: usize, make: F) -> Vec<common::Reply>
where
    F: for<'a> Fn(&'a TestApp, usize) -> common::Call<'a> + Send + Sync + 'static,
{
    let make = Arc::new(make);
    let mut calls = JoinSet::new();
    for i in 0..count {
        let (t, make) = (Arc::clone(t), Arc::clone(&make));
        calls.spawn(async move { make(&t, i).send().await });
    }
    let mut replies = Vec::new();
    while let Some(reply) = calls.join_next().await {
        replies.push(reply.unwrap());
    }
    replies
}

async fn v1_refuses_missing_wrong_revoked_and_other_apps_secrets(backend: Backend) {
    let t = TestApp::start(backend).await;
    let good = secret(&t, &t.app_id).await;
    let ok = v1(&t, Method::GET, "/v1/users", &t.app_id, &good)
        .send()
        .await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.text);

    let missing = t.get("/v1/users").without("origin").send().await;
    missing.assert_error(401, "invalid_credentials");
    let bearer = t.get("/v1/users").bearer("token").send().await;
    bearer.assert_error(401, "invalid_credentials");
    let mut wrong = good.clone();
    wrong.replace_range(wrong.len() - 4.., "AAAA");
    for refused in [wrong.as_str(), "sk_nosuchsecret_x", "plain"] {
        let reply = v1(&t, Method::GET, "/v1/users", &t.app_id, refused)
            .send()
            .await;
        reply.assert_error(401, "invalid_credentials");
        assert_eq!(reply.body["error"], "Invalid app ID or app secret");
    }

    // privy-app-id must name the app of the Basic authorization.
    let other_app = t.create_app(false).await;
    let mismatched = v1(&t, Method::GET, "/v1/users", &t.app_id, &good)
        .header("privy-app-id", &other_app)
        .send()
        .await;
    mismatched.assert_error(400, "missing_or_invalid_privy_app_id");
    // A secret opens only its own app.
    let other_secret = secret(&t, &other_app).await;
    let crossed = v1(&t, Method::GET, "/v1/users", &t.app_id, &other_secret)
        .send()
        .await;
    crossed.assert_error(401, "invalid_credentials");

    // Revoked: refused at once, though this process checked it before.
    let id = good.split('_').nth(1).unwrap();
    assert!(
        t.state
            .db
            .revoke_api_secret(&t.app_id, id, 1)
            .await
            .unwrap()
    );
    let revoked = v1(&t, Method::GET, "/v1/users", &t.app_id, &good)
        .send()
        .await;
    revoked.assert_error(401, "invalid_credentials");
    let listed = t.state.db.api_secrets_of_app(&t.app_id).await.unwrap();
    assert!(
        listed[0].last_used_at.is_some(),
        "the accepted use was recorded"
    );
}

async fn v1_secret_guessing_is_limited_per_app_and_network_and_never_locks_out_the_real_secret(
    backend: Backend,
) {
    let t = Arc::new(
        TestApp::start_with(backend, |c| c.rate_limit.ip_authenticate_per_window = 5).await,
    );
    let good = secret(&t, &t.app_id).await;
    let fresh = secret(&t, &t.app_id).await;
    // The app's back end has used its secret: checked once, remembered.
    let used = v1(&t, Method::GET, "/v1/users", &t.app_id, &good)
        .send()
        .await;
    assert_eq!(used.status, StatusCode::OK);

    let app_id = t.app_id.clone();
    let replies = at_once(&t, 12, move |t, i| {
        let guess = format!("sk_{}_{}{i:03}", "a".repeat(12), "b".repeat(40));
        v1(t, Method::GET, "/v1/users", &app_id, &guess).client_ip("10.1.1.7")
    })
    .await;
    let statuses: Vec<u16> = replies.iter().map(|r| r.status.as_u16()).collect();
    // Exactly the budget of 5 hash checks ran; the rest were refused before any check.
    let unauthorized = statuses.iter().filter(|s| **s == 401).count();
    let limited = statuses.iter().filter(|s| **s == 429).count();
    assert_eq!((unauthorized, limited), (5, 7), "{statuses:?}");
    let refused = replies.iter().find(|r| r.status == 429).unwrap();
    refused.assert_error(429, "too_many_requests");
    assert!(refused.header("retry-after").is_some());

    // The real back end keeps working from the same network: its secret costs no check.
    let still = v1(&t, Method::GET, "/v1/users", &t.app_id, &good)
        .client_ip("10.1.1.8")
        .send()
        .await;
    assert_eq!(still.status, StatusCode::OK, "{}", still.text);
    // A secret never used waits on that network, and works from any other.
    let waits = v1(&t, Method::GET, "/v1/users", &t.app_id, &fresh)
        .client_ip("10.1.1.9")
        .send()
        .await;
    waits.assert_error(429, "too_many_requests");
    let elsewhere = v1(&t, Method::GET, "/v1/users", &t.app_id, &fresh)
        .client_ip("10.2.2.2")
        .send()
        .await;
    assert_eq!(elsewhere.status, StatusCode::OK, "{}", elsewhere.text);
    // Another app on the guessed network is untouched.
    let other_app = t.create_app(false).await;
    let other = secret(&t, &other_app).await;
    let unaffected = v1(&t, Method::GET, "/v1/users", &other_app, &other)
        .client_ip("10.1.1.7")
        .send()
        .await;
    assert_eq!(unaffected.status, StatusCode::OK, "{}", unaffected.text);
}

async fn v1_gets_lists_and_deletes_the_apps_users(backend: Backend) {
    let t = TestApp::start(backend).await;
    let key = secret(&t, &t.app_id).await;
    let mut ids = Vec::new();
    let mut sessions = Vec::new();
    for _ in 0..3 {
        let session = t.login(&unique_email()).await;
        ids.push(session["user"]["id"].as_str().unwrap().to_string());
        sessions.push(session);
    }

    // Pages of 2: every user exactly once, oldest id first, then no cursor.
    let mut seen = Vec::new();
    let mut listed = Vec::new();
    let mut cursor: Option<String> = None;
    for page in 0.. {
        assert!(page < 10, "the pages never ended");
        let path = match &cursor {
            Some(c) => format!("/v1/users?limit=2&cursor={}", urlencode(c)),
            None => "/v1/users?limit=2".into(),
        };
        let reply = v1(&t, Method::GET, &path, &t.app_id, &key).send().await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        let data = reply.body["data"].as_array().unwrap();
        assert!(data.len() <= 2);
        seen.extend(data.iter().map(|u| u["id"].as_str().unwrap().to_string()));
        listed.extend(data.iter().cloned());
        match reply.body["next_cursor"].as_str() {
            Some(next) => cursor = Some(next.to_string()),
            None => break,
        }
    }
    let mut sorted = seen.clone();
    sorted.sort();
    assert_eq!(seen, sorted, "ordered by id");
    for (id, session) in ids.iter().zip(&sessions) {
        assert_eq!(seen.iter().filter(|s| *s == id).count(), 1, "{id} once");
        // A page carries each user whole, as the login answered it (accounts read per page).
        let entry = listed.iter().find(|u| u["id"] == id.as_str()).unwrap();
        assert_eq!(entry, &session["user"], "{id} in the list");
    }
    for limit in ["0", "101", "x"] {
        let path = format!("/v1/users?limit={limit}");
        let reply = v1(&t, Method::GET, &path, &t.app_id, &key).send().await;
        reply.assert_error(400, "invalid_data");
    }

    // By id, with or without the did prefix; the user as the client sees it.
    let did = &ids[0];
    let bare = did.trim_start_matches("did:privy:");
    for id in [did.as_str(), bare] {
        let reply = user_call(&t, Method::GET, id, &t.app_id, &key).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert_eq!(
            reply.body, sessions[0]["user"],
            "the same user as the login answered"
        );
    }
    // Another app's back end sees nothing of these users.
    let other_app = t.create_app(false).await;
    let other_key = secret(&t, &other_app).await;
    let hidden = user_call(&t, Method::GET, bare, &other_app, &other_key).await;
    hidden.assert_error(404, "not_found");
    let not_theirs = user_call(&t, Method::DELETE, bare, &other_app, &other_key).await;
    not_theirs.assert_error(404, "not_found");

    // Deleted with everything theirs: the user, their accounts (the email is free again) and sessions.
    let deleted = user_call(&t, Method::DELETE, bare, &t.app_id, &key).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.text);
    let gone = user_call(&t, Method::GET, bare, &t.app_id, &key).await;
    gone.assert_error(404, "not_found");
    let again = user_call(&t, Method::DELETE, bare, &t.app_id, &key).await;
    again.assert_error(404, "not_found");
    let token = sessions[0]["token"].as_str().unwrap();
    let me = t.get("/api/v1/users/me").bearer(token).send().await;
    assert_eq!(me.status, StatusCode::UNAUTHORIZED, "{}", me.text);
    let refresh = t
        .post(
            "/api/v1/sessions",
            json!({ "refresh_token": sessions[0]["refresh_token"] }),
        )
        .bearer(token)
        .send()
        .await;
    assert_eq!(refresh.status, StatusCode::UNAUTHORIZED, "{}", refresh.text);
    let email = sessions[0]["user"]["linked_accounts"][0]["address"]
        .as_str()
        .unwrap();
    let relogin = t.login(email).await;
    assert_ne!(relogin["user"]["id"], did.as_str(), "a new user");
}

async fn v1_finds_users_by_their_accounts(backend: Backend) {
    let t = TestApp::start(backend).await;
    let key = secret(&t, &t.app_id).await;
    let email = unique_email();
    let phone = unique_phone();
    let address = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
    let created = v1(&t, Method::POST, "/v1/users", &t.app_id, &key)
        .json(json!({ "linked_accounts": [
            { "type": "email", "address": email },
            { "type": "phone", "number": phone },
            { "type": "wallet", "address": address, "chain_type": "ethereum" },
            { "type": "telegram", "telegram_user_id": "4242", "username": "ada" },
            { "type": "farcaster", "fid": 77, "owner_address": address },
            { "type": "twitter_oauth", "subject": "tw-1", "username": "ada", "name": "Ada" },
        ]}))
        .send()
        .await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.text);
    let id = created.body["id"].as_str().unwrap().to_string();
    let custom = v1(&t, Method::POST, "/v1/users", &t.app_id, &key)
        .json(json!({ "linked_accounts": [{ "type": "custom_auth", "custom_user_id": "host-7" }] }))
        .send()
        .await;
    assert_eq!(custom.status, StatusCode::OK, "{}", custom.text);

    let finds = |path: &str, body: Value, expected: &str| {
        let call = v1(&t, Method::POST, path, &t.app_id, &key).json(body);
        let expected = expected.to_string();
        let path = path.to_string();
        async move {
            let reply = call.send().await;
            assert_eq!(reply.status, StatusCode::OK, "{path}: {}", reply.text);
            assert_eq!(reply.body["id"], expected.as_str(), "{path}");
        }
    };
    finds(
        "/v1/users/email/address",
        json!({ "address": email.to_uppercase() }),
        &id,
    )
    .await;
    finds("/v1/users/phone/number", json!({ "number": phone }), &id).await;
    let checksummed = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    finds(
        "/v1/users/wallet/address",
        json!({ "address": checksummed }),
        &id,
    )
    .await;
    finds(
        "/v1/users/telegram/telegram_user_id",
        json!({ "telegram_user_id": "4242" }),
        &id,
    )
    .await;
    finds("/v1/users/farcaster/fid", json!({ "fid": 77 }), &id).await;
    finds(
        "/v1/users/twitter/subject",
        json!({ "subject": "tw-1" }),
        &id,
    )
    .await;
    finds(
        "/v1/users/twitter/username",
        json!({ "username": "@ADA" }),
        &id,
    )
    .await;
    finds(
        "/v1/users/telegram/username",
        json!({ "username": "Ada" }),
        &id,
    )
    .await;
    let custom_id = custom.body["id"].as_str().unwrap();
    finds(
        "/v1/users/custom_auth/id",
        json!({ "custom_user_id": "host-7" }),
        custom_id,
    )
    .await;

    for (path, body) in [
        (
            "/v1/users/email/address",
            json!({ "address": unique_email() }),
        ),
        (
            "/v1/users/custom_auth/id",
            json!({ "custom_user_id": "nobody" }),
        ),
        (
            "/v1/users/smart_wallet/address",
            json!({ "address": checksummed }),
        ),
        ("/v1/users/github/username", json!({ "username": "ada" })),
        ("/v1/users/discord/username", json!({ "username": "ada" })),
    ] {
        let reply = v1(&t, Method::POST, path, &t.app_id, &key)
            .json(body)
            .send()
            .await;
        reply.assert_error(404, "not_found");
        assert_eq!(reply.body["error"], "User not found");
    }
    for (path, body) in [
        (
            "/v1/users/email/address",
            json!({ "address": "not an email" }),
        ),
        ("/v1/users/wallet/address", json!({ "address": "0x12" })),
        ("/v1/users/phone/number", json!({ "number": "12" })),
        ("/v1/users/farcaster/fid", json!({ "fid": "seven" })),
    ] {
        let reply = v1(&t, Method::POST, path, &t.app_id, &key)
            .json(body)
            .send()
            .await;
        reply.assert_error(400, "invalid_data");
    }
}

async fn v1_custom_metadata_replaces_and_shows_in_the_user_and_identity_token(backend: Backend) {
    let t = TestApp::start(backend).await;
    let key = secret(&t, &t.app_id).await;
    let session = t.login(&unique_email()).await;
    let id = session["user"]["id"].as_str().unwrap();
    assert!(
        session["user"].get("custom_metadata").is_none(),
        "absent until set"
    );
    let path = format!("/v1/users/{}/custom_metadata", urlencode(id));
    let set = |metadata: Value| {
        v1(&t, Method::POST, &path, &t.app_id, &key).json(json!({ "custom_metadata": metadata }))
    };
    let first = set(json!({ "plan": "pro", "seats": 3 })).send().await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let second = set(json!({ "plan": "team", "beta": true })).send().await;
    assert_eq!(
        second.body["custom_metadata"],
        json!({ "plan": "team", "beta": true }),
        "replaced, not merged"
    );

    for refused in [
        json!({ "nested": { "a": 1 } }),
        json!({ "big": "x".repeat(1100) }),
        json!({ "list": [] }),
    ] {
        let reply = set(refused).send().await;
        reply.assert_error(400, "invalid_data");
    }
    let unknown = v1(
        &t,
        Method::POST,
        "/v1/users/did:privy:nobody/custom_metadata",
        &t.app_id,
        &key,
    )
    .json(json!({ "custom_metadata": { "a": 1 } }))
    .send()
    .await;
    unknown.assert_error(404, "not_found");

    // The user sees it, and so do the server SDKs in the identity token (a JSON string claim).
    let me = t
        .get("/api/v1/users/me")
        .bearer(session["token"].as_str().unwrap())
        .send()
        .await;
    assert_eq!(
        me.body["user"]["custom_metadata"],
        json!({ "plan": "team", "beta": true })
    );
    let identity = me.body["identity_token"].as_str().unwrap();
    let payload = identity.split('.').nth(1).unwrap();
    let claims: Value = serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(payload)
            .unwrap(),
    )
    .unwrap();
    let claim: Value = serde_json::from_str(claims["custom_metadata"].as_str().unwrap()).unwrap();
    assert_eq!(claim, json!({ "plan": "team", "beta": true }));
}

async fn v1_create_imports_accounts_all_or_nothing(backend: Backend) {
    let t = TestApp::start(backend).await;
    let key = secret(&t, &t.app_id).await;
    let email = unique_email();
    let create = |accounts: Value| {
        v1(&t, Method::POST, "/v1/users", &t.app_id, &key)
            .json(json!({ "linked_accounts": accounts }))
    };
    let wallet = json!({ "type": "wallet", "address": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "chain_type": "ethereum" });
    let created = create(json!([{ "type": "email", "address": email }, wallet.clone()]))
        .send()
        .await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.text);
    let accounts = created.body["linked_accounts"].as_array().unwrap();
    assert_eq!(accounts.len(), 2);
    assert!(
        accounts.iter().all(|a| a["verified_at"].as_i64().is_some()),
        "verified at the import"
    );
    assert_eq!(created.body["is_guest"], false);

    // One taken account refuses the whole user: the other account stays free.
    let free_email = unique_email();
    let taken = create(json!([{ "type": "email", "address": free_email }, wallet]))
        .send()
        .await;
    taken.assert_error(422, "linked_to_another_user");
    let lookup = v1(&t, Method::POST, "/v1/users/email/address", &t.app_id, &key)
        .json(json!({ "address": free_email }))
        .send()
        .await;
    lookup.assert_error(404, "not_found");

    let two = create(json!([{ "type": "email", "address": unique_email() }, { "type": "email", "address": unique_email() }]))
        .send()
        .await;
    two.assert_error(422, "cannot_link_more_of_type");
    create(json!([]))
        .send()
        .await
        .assert_error(400, "invalid_data");
    create(json!([{ "type": "guest", "guest_credential": "x" }]))
        .send()
        .await
        .assert_error(400, "invalid_data");
    create(json!([{ "type": "wallet", "address": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "chain_type": "bitcoin" }]))
        .send()
        .await
        .assert_error(400, "invalid_data");

    // The imported user signs in with their email and is that user.
    let session = t.login(&email).await;
    assert_eq!(session["user"]["id"], created.body["id"]);
    assert_eq!(session["is_new_user"], false);
}

async fn v1_concurrent_creates_of_one_email_make_one_user(backend: Backend) {
    let t = Arc::new(TestApp::start(backend).await);
    let key = secret(&t, &t.app_id).await;
    let (app_id, email) = (t.app_id.clone(), unique_email());
    let replies = at_once(&t, 8, move |t, _| {
        v1(t, Method::POST, "/v1/users", &app_id, &key)
            .json(json!({ "linked_accounts": [{ "type": "email", "address": email }] }))
    })
    .await;
    let created = replies
        .iter()
        .filter(|r| r.status == StatusCode::OK)
        .count();
    assert_eq!(
        created,
        1,
        "{:?}",
        replies.iter().map(|r| r.status).collect::<Vec<_>>()
    );
    for reply in replies.iter().filter(|r| r.status != StatusCode::OK) {
        reply.assert_error(422, "linked_to_another_user");
    }
}

async fn v1_an_idempotency_key_runs_a_post_once_and_replays_its_answer(backend: Backend) {
    let t = TestApp::start(backend).await;
    let key = secret(&t, &t.app_id).await;
    let email = unique_email();
    let body = json!({ "linked_accounts": [{ "type": "email", "address": email }] });
    let keyed = |idempotency: &str, body: Value| {
        v1(&t, Method::POST, "/v1/users", &t.app_id, &key)
            .header("privy-idempotency-key", idempotency)
            .json(body)
    };
    let first = keyed("create-ada", body.clone()).send().await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert!(first.header("privy-idempotency-replayed").is_none());
    // A retry (the answer was lost): the same user, not "already linked".
    let retry = keyed("create-ada", body.clone()).send().await;
    assert_eq!(retry.status, StatusCode::OK, "{}", retry.text);
    assert_eq!(retry.body, first.body);
    assert_eq!(retry.header("privy-idempotency-replayed"), Some("true"));
    assert_eq!(retry.header("content-type"), Some("application/json"));
    // Without the key the same body runs again, and the email is taken.
    let unkeyed = v1(&t, Method::POST, "/v1/users", &t.app_id, &key)
        .json(body.clone())
        .send()
        .await;
    unkeyed.assert_error(422, "linked_to_another_user");
    // The same key with another request is refused, and runs nothing.
    let other_email = unique_email();
    let other = json!({ "linked_accounts": [{ "type": "email", "address": other_email }] });
    let reused = keyed("create-ada", other.clone()).send().await;
    reused.assert_error(400, "invalid_data");
    let lookup = v1(&t, Method::POST, "/v1/users/email/address", &t.app_id, &key)
        .json(json!({ "address": other_email }))
        .send()
        .await;
    lookup.assert_error(404, "not_found");
    // A refusal is an answer too: replayed, not re-run.
    let refused = keyed("taken", body.clone()).send().await;
    refused.assert_error(422, "linked_to_another_user");
    let replayed = keyed("taken", body.clone()).send().await;
    replayed.assert_error(422, "linked_to_another_user");
    assert_eq!(replayed.header("privy-idempotency-replayed"), Some("true"));
    // Keys are per app, and only the app's back end can claim or replay them.
    let other_app = t.create_app(false).await;
    let other_key = secret(&t, &other_app).await;
    let theirs = v1(&t, Method::POST, "/v1/users", &other_app, &other_key)
        .header("privy-idempotency-key", "create-ada")
        .json(body.clone())
        .send()
        .await;
    assert_eq!(theirs.status, StatusCode::OK, "{}", theirs.text);
    assert_ne!(theirs.body["id"], first.body["id"]);
    let stranger = v1(&t, Method::POST, "/v1/users", &t.app_id, "sk_wrong")
        .header("privy-idempotency-key", "create-ada")
        .json(body.clone())
        .send()
        .await;
    stranger.assert_error(401, "invalid_credentials");
    for bad in ["", &"k".repeat(257)] {
        let reply = keyed(bad, body.clone()).send().await;
        reply.assert_error(400, "invalid_data");
    }
    // A day later the key is free again (here: the row expired).
    t.state
        .db
        .sweep_expired(t.state.clock.now() + 24 * 3600 + 1)
        .await
        .unwrap();
    let later = keyed("create-ada", other).send().await;
    assert_eq!(later.status, StatusCode::OK, "{}", later.text);
    assert_ne!(later.body["id"], first.body["id"]);
}

async fn v1_concurrent_posts_with_one_idempotency_key_create_one_user(backend: Backend) {
    let t = Arc::new(TestApp::start(backend).await);
    let key = secret(&t, &t.app_id).await;
    let app_id = t.app_id.clone();
    let body = json!({ "linked_accounts": [{ "type": "email", "address": unique_email() }] });
    let replies = at_once(&t, 8, move |t, _| {
        v1(t, Method::POST, "/v1/users", &app_id, &key)
            .header("privy-idempotency-key", "once")
            .json(body.clone())
    })
    .await;
    let ok: Vec<_> = replies
        .iter()
        .filter(|r| r.status == StatusCode::OK)
        .collect();
    assert!(!ok.is_empty());
    assert!(
        ok.iter().all(|r| r.body["id"] == ok[0].body["id"]),
        "one user"
    );
    for reply in replies.iter().filter(|r| r.status != StatusCode::OK) {
        // Still running when asked: 409, which the SDK retries.
        reply.assert_error(409, "resource_conflict");
    }
    let page = v1(
        &t,
        Method::GET,
        "/v1/users",
        &t.app_id,
        &secret(&t, &t.app_id).await,
    )
    .send()
    .await;
    assert_eq!(
        page.body["data"].as_array().unwrap().len(),
        1,
        "{}",
        page.text
    );
}

async fn v1_unlinks_an_account_by_its_handle_under_the_account_rules(backend: Backend) {
    let t = TestApp::start(backend).await;
    let key = secret(&t, &t.app_id).await;
    let email = unique_email();
    let created = v1(&t, Method::POST, "/v1/users", &t.app_id, &key)
        .json(json!({ "linked_accounts": [
            { "type": "email", "address": email },
            { "type": "github_oauth", "subject": "gh-9", "username": "ada" },
        ]}))
        .send()
        .await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.text);
    let path = format!(
        "/v1/users/{}/accounts/unlink",
        urlencode(created.body["id"].as_str().unwrap())
    );
    let unlink = |account_type: &str, handle: &str| {
        v1(&t, Method::POST, &path, &t.app_id, &key)
            .json(json!({ "type": account_type, "handle": handle }))
    };
    let missing = unlink("github_oauth", "gh-other").send().await;
    missing.assert_error(404, "linked_account_not_found");
    let done = unlink("email", &email.to_uppercase()).send().await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
    let left: Vec<&str> = done.body["linked_accounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["type"].as_str().unwrap())
        .collect();
    assert_eq!(left, ["github_oauth"]);
    // The last way in stays.
    let last = unlink("github_oauth", "gh-9").send().await;
    last.assert_error(422, "cannot_unlink_sole_account");
    let nobody = v1(
        &t,
        Method::POST,
        "/v1/users/did:privy:nobody/accounts/unlink",
        &t.app_id,
        &key,
    )
    .json(json!({ "type": "email", "handle": email }))
    .send()
    .await;
    nobody.assert_error(404, "not_found");
}

async fn v1_a_delete_racing_a_login_leaves_no_live_session_and_no_server_error(backend: Backend) {
    let t = Arc::new(TestApp::start(backend).await);
    let key = secret(&t, &t.app_id).await;
    for round in 0..10 {
        let email = unique_email();
        let first = t.login(&email).await;
        let did = first["user"]["id"].as_str().unwrap().to_string();
        let code = t.send_code(&email).await;
        // The code's check and the delete at once, the delete sent a little later each round so
        // that some rounds land inside the login's writes.
        let login = {
            let t = Arc::clone(&t);
            let email = email.clone();
            tokio::spawn(async move {
                t.post(
                    "/api/v1/passwordless/authenticate",
                    json!({ "email": email, "code": code }),
                )
                .send()
                .await
            })
        };
        let delete = {
            let (t, key, did) = (Arc::clone(&t), key.clone(), did.clone());
            tokio::spawn(async move {
                tokio::time::sleep(std::time::Duration::from_millis(round % 5)).await;
                user_call(&t, Method::DELETE, &did, &t.app_id, &key).await
            })
        };
        let (login, delete) = (login.await.unwrap(), delete.await.unwrap());
        assert_eq!(delete.status, StatusCode::NO_CONTENT, "{}", delete.text);
        assert!(
            login.status.is_success() || login.status.is_client_error(),
            "round {round}: the login answered {} {}",
            login.status,
            login.text
        );
        let gone = user_call(&t, Method::GET, &did, &t.app_id, &key).await;
        if login.status.is_success() && login.body["user"]["id"] != did.as_str() {
            // The login came after the delete: a new user, signed in.
            let me = t
                .get("/api/v1/users/me")
                .bearer(login.body["token"].as_str().unwrap())
                .send()
                .await;
            assert_eq!(me.status, StatusCode::OK, "{}", me.text);
        } else if login.status.is_success() {
            // The login won the race for the old user: its session died with the user.
            let me = t
                .get("/api/v1/users/me")
                .bearer(login.body["token"].as_str().unwrap())
                .send()
                .await;
            assert_eq!(
                me.status,
                StatusCode::UNAUTHORIZED,
                "round {round}: {}",
                me.text
            );
        }
        gone.assert_error(404, "not_found");
    }
}

/// `method /v1/users/{user_id}` as `app_id`'s back end.
async fn user_call(
    t: &TestApp,
    method: Method,
    user_id: &str,
    app_id: &str,
    secret: &str,
) -> common::Reply {
    let path = format!("/v1/users/{}", urlencode(user_id));
    v1(t, method, &path, app_id, secret).send().await
}

/// `text` for a URL path or query.
fn urlencode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

async fn v1_imports_many_users_each_on_its_own(backend: Backend) {
    let t = TestApp::start(backend).await;
    let key = secret(&t, &t.app_id).await;
    let (first, second) = (unique_email(), unique_email());
    let import = |users: Value| {
        v1(&t, Method::POST, "/v1/users/import", &t.app_id, &key).json(json!({ "users": users }))
    };
    let done = import(json!([
        { "linked_accounts": [{ "type": "email", "address": first }] },
        { "custom_metadata": { "plan": "pro" } },
        { "linked_accounts": [{ "type": "email", "address": first.to_uppercase() }] },
        { "linked_accounts": [{ "type": "email", "address": second }], "custom_metadata": { "plan": "free" } },
    ]))
    .send()
    .await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
    let results = done.body["results"].as_array().unwrap();
    let outcome: Vec<(bool, Option<&str>)> = results
        .iter()
        .map(|r| (r["success"].as_bool().unwrap(), r["code"].as_str()))
        .collect();
    assert_eq!(
        outcome,
        [
            (true, None),
            (false, Some("invalid_data")),
            (false, Some("linked_to_another_user")),
            (true, None)
        ]
    );
    assert!(
        results
            .iter()
            .enumerate()
            .all(|(i, r)| r["index"] == i && r["action"] == "create")
    );
    assert!(
        results[1]["error"]
            .as_str()
            .unwrap()
            .contains("linked_accounts")
    );
    // Both created users exist as sent; the refused ones left nothing behind.
    for (index, email) in [(0, &first), (3, &second)] {
        let id = results[index]["id"].as_str().unwrap();
        let user = v1(&t, Method::GET, &format!("/v1/users/{id}"), &t.app_id, &key)
            .send()
            .await;
        assert_eq!(user.body["linked_accounts"][0]["address"], email.as_str());
    }
    let listed = v1(&t, Method::GET, "/v1/users", &t.app_id, &key)
        .send()
        .await;
    assert_eq!(listed.body["data"].as_array().unwrap().len(), 2);

    import(json!([]))
        .send()
        .await
        .assert_error(400, "invalid_data");
    let too_many: Vec<Value> = (0..101)
        .map(|i| json!({ "linked_accounts": [{ "type": "custom_auth", "custom_user_id": format!("u{i}") }] }))
        .collect();
    import(json!(too_many))
        .send()
        .await
        .assert_error(400, "invalid_data");
    let listed = v1(&t, Method::GET, "/v1/users", &t.app_id, &key)
        .send()
        .await;
    assert_eq!(
        listed.body["data"].as_array().unwrap().len(),
        2,
        "a refused batch creates nobody"
    );
}

async fn v1_search_finds_one_user_by_term_or_lists(backend: Backend) {
    let t = TestApp::start(backend).await;
    let key = secret(&t, &t.app_id).await;
    let email = format!("searchable-{}", unique_email());
    let phone = unique_phone();
    let create = |accounts: Value| {
        v1(&t, Method::POST, "/v1/users", &t.app_id, &key)
            .json(json!({ "linked_accounts": accounts }))
    };
    let ada = create(json!([{ "type": "email", "address": email }]))
        .send()
        .await
        .body;
    let bob = create(json!([{ "type": "phone", "number": phone }]))
        .send()
        .await
        .body;
    let search = |body: Value| v1(&t, Method::POST, "/v1/users/search", &t.app_id, &key).json(body);
    let found = |reply: common::Reply| {
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        reply.body["id"].as_str().unwrap().to_string()
    };
    let ada_id = ada["id"].as_str().unwrap();
    let bob_id = bob["id"].as_str().unwrap();
    assert_eq!(
        found(search(json!({ "searchTerm": ada_id })).send().await),
        ada_id
    );
    let bare = ada_id.strip_prefix("did:privy:").unwrap();
    assert_eq!(
        found(search(json!({ "searchTerm": bare })).send().await),
        ada_id
    );
    assert_eq!(
        found(
            search(json!({ "searchTerm": email.to_uppercase() }))
                .send()
                .await
        ),
        ada_id
    );
    assert_eq!(
        found(search(json!({ "searchTerm": "SEARCHABLE-" })).send().await),
        ada_id
    );
    // LIKE's wildcards are searched for literally.
    search(json!({ "searchTerm": "%" }))
        .send()
        .await
        .assert_error(404, "not_found");
    search(json!({ "searchTerm": "ada\u{0}" }))
        .send()
        .await
        .assert_error(400, "invalid_data");
    search(json!({ "searchTerm": "se" }))
        .send()
        .await
        .assert_error(404, "not_found");
    assert_eq!(
        found(
            search(json!({ "emails": ["nobody@example.com"], "phoneNumbers": [phone], "walletAddresses": [] }))
                .send()
                .await
        ),
        bob_id
    );
    search(json!({ "emails": [], "phoneNumbers": [], "walletAddresses": [] }))
        .send()
        .await
        .assert_error(400, "invalid_data");
    search(json!({ "emails": ["not an email"] }))
        .send()
        .await
        .assert_error(400, "invalid_data");
    // Another app's secret finds nothing of this app.
    let other = t.create_app(false).await;
    let other_key = secret(&t, &other).await;
    v1(&t, Method::POST, "/v1/users/search", &other, &other_key)
        .json(json!({ "searchTerm": email }))
        .send()
        .await
        .assert_error(404, "not_found");
}

async fn v1_app_settings_are_the_calling_apps_with_its_verification_key(backend: Backend) {
    let t = TestApp::start(backend).await;
    let key = secret(&t, &t.app_id).await;
    let path = format!("/v1/apps/{}", t.app_id);
    let settings = v1(&t, Method::GET, &path, &t.app_id, &key).send().await;
    assert_eq!(settings.status, StatusCode::OK, "{}", settings.text);
    assert_eq!(settings.body["id"], t.app_id.as_str());
    assert_eq!(settings.body["allowed_domains"], json!([common::ORIGIN]));
    let pem = settings.body["verification_key"].as_str().unwrap();
    assert!(pem.starts_with("-----BEGIN PUBLIC KEY-----"), "{pem}");
    // The key verifies the app's access tokens.
    let session = t.login(&unique_email()).await;
    let token = session["token"].as_str().unwrap();
    use p256::elliptic_curve::sec1::ToEncodedPoint;
    use p256::pkcs8::DecodePublicKey;
    let point = p256::PublicKey::from_public_key_pem(pem)
        .unwrap()
        .to_encoded_point(false);
    let b64 = |bytes: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    let decoding = jsonwebtoken::DecodingKey::from_ec_components(
        &b64(point.x().unwrap()),
        &b64(point.y().unwrap()),
    )
    .unwrap();
    let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::ES256);
    validation.set_audience(&[t.app_id.as_str()]);
    let claims = jsonwebtoken::decode::<Value>(token, &decoding, &validation).unwrap();
    assert_eq!(claims.claims["sub"], session["user"]["id"]);
    // The public client configuration shows the same key.
    let public = t.get(&format!("/api/v1/apps/{}", t.app_id)).send().await;
    assert_eq!(public.body["verification_key"], pem);

    let other = t.create_app(false).await;
    v1(
        &t,
        Method::GET,
        &format!("/v1/apps/{other}"),
        &t.app_id,
        &key,
    )
    .send()
    .await
    .assert_error(404, "not_found");
}
