//! The Rust SDK (`symbolon-sdk`) against a real server on a loopback port: token verification
//! with the served JWKS and the users API. On both databases.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{Backend, TestApp, unique_email};
use serde_json::{Map, Value, json};
use symbolon_sdk::protocol::ServerErrorCode;
use symbolon_sdk::protocol::server_api::{
    CreateUserRequest, LinkedAccountInput, UnlinkAccountRequest, WalletCreationInput,
};
use symbolon_sdk::protocol::user::LinkedAccount;
use symbolon_sdk::{Client, ClientOptions, Error, ErrorCode};
use symbolon_server::api_secrets::make_secret;

backend_tests!(
    sdk_verifies_real_tokens_and_refuses_tampered_expired_and_other_apps,
    sdk_manages_users_and_reports_typed_errors,
    sdk_imports_in_batches_reporting_each_user
);

#[tokio::test]
async fn sdk_import_waits_out_rate_limits_and_retries_under_one_key() {
    use std::sync::{Arc, Mutex};
    // A server that limits rate like the hosted product: two 429s, then the answer.
    let seen: Arc<Mutex<Vec<(String, std::time::Instant)>>> = Arc::default();
    let kept = Arc::clone(&seen);
    let route = axum::routing::post(move |headers: axum::http::HeaderMap| {
        let kept = Arc::clone(&kept);
        async move {
            let key = headers
                .get("privy-idempotency-key")
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_string();
            let mut seen = kept.lock().unwrap();
            seen.push((key, std::time::Instant::now()));
            if seen.len() <= 2 {
                return (
                    axum::http::StatusCode::TOO_MANY_REQUESTS,
                    [("retry-after", "1")],
                    axum::Json(
                        json!({ "error": "Too many requests", "code": "too_many_requests" }),
                    ),
                );
            }
            (
                axum::http::StatusCode::OK,
                [("retry-after", "0")],
                axum::Json(json!({ "results": [
                    { "action": "create", "index": 0, "success": true, "id": "did:privy:imported" }
                ]})),
            )
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        axum::serve(
            listener,
            axum::Router::new().route("/v1/users/import", route),
        )
        .await
        .unwrap();
    });
    let sdk = Client::new(ClientOptions::new(&url, "app", "secret")).unwrap();
    let user = CreateUserRequest {
        linked_accounts: vec![LinkedAccountInput::Email {
            address: unique_email(),
        }],
        custom_metadata: None,
        wallets: None,
    };
    let results = sdk.users().import(&[user], "move-1").await.unwrap();
    assert_eq!(results[0].id.as_deref(), Some("did:privy:imported"));
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 3, "two refusals, then the batch");
    assert!(seen.iter().all(|(key, _)| key == "move-1-0"), "{seen:?}");
    assert!(
        seen[2].1 - seen[0].1 >= std::time::Duration::from_secs(2),
        "Retry-After honoured"
    );
}

/// Serves `t`'s router on a loopback port for the life of the test; the base URL.
async fn serve(t: &TestApp) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (router, http) = (
        symbolon_server::app(t.state.clone()),
        t.state.config.http.clone(),
    );
    tokio::spawn(async move {
        symbolon_server::serve::serve(listener, router, &http, std::future::pending()).await;
    });
    url
}

/// A new live secret of `app_id`.
async fn secret(t: &TestApp, app_id: &str) -> String {
    let made = make_secret(app_id, t.state.clock.now()).unwrap();
    t.state.db.insert_api_secret(&made.record).await.unwrap();
    made.secret.to_string()
}

/// An SDK client of `app_id` with `secret` at `url`, expecting the server's issuer.
fn client(t: &TestApp, url: &str, app_id: &str, secret: &str) -> Client {
    let mut options = ClientOptions::new(url, app_id, secret);
    options.issuer = t.state.config.token_issuer.clone();
    Client::new(options).unwrap()
}

/// A server, its URL and a client of its default app.
async fn setup(backend: Backend) -> (TestApp, String, Client) {
    let t = TestApp::start(backend).await;
    let url = serve(&t).await;
    let key = secret(&t, &t.app_id).await;
    let sdk = client(&t, &url, &t.app_id, &key);
    (t, url, sdk)
}

