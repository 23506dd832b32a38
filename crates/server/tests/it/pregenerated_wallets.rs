//! Wallets a host's back end pregenerates (`wallets` of `POST /v1/users`, `POST
//! /v1/users/{user_id}/wallets`): made before the user's first sign-in, owned by them from it
//! (their frame recovers the wallet with a fresh sign-in), never made twice, and refused whole
//! for what this server does not make yet. On both databases.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::embedded_wallets::{device_key, recover, share, unlock, wallets};
use crate::server_api::{at_once, secret, v1};

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use common::{Backend, TestApp, unique_email};
use serde_json::{Value, json};
use symbolon_wallet_core::chains::ethereum::derive_wallet_key;
use symbolon_wallet_core::combine_shares;

backend_tests!(
    a_pregenerated_wallet_is_the_users_from_their_first_sign_in,
    pregenerating_is_refused_whole_for_what_is_not_served,
    a_user_gets_pregenerated_wallets_once_even_concurrently,
);

/// `POST /v1/users` for a new email with `wallets`.
async fn create_with_wallets(t: &TestApp, key: &str, email: &str, wallets: Value) -> common::Reply {
    v1(t, Method::POST, "/v1/users", &t.app_id, key)
        .json(json!({
            "linked_accounts": [{ "type": "email", "address": email }],
            "wallets": wallets,
        }))
        .send()
        .await
}

async fn a_pregenerated_wallet_is_the_users_from_their_first_sign_in(backend: Backend) {
    let t = TestApp::start(backend).await;
    let key = secret(&t, &t.app_id).await;
    let email = unique_email();
    let created = create_with_wallets(
        &t,
        &key,
        &email,
        json!([{ "chain_type": "ethereum" }, { "chain_type": "ethereum" }]),
    )
    .await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.text);
    let made = wallets(&created.body);
    assert_eq!(made.len(), 2, "{}", created.text);
    for (index, wallet) in made.iter().enumerate() {
        assert_eq!(wallet["wallet_index"], index);
        assert_eq!(wallet["chain_type"], "ethereum");
        assert_eq!(wallet["wallet_client_type"], "privy");
        assert_eq!(wallet["recovery_method"], "privy");
    }
    let root = made[0]["address"].as_str().unwrap().to_string();
    // The host can find the user by the address before they ever signed in.
    let found = v1(
        &t,
        Method::POST,
        "/v1/users/wallet/address",
        &t.app_id,
        &key,
    )
    .json(json!({ "address": root.to_lowercase() }))
    .send()
    .await;
    assert_eq!(found.body["id"], created.body["id"], "{}", found.text);

    // First sign-in: the same user and wallets; no device of theirs holds a share yet, so the
    // device unlock is refused and the fresh session recovers instead.
    let session = t.login(&email).await;
    assert_eq!(session["user"]["id"], created.body["id"]);
    assert_eq!(wallets(&session["user"]), made);
    let token = session["token"].as_str().unwrap();
    let unlocked = unlock(&t, token, &device_key(), &root).await;
    unlocked.assert_error(403, "invalid_credentials");
    let recovered = recover(&t, token, &root).await;
    assert_eq!(recovered.status, StatusCode::OK, "{}", recovered.text);
    let entropy = combine_shares(&[
        share(&recovered.body["auth_share"]),
        share(&recovered.body["recovery_share"]),
    ])
    .unwrap();
    for wallet in &made {
        let index = wallet["wallet_index"].as_u64().unwrap() as u32;
        let derived = derive_wallet_key(&entropy, index).unwrap().address();
        assert_eq!(
            derived.to_checksum(),
            wallet["address"].as_str().unwrap(),
            "the shares rebuild wallet {index}"
        );
    }
}

async fn pregenerating_is_refused_whole_for_what_is_not_served(backend: Backend) {
    let t = TestApp::start(backend).await;
    let key = secret(&t, &t.app_id).await;
    let refused = [
        (
            json!([{ "chain_type": "solana" }]),
            "Solana embedded wallets are not supported yet; pregenerate ethereum wallets",
        ),
        (
            json!([{ "chain_type": "bitcoin-segwit" }]),
            "chain_type \"bitcoin-segwit\" is not supported; pregenerate ethereum wallets",
        ),
        (
            json!([{ "chain_type": "ethereum", "create_smart_wallet": true }]),
            "create_smart_wallet is not supported yet",
        ),
        (
            json!([{ "chain_type": "ethereum", "policy_ids": ["p1"] }]),
            "additional_signers and policy_ids are not supported yet",
        ),
        (
            json!([{ "chain_type": "ethereum", "external_id": "w-1" }]),
            "external_id is not supported yet",
        ),
        (
            json!(vec![json!({ "chain_type": "ethereum" }); 6]),
            "At most 5 ethereum wallets may be pregenerated",
        ),
    ];
    for (wallets, message) in refused {
        let email = unique_email();
        let reply = create_with_wallets(&t, &key, &email, wallets.clone()).await;
        reply.assert_error(400, "invalid_data");
        assert_eq!(reply.body["error"], message, "{wallets}");
        // Nothing was written: no user has the email.
        let nobody = v1(&t, Method::POST, "/v1/users/email/address", &t.app_id, &key)
            .json(json!({ "address": email }))
            .send()
            .await;
        nobody.assert_error(404, "not_found");
    }

    // The pregenerate route: an empty list, a user the app does not have.
    let user = create_with_wallets(&t, &key, &unique_email(), json!([])).await;
    assert_eq!(user.status, StatusCode::OK, "{}", user.text);
    assert!(wallets(&user.body).is_empty(), "an empty list makes none");
    let id = user.body["id"].as_str().unwrap();
    let path = format!("/v1/users/{id}/wallets");
    let empty = v1(&t, Method::POST, &path, &t.app_id, &key)
        .json(json!({ "wallets": [] }))
        .send()
        .await;
    empty.assert_error(400, "invalid_data");
    assert_eq!(empty.body["error"], "wallets must hold at least one wallet");
    let other_app = t.create_app(false).await;
    let other_key = secret(&t, &other_app).await;
    let not_theirs = v1(&t, Method::POST, &path, &other_app, &other_key)
        .json(json!({ "wallets": [{ "chain_type": "ethereum" }] }))
        .send()
        .await;
    not_theirs.assert_error(404, "not_found");
}

async fn a_user_gets_pregenerated_wallets_once_even_concurrently(backend: Backend) {
    let t = Arc::new(TestApp::start(backend).await);
    let key = secret(&t, &t.app_id).await;
    let user = create_with_wallets(&t, &key, &unique_email(), json!([])).await;
    let id = user.body["id"].as_str().unwrap().to_string();
    let path = format!("/v1/users/{id}/wallets");
    let replies = {
        let (key, path) = (key.clone(), path.clone());
        at_once(&t, 6, move |t, _| {
            v1(t, Method::POST, &path, &t.app_id, &key)
                .json(json!({ "wallets": [{ "chain_type": "ethereum" }] }))
        })
        .await
    };
    let made: Vec<_> = replies
        .iter()
        .filter(|r| r.status == StatusCode::OK)
        .collect();
    assert_eq!(made.len(), 1, "one call makes the wallet");
    for reply in replies.iter().filter(|r| r.status != StatusCode::OK) {
        reply.assert_error(400, "resource_already_exists");
    }
    let now = v1(&t, Method::GET, &format!("/v1/users/{id}"), &t.app_id, &key)
        .send()
        .await;
    assert_eq!(
        wallets(&now.body),
        wallets(&made[0].body),
        "one wallet, the one answered"
    );
    // Later: still refused, with the reason.
    let again = v1(&t, Method::POST, &path, &t.app_id, &key)
        .json(json!({ "wallets": [{ "chain_type": "ethereum" }] }))
        .send()
        .await;
    again.assert_error(400, "resource_already_exists");
    assert_eq!(
        again.body["error"],
        "This user has an Ethereum embedded wallet already; more are added from their device"
    );
}