fn assert_api_error(result: Result<impl std::fmt::Debug, Error>, status: u16, code: &str) {
    match result {
        Err(Error::Api {
            status: s, code: c, ..
        }) => {
            assert_eq!((s, c.as_str()), (status, code));
        }
        other => panic!("expected {status} {code}, got {other:?}"),
    }
}

fn metadata(value: Value) -> Map<String, Value> {
    value.as_object().unwrap().clone()
}

async fn sdk_verifies_real_tokens_and_refuses_tampered_expired_and_other_apps(backend: Backend) {
    let (t, url, sdk) = setup(backend).await;
    let session = t.login(&unique_email()).await;
    let user_id = session["user"]["id"].as_str().unwrap();
    let token = session["token"].as_str().unwrap();

    let access = sdk.verify_access_token(token).await.unwrap();
    assert_eq!(access.user_id, user_id);
    assert_eq!(access.app_id, t.app_id);
    assert!(!access.session_id.is_empty());
    assert!(access.expires_at > access.issued_at);

    // A changed claim breaks the signature.
    let mut parts: Vec<String> = token.split('.').map(str::to_string).collect();
    parts[1].insert(0, 'e');
    let tampered = parts.join(".");
    assert!(matches!(
        sdk.verify_access_token(&tampered).await,
        Err(Error::InvalidToken(_))
    ));

    // Expired (beyond the leeway), and another app's token: refused.
    let now = t.state.clock.now();
    let expired = t
        .state
        .tokens
        .access_token(&t.app_id, user_id, "sid", now - 7200)
        .unwrap();
    assert!(matches!(
        sdk.verify_access_token(&expired).await,
        Err(Error::InvalidToken(_))
    ));
    let other_app = t.create_app(false).await;
    let others = t
        .state
        .tokens
        .access_token(&other_app, user_id, "sid", now)
        .unwrap();
    assert!(matches!(
        sdk.verify_access_token(&others).await,
        Err(Error::InvalidToken(_))
    ));
    // The other app's client accepts it.
    let other_sdk = client(&t, &url, &other_app, "unused");
    assert_eq!(
        other_sdk
            .verify_access_token(&others)
            .await
            .unwrap()
            .user_id,
        user_id
    );

    // The identity token's user, with metadata once set.
    sdk.users()
        .set_custom_metadata(user_id, metadata(json!({"plan": "pro"})))
        .await
        .unwrap();
    let session = t
        .login(
            session["user"]["linked_accounts"][0]["address"]
                .as_str()
                .unwrap(),
        )
        .await;
    let identity = sdk
        .verify_identity_token(session["identity_token"].as_str().unwrap())
        .await
        .unwrap();
    assert_eq!(identity.id, user_id);
    assert!(!identity.is_guest);
    assert!(identity.created_at > 0);
    assert_eq!(identity.linked_accounts.len(), 1);
    assert_eq!(
        identity.custom_metadata,
        Some(metadata(json!({"plan": "pro"})))
    );
}

async fn sdk_manages_users_and_reports_typed_errors(backend: Backend) {
    let (t, url, sdk) = setup(backend).await;
    let users = sdk.users();
    let logged_in = t.login(&unique_email()).await["user"]["id"]
        .as_str()
        .unwrap()
        .to_string();

    // Create with an idempotency key: the replay answers the same user.
    let (email, custom_id) = (unique_email(), format!("host-{}", t.app_id));
    let request = CreateUserRequest {
        wallets: None,
        linked_accounts: vec![
            LinkedAccountInput::Email {
                address: email.clone(),
            },
            LinkedAccountInput::CustomAuth {
                custom_user_id: custom_id.clone(),
            },
        ],
        custom_metadata: None,
    };
    let created = users.create(&request, Some("create-1")).await.unwrap();
    let replayed = users.create(&request, Some("create-1")).await.unwrap();
    assert_eq!(created.id, replayed.id);

    // Get, lookups, list-all (pages of one).
    assert_eq!(users.get(&created.id).await.unwrap().id, created.id);
    assert_eq!(
        users.by_email(&email.to_uppercase()).await.unwrap().id,
        created.id
    );
    assert_eq!(
        users.by_custom_auth_id(&custom_id).await.unwrap().id,
        created.id
    );
    let mut all: Vec<String> = users
        .list_all(Some(1))
        .await
        .unwrap()
        .into_iter()
        .map(|u| u.id)
        .collect();
    all.sort();
    let mut expected = vec![created.id.clone(), logged_in];
    expected.sort();
    assert_eq!(all, expected);

    // Metadata is replaced; unlink the custom-auth account.
    let updated = users
        .set_custom_metadata(&created.id, metadata(json!({"tier": 2, "beta": true})))
        .await
        .unwrap();
    assert_eq!(
        updated.custom_metadata,
        Some(metadata(json!({"tier": 2, "beta": true})))
    );
    let unlink = UnlinkAccountRequest {
        account_type: "custom_auth".into(),
        handle: custom_id.clone(),
        provider: None,
    };
    assert_eq!(
        users
            .unlink(&created.id, &unlink)
            .await
            .unwrap()
            .linked_accounts
            .len(),
        1
    );
    assert!(
        users
            .by_custom_auth_id(&custom_id)
            .await
            .unwrap_err()
            .is_not_found()
    );
    assert_api_error(
        users.unlink(&created.id, &unlink).await,
        404,
        "linked_account_not_found",
    );

    // Pregenerated wallets: one Ethereum wallet, then refused for the user who has it.
    let ethereum = || WalletCreationInput {
        chain_type: "ethereum".into(),
        create_smart_wallet: None,
        additional_signers: None,
        policy_ids: None,
        external_id: None,
    };
    let with_wallet = users
        .pregenerate_wallets(&created.id, vec![ethereum()], Some("wallets-1"))
        .await
        .unwrap();
    let wallet = with_wallet
        .linked_accounts
        .iter()
        .find_map(|a| match a {
            LinkedAccount::Wallet(w) => Some(w.address.clone()),
            _ => None,
        })
        .expect("a wallet");
    assert_eq!(users.by_wallet(&wallet).await.unwrap().id, created.id);
    assert_api_error(
        users
            .pregenerate_wallets(&created.id, vec![ethereum()], None)
            .await,
        400,
        "resource_already_exists",
    );

    // Delete, then not found.
    users.delete(&created.id).await.unwrap();
    let gone = users.get(&created.id).await.unwrap_err();
    assert!(gone.is_not_found());
    assert_eq!(
        gone.code(),
        Some(&ErrorCode::Known(ServerErrorCode::NotFound))
    );

    // A wrong secret: 401 invalid_credentials, not retried.
    let wrong = client(&t, &url, &t.app_id, "sk_nosuchsecret_x");
    assert_api_error(
        wrong.users().list(None, None).await,
        401,
        "invalid_credentials",
    );
}

async fn sdk_imports_in_batches_reporting_each_user(backend: Backend) {
    let (_t, _url, sdk) = setup(backend).await;
    let email = |i: usize| format!("import-{i}-{}", unique_email());
    let mut users: Vec<CreateUserRequest> = (0..150)
        .map(|i| CreateUserRequest {
            linked_accounts: vec![LinkedAccountInput::Email { address: email(i) }],
            custom_metadata: None,
            wallets: None,
        })
        .collect();
    // Position 120 names the address of position 3: it fails alone, in the second batch.
    let taken = match &users[3].linked_accounts[0] {
        LinkedAccountInput::Email { address } => address.clone(),
        _ => unreachable!(),
    };
    users[120].linked_accounts = vec![LinkedAccountInput::Email { address: taken }];
    let results = sdk.users().import(&users, "batch-test").await.unwrap();
    assert_eq!(results.len(), 150);
    assert!(results.iter().enumerate().all(|(i, r)| r.index == i));
    let failed: Vec<usize> = results
        .iter()
        .filter(|r| !r.success)
        .map(|r| r.index)
        .collect();
    assert_eq!(failed, [120]);
    assert_eq!(results[120].code.as_deref(), Some("linked_to_another_user"));
    assert_eq!(sdk.users().list_all(Some(100)).await.unwrap().len(), 149);
    // The same key again replays the answers: nobody is created twice.
    let again = sdk.users().import(&users, "batch-test").await.unwrap();
    assert_eq!(again, results);
    assert_eq!(sdk.users().list_all(Some(100)).await.unwrap().len(), 149);
}
