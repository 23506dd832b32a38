//! The policies API (`/v1/policies`, docs/policies.md): create, read, change and delete an app's
//! policies and their rules with the app secret; refusals name what is wrong; concurrent rule edits
//! lose nothing; an owned policy and a key quorum change only with their owners' authorization
//! signatures. On both databases.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::server_api::{at_once, secret, v1};

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use common::{Backend, PUBLIC_URL, TestApp};
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use p256::pkcs8::EncodePublicKey;
use serde_json::{Value, json};

backend_tests!(
    policies_are_created_read_changed_and_deleted_per_app,
    policy_refusals_name_what_is_wrong_and_store_nothing,
    concurrent_rule_changes_lose_nothing,
    an_owned_policy_changes_only_with_its_owners_signatures,
    key_quorums_need_their_threshold_of_signatures_and_outlive_nothing_they_own,
    aggregations_are_created_read_and_deleted_per_app_and_outlive_no_policy,
    aggregation_and_reference_refusals_name_what_is_wrong_and_store_nothing,
    calldata_conditions_need_an_abi_whose_function_has_the_field,
);

const SHOP: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

fn allow_shop() -> Value {
    json!({
        "name": "pay the shop", "method": "eth_sendTransaction", "action": "ALLOW",
        "conditions": [{ "field_source": "ethereum_transaction", "field": "to", "operator": "eq", "value": SHOP }],
    })
}

fn cap(n: u32) -> Value {
    json!({
        "name": format!("cap {n}"), "method": "*", "action": "DENY",
        "conditions": [{ "field_source": "ethereum_transaction", "field": "value", "operator": "gt", "value": n.to_string() }],
    })
}

async fn call(
    t: &TestApp,
    method: Method,
    path: &str,
    key: &str,
    body: Option<Value>,
) -> common::Reply {
    let call = v1(t, method, path, &t.app_id, key);
    match body {
        Some(body) => call.json(body),
        None => call,
    }
    .send()
    .await
}

async fn create(t: &TestApp, key: &str, rules: Value) -> common::Reply {
    let body =
        json!({ "version": "1.0", "name": "Shop", "chain_type": "ethereum", "rules": rules });
    call(t, Method::POST, "/v1/policies", key, Some(body)).await
}

async fn policies_are_created_read_changed_and_deleted_per_app(backend: Backend) {
    let t = TestApp::start(backend).await;
    let key = secret(&t, &t.app_id).await;
    let before = t.state.clock.now() * 1000;
    let created = create(&t, &key, json!([allow_shop()])).await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.text);
    let policy = created.body.clone();
    assert_eq!(policy["version"], "1.0");
    assert_eq!(policy["owner_id"], Value::Null);
    assert!(
        policy["created_at"].as_i64().unwrap() >= before,
        "milliseconds"
    );
    assert_eq!(policy["id"].as_str().unwrap().len(), 24);
    let rule = &policy["rules"][0];
    assert_eq!(rule["name"], "pay the shop");
    assert_eq!(rule["conditions"][0]["value"], SHOP);
    let path = format!("/v1/policies/{}", policy["id"].as_str().unwrap());
    let read = call(&t, Method::GET, &path, &key, None).await;
    assert_eq!(read.body, policy);

    // Another app's back end sees nothing of it.
    let other = t.create_app(false).await;
    let other_key = secret(&t, &other).await;
    let hidden = v1(&t, Method::GET, &path, &other, &other_key).send().await;
    hidden.assert_error(404, "not_found");

    // Rules: add, read, replace (same id and place), remove.
    let rules = format!("{path}/rules");
    let added = call(&t, Method::POST, &rules, &key, Some(cap(10))).await;
    assert_eq!(added.status, StatusCode::OK, "{}", added.text);
    let rule_path = format!("{rules}/{}", added.body["id"].as_str().unwrap());
    assert_eq!(
        call(&t, Method::GET, &rule_path, &key, None).await.body,
        added.body
    );
    let replaced = call(&t, Method::PATCH, &rule_path, &key, Some(cap(20))).await;
    assert_eq!(replaced.body["id"], added.body["id"]);
    assert_eq!(replaced.body["name"], "cap 20");
    let now = call(&t, Method::GET, &path, &key, None).await.body;
    let names: Vec<&str> = now["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["pay the shop", "cap 20"]);
    let removed = call(&t, Method::DELETE, &rule_path, &key, None).await;
    assert_eq!(removed.body, json!({ "success": true }));
    call(&t, Method::GET, &rule_path, &key, None)
        .await
        .assert_error(404, "not_found");
    call(&t, Method::DELETE, &rule_path, &key, None)
        .await
        .assert_error(404, "not_found");

    // Rename, replace all rules.
    let renamed = call(
        &t,
        Method::PATCH,
        &path,
        &key,
        Some(json!({ "name": "Shop 2", "rules": [cap(5), cap(6)] })),
    )
    .await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.text);
    assert_eq!(renamed.body["name"], "Shop 2");
    assert_eq!(renamed.body["rules"].as_array().unwrap().len(), 2);
    assert_eq!(renamed.body["created_at"], policy["created_at"]);

    // Delete.
    assert_eq!(
        call(&t, Method::DELETE, &path, &key, None).await.body,
        json!({ "success": true })
    );
    call(&t, Method::GET, &path, &key, None)
        .await
        .assert_error(404, "not_found");
    call(&t, Method::DELETE, &path, &key, None)
        .await
        .assert_error(404, "not_found");
}

async fn policy_refusals_name_what_is_wrong_and_store_nothing(backend: Backend) {
    let t = TestApp::start(backend).await;
    let key = secret(&t, &t.app_id).await;
    let base = json!({ "version": "1.0", "name": "Shop", "chain_type": "ethereum", "rules": [allow_shop()] });
    let with = |field: &str, value: Value| {
        let mut body = base.clone();
        body[field] = value;
        body
    };
    for (body, message) in [
        (with("version", json!("2.0")), "version must be 1.0"),
        (
            with("chain_type", json!("solana")),
            "Policies for \"solana\" wallets are not supported yet; chain_type must be ethereum",
        ),
        (
            with("owner", json!({ "public_key": "abc" })),
            "owner.public_key is not a P-256 public key (base64 DER SPKI)",
        ),
        (
            with("owner", json!({ "user_id": "did:privy:x" })),
            "Users as owners are not supported yet: give owner.public_key",
        ),
        (
            with("owner_id", json!("nope")),
            "owner_id \"nope\" is not a key quorum of this app",
        ),
        (
            with(
                "rules",
                json!([{ "name": "r", "method": "eth_sendTransaction", "action": "ALLOW", "conditions": [
            { "field_source": "ethereum_transaction", "field": "value", "operator": "gt", "value": "ten" }]}]),
            ),
            "Rule \"r\": \"ten\" is not a number (decimal or 0x hex)",
        ),
    ] {
        let reply = call(&t, Method::POST, "/v1/policies", &key, Some(body)).await;
        reply.assert_error(400, "invalid_data");
        assert_eq!(reply.body["error"], message);
    }
    // Not a policy at all, and a wrong secret.
    call(
        &t,
        Method::POST,
        "/v1/policies",
        &key,
        Some(json!({ "name": 1 })),
    )
    .await
    .assert_error(400, "invalid_data");
    v1(&t, Method::POST, "/v1/policies", &t.app_id, "sk_wrong")
        .json(base.clone())
        .send()
        .await
        .assert_error(401, "invalid_credentials");
    let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM policies")
        .fetch_one(t.state.db.pool())
        .await
        .unwrap();
    assert_eq!(count, 0, "nothing stored");

    // A refused change leaves the policy as it was.
    let policy = create(&t, &key, json!([allow_shop()])).await.body;
    let path = format!("/v1/policies/{}", policy["id"].as_str().unwrap());
    let bad_rule = json!({ "name": "r", "method": "personal_sign", "action": "ALLOW", "conditions": [
        { "field_source": "ethereum_transaction", "field": "to", "operator": "eq", "value": SHOP }] });
    let refused = call(
        &t,
        Method::PATCH,
        &path,
        &key,
        Some(json!({ "name": "New", "rules": [bad_rule] })),
    )
    .await;
    refused.assert_error(400, "invalid_data");
    assert_eq!(
        refused.body["error"],
        "Rule \"r\": ethereum_transaction conditions do not apply to personal_sign"
    );
    assert_eq!(call(&t, Method::GET, &path, &key, None).await.body, policy);
}

async fn concurrent_rule_changes_lose_nothing(backend: Backend) {
    let t = Arc::new(TestApp::start(backend).await);
    let key = secret(&t, &t.app_id).await;
    let policy = create(&t, &key, json!([])).await.body;
    let rules = format!("/v1/policies/{}/rules", policy["id"].as_str().unwrap());
    let replies = {
        let (key, rules) = (key.clone(), rules.clone());
        at_once(&t, 8, move |t, i| {
            v1(t, Method::POST, &rules, &t.app_id, &key).json(cap(i as u32))
        })
        .await
    };
    for reply in &replies {
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    }
    let path = format!("/v1/policies/{}", policy["id"].as_str().unwrap());
    let now = call(&t, Method::GET, &path, &key, None).await.body;
    let mut names: Vec<String> = now["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap().to_string())
        .collect();
    names.sort();
    let mut expected: Vec<String> = (0..8).map(|i| format!("cap {i}")).collect();
    expected.sort();
    assert_eq!(names, expected, "every concurrent add kept");
}

/// A P-256 key as a host's back end holds it.
pub(crate) fn key() -> SigningKey {
    SigningKey::random(&mut p256::elliptic_curve::rand_core::OsRng)
}

/// Its public half as the API takes it (base64 DER SPKI).
pub(crate) fn public(key: &SigningKey) -> String {
    let der = key.verifying_key().to_public_key_der().unwrap();
    STANDARD.encode(der.as_bytes())
}

/// The authorization signature of `signer` over a request, as `@privy-io/node` makes it.
pub(crate) fn sign(
    signer: &SigningKey,
    method: &str,
    path: &str,
    body: &Value,
    app_id: &str,
    expiry: Option<&str>,
) -> String {
    let mut headers = serde_json::Map::new();
    headers.insert("privy-app-id".into(), json!(app_id));
    if let Some(expiry) = expiry {
        headers.insert("privy-request-expiry".into(), json!(expiry));
    }
    let body = if body.as_object().is_some_and(serde_json::Map::is_empty) {
        json!("")
    } else {
        body.clone()
    };
    let payload = json!({ "version": 1, "method": method, "url": format!("{PUBLIC_URL}{path}"), "body": body, "headers": headers });
    let bytes = serde_json_canonicalizer::to_vec(&payload).unwrap();
    let signature: Signature = signer.sign(&bytes);
    STANDARD.encode(signature.to_der().as_bytes())
}

/// A `/v1` call with `signatures` (none: no header) and an optional expiry.
async fn signed_call(
    t: &TestApp,
    method: Method,
    path: &str,
    key: &str,
    body: Value,
    signatures: &[String],
    expiry: Option<&str>,
) -> common::Reply {
    let mut call = v1(t, method, path, &t.app_id, key).json(body);
    if !signatures.is_empty() {
        call = call.header("privy-authorization-signature", &signatures.join(","));
    }
    if let Some(expiry) = expiry {
        call = call.header("privy-request-expiry", expiry);
    }
    call.send().await
}

async fn an_owned_policy_changes_only_with_its_owners_signatures(backend: Backend) {
    let t = TestApp::start(backend).await;
    let secret_key = secret(&t, &t.app_id).await;
    let (owner, stranger) = (key(), key());
    let body = json!({ "version": "1.0", "name": "Owned", "chain_type": "ethereum", "rules": [allow_shop()],
                       "owner": { "public_key": public(&owner) } });
    let created = call(&t, Method::POST, "/v1/policies", &secret_key, Some(body)).await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.text);
    let quorum_id = created.body["owner_id"].as_str().unwrap().to_string();
    let quorum = call(
        &t,
        Method::GET,
        &format!("/v1/key_quorums/{quorum_id}"),
        &secret_key,
        None,
    )
    .await;
    assert_eq!(
        quorum.body["authorization_keys"][0]["public_key"],
        public(&owner)
    );
    assert_eq!(quorum.body["authorization_threshold"], 1);
    let path = format!("/v1/policies/{}", created.body["id"].as_str().unwrap());

    let rename = json!({ "name": "Renamed" });
    let expiry = (t.state.clock.now() * 1000 + 60_000).to_string();
    let by = |signer: &SigningKey, body: &Value, expiry: Option<&str>| {
        sign(signer, "PATCH", &path, body, &t.app_id, expiry)
    };
    // The app secret alone, a stranger's key, a signature over another body: refused, nothing changed.
    let unsigned = signed_call(
        &t,
        Method::PATCH,
        &path,
        &secret_key,
        rename.clone(),
        &[],
        None,
    )
    .await;
    unsigned.assert_error(401, "invalid_credentials");
    let stranger_signed = signed_call(
        &t,
        Method::PATCH,
        &path,
        &secret_key,
        rename.clone(),
        &[by(&stranger, &rename, None)],
        None,
    )
    .await;
    stranger_signed.assert_error(401, "invalid_credentials");
    let other_body = signed_call(
        &t,
        Method::PATCH,
        &path,
        &secret_key,
        json!({ "name": "Evil" }),
        &[by(&owner, &rename, None)],
        None,
    )
    .await;
    other_body.assert_error(401, "invalid_credentials");
    // A signature for another policy's URL does not move here.
    let elsewhere = sign(
        &owner,
        "PATCH",
        "/v1/policies/other",
        &rename,
        &t.app_id,
        None,
    );
    signed_call(
        &t,
        Method::PATCH,
        &path,
        &secret_key,
        rename.clone(),
        &[elsewhere],
        None,
    )
    .await
    .assert_error(401, "invalid_credentials");
    // A past deadline is refused even when signed.
    let past = (t.state.clock.now() * 1000 - 1).to_string();
    let late = signed_call(
        &t,
        Method::PATCH,
        &path,
        &secret_key,
        rename.clone(),
        &[by(&owner, &rename, Some(&past))],
        Some(&past),
    )
    .await;
    late.assert_error(400, "invalid_data");
    assert_eq!(
        call(&t, Method::GET, &path, &secret_key, None).await.body["name"],
        "Owned"
    );

    // The owner's signature (with a stranger's beside it): changed.
    let signed = signed_call(
        &t,
        Method::PATCH,
        &path,
        &secret_key,
        rename.clone(),
        &[
            by(&stranger, &rename, Some(&expiry)),
            by(&owner, &rename, Some(&expiry)),
        ],
        Some(&expiry),
    )
    .await;
    assert_eq!(signed.status, StatusCode::OK, "{}", signed.text);
    assert_eq!(signed.body["name"], "Renamed");

    // Rules and delete need it too; the owner removed (owner: null, signed), the secret suffices again.
    let rules = format!("{path}/rules");
    signed_call(&t, Method::POST, &rules, &secret_key, cap(1), &[], None)
        .await
        .assert_error(401, "invalid_credentials");
    let added = signed_call(
        &t,
        Method::POST,
        &rules,
        &secret_key,
        cap(1),
        &[sign(&owner, "POST", &rules, &cap(1), &t.app_id, None)],
        None,
    )
    .await;
    assert_eq!(added.status, StatusCode::OK, "{}", added.text);
    signed_call(&t, Method::DELETE, &path, &secret_key, json!({}), &[], None)
        .await
        .assert_error(401, "invalid_credentials");
    let disown = json!({ "owner": null });
    let disowned = signed_call(
        &t,
        Method::PATCH,
        &path,
        &secret_key,
        disown.clone(),
        &[by(&owner, &disown, None)],
        None,
    )
    .await;
    assert_eq!(disowned.status, StatusCode::OK, "{}", disowned.text);
    assert_eq!(disowned.body["owner_id"], Value::Null);
    let deleted = signed_call(&t, Method::DELETE, &path, &secret_key, json!({}), &[], None).await;
    assert_eq!(deleted.body, json!({ "success": true }), "{}", deleted.text);
}

async fn key_quorums_need_their_threshold_of_signatures_and_outlive_nothing_they_own(
    backend: Backend,
) {
    let t = TestApp::start(backend).await;
    let secret_key = secret(&t, &t.app_id).await;
    let (a, b, c) = (key(), key(), key());
    for (body, message) in [
        (
            json!({ "public_keys": [] }),
            "public_keys must hold 1 to 10 keys",
        ),
        (
            json!({ "public_keys": ["abc"] }),
            "public_keys[0] is not a P-256 public key (base64 DER SPKI)",
        ),
        (
            json!({ "public_keys": [public(&a), public(&a)] }),
            "public_keys[1] is given twice",
        ),
        (
            json!({ "public_keys": [public(&a)], "authorization_threshold": 2 }),
            "authorization_threshold must be 1 to the number of keys (1)",
        ),
        (
            json!({ "public_keys": [public(&a)], "user_ids": ["did:privy:x"] }),
            "user_ids and key_quorum_ids are not supported yet: give public_keys",
        ),
    ] {
        let refused = call(&t, Method::POST, "/v1/key_quorums", &secret_key, Some(body)).await;
        refused.assert_error(400, "invalid_data");
        assert_eq!(refused.body["error"], message);
    }
    let quorum = call(&t, Method::POST, "/v1/key_quorums", &secret_key,
        Some(json!({ "public_keys": [public(&a), public(&b)], "authorization_threshold": 2, "display_name": "Ops" }))).await;
    assert_eq!(quorum.status, StatusCode::OK, "{}", quorum.text);
    let id = quorum.body["id"].as_str().unwrap().to_string();
    let path = format!("/v1/key_quorums/{id}");
    let add_c = json!({ "public_keys": [public(&a), public(&b), public(&c)] });
    let sig =
        |k: &SigningKey, method: &str, body: &Value| sign(k, method, &path, body, &t.app_id, None);
    signed_call(
        &t,
        Method::PATCH,
        &path,
        &secret_key,
        add_c.clone(),
        &[sig(&a, "PATCH", &add_c)],
        None,
    )
    .await
    .assert_error(401, "invalid_credentials");
    let changed = signed_call(
        &t,
        Method::PATCH,
        &path,
        &secret_key,
        add_c.clone(),
        &[sig(&a, "PATCH", &add_c), sig(&b, "PATCH", &add_c)],
        None,
    )
    .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text);
    assert_eq!(
        changed.body["authorization_keys"].as_array().unwrap().len(),
        3
    );
    assert_eq!(changed.body["authorization_threshold"], 2);

    // It owns a policy: it cannot go (even signed) until the policy has another owner.
    let policy = call(
        &t,
        Method::POST,
        "/v1/policies",
        &secret_key,
        Some(json!({ "version": "1.0", "name": "P",
        "chain_type": "ethereum", "rules": [], "owner_id": id })),
    )
    .await;
    assert_eq!(policy.body["owner_id"], id.as_str(), "{}", policy.text);
    let both = [sig(&b, "DELETE", &json!({})), sig(&c, "DELETE", &json!({}))];
    let in_use = signed_call(
        &t,
        Method::DELETE,
        &path,
        &secret_key,
        json!({}),
        &both,
        None,
    )
    .await;
    in_use.assert_error(400, "invalid_data");
    assert_eq!(
        in_use.body["error"],
        "This key quorum owns policies; give them another owner first"
    );
    let policy_path = format!("/v1/policies/{}", policy.body["id"].as_str().unwrap());
    let disown = json!({ "owner_id": null });
    let two = [
        sign(&a, "PATCH", &policy_path, &disown, &t.app_id, None),
        sign(&c, "PATCH", &policy_path, &disown, &t.app_id, None),
    ];
    let freed = signed_call(
        &t,
        Method::PATCH,
        &policy_path,
        &secret_key,
        disown.clone(),
        &two,
        None,
    )
    .await;
    assert_eq!(freed.status, StatusCode::OK, "{}", freed.text);
    let gone = signed_call(
        &t,
        Method::DELETE,
        &path,
        &secret_key,
        json!({}),
        &both,
        None,
    )
    .await;
    assert_eq!(gone.body, json!({ "success": true }), "{}", gone.text);
    call(&t, Method::GET, &path, &secret_key, None)
        .await
        .assert_error(404, "not_found");
}

fn day_aggregation() -> Value {
    json!({
        "name": "spent today", "method": "eth_signTransaction",
        "metric": { "field_source": "ethereum_transaction", "field": "value", "function": "sum" },
        "window": { "type": "rolling", "seconds": 86400 },
    })
}

/// A DENY over the aggregation `id`'s sum.
fn per_day_cap(id: &str) -> Value {
    json!({
        "name": "at most 1 ETH a day", "method": "*", "action": "DENY",
        "conditions": [{ "field_source": "reference", "field": format!("aggregation.{id}"), "operator": "gt", "value": "1000000000000000000" }],
    })
}

async fn aggregations_are_created_read_and_deleted_per_app_and_outlive_no_policy(backend: Backend) {
    let t = TestApp::start(backend).await;
    let key = secret(&t, &t.app_id).await;
    let before = t.state.clock.now() * 1000;
    let created = call(
        &t,
        Method::POST,
        "/v1/aggregations",
        &key,
        Some(day_aggregation()),
    )
    .await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.text);
    let aggregation = created.body.clone();
    let id = aggregation["id"].as_str().unwrap().to_string();
    assert_eq!(id.len(), 24);
    assert!(
        aggregation["created_at"].as_i64().unwrap() >= before,
        "milliseconds"
    );
    assert_eq!(aggregation["method"], "eth_signTransaction");
    assert_eq!(
        aggregation["metric"],
        json!({ "field_source": "ethereum_transaction", "field": "value", "function": "sum" })
    );
    assert_eq!(
        aggregation["window"],
        json!({ "type": "rolling", "seconds": 86400 })
    );
    assert_eq!(aggregation["owner_id"], Value::Null);
    let path = format!("/v1/aggregations/{id}");
    assert_eq!(
        call(&t, Method::GET, &path, &key, None).await.body,
        aggregation
    );
    // Another app's back end sees nothing of it, and cannot name it in a policy.
    let other = t.create_app(false).await;
    let other_key = secret(&t, &other).await;
    v1(&t, Method::GET, &path, &other, &other_key)
        .send()
        .await
        .assert_error(404, "not_found");
    let body = json!({ "version": "1.0", "name": "Other", "chain_type": "ethereum", "rules": [per_day_cap(&id)] });
    let foreign = v1(&t, Method::POST, "/v1/policies", &other, &other_key)
        .json(body)
        .send()
        .await;
    foreign.assert_error(400, "invalid_data");
    assert_eq!(
        foreign.body["error"],
        format!("Rule \"at most 1 ETH a day\": \"{id}\" is not an aggregation of this app")
    );

    // A policy names it: it stays until no policy does.
    let policy = create(&t, &key, json!([allow_shop(), per_day_cap(&id)])).await;
    assert_eq!(policy.status, StatusCode::OK, "{}", policy.text);
    assert_eq!(
        policy.body["rules"][1]["conditions"][0]["field"],
        format!("aggregation.{id}")
    );
    let refused = call(&t, Method::DELETE, &path, &key, None).await;
    refused.assert_error(400, "invalid_data");
    assert_eq!(
        refused.body["error"],
        "A policy names this aggregation (aggregation.{id}); remove those conditions first"
    );
    let policy_path = format!("/v1/policies/{}", policy.body["id"].as_str().unwrap());
    // Also through a rule added later.
    let replaced = call(
        &t,
        Method::PATCH,
        &policy_path,
        &key,
        Some(json!({ "rules": [allow_shop()] })),
    )
    .await;
    assert_eq!(replaced.status, StatusCode::OK, "{}", replaced.text);
    let added = call(
        &t,
        Method::POST,
        &format!("{policy_path}/rules"),
        &key,
        Some(per_day_cap(&id)),
    )
    .await;
    assert_eq!(added.status, StatusCode::OK, "{}", added.text);
    call(&t, Method::DELETE, &path, &key, None)
        .await
        .assert_error(400, "invalid_data");
    call(&t, Method::DELETE, &policy_path, &key, None).await;
    assert_eq!(
        call(&t, Method::DELETE, &path, &key, None).await.body,
        json!({ "success": true })
    );
    call(&t, Method::GET, &path, &key, None)
        .await
        .assert_error(404, "not_found");
    call(&t, Method::DELETE, &path, &key, None)
        .await
        .assert_error(404, "not_found");
    // Gone, it can no longer be named.
    let late = create(&t, &key, json!([per_day_cap(&id)])).await;
    late.assert_error(400, "invalid_data");
}

async fn aggregation_and_reference_refusals_name_what_is_wrong_and_store_nothing(backend: Backend) {
    let t = TestApp::start(backend).await;
    let key = secret(&t, &t.app_id).await;
    let with = |pointer: &str, value: Value| {
        let mut body = day_aggregation();
        *body.pointer_mut(pointer).unwrap() = value;
        body
    };
    let extra = |field: &str, value: Value| {
        let mut body = day_aggregation();
        body[field] = value;
        body
    };
    for (body, message) in [
        (
            with("/method", json!("eth_signUserOperation")),
            "method \"eth_signUserOperation\" is not supported: aggregations count transactions (eth_signTransaction, which here covers eth_sendTransaction too)",
        ),
        (
            with("/method", json!("personal_sign")),
            "method \"personal_sign\" is not supported: aggregations count transactions (eth_signTransaction, which here covers eth_sendTransaction too)",
        ),
        (
            with("/metric/field", json!("gas")),
            "metric ethereum_transaction.gas is not supported: the metric is ethereum_transaction.value (wei)",
        ),
        (
            with("/metric/field_source", json!("ethereum_calldata")),
            "metric ethereum_calldata.value is not supported: the metric is ethereum_transaction.value (wei)",
        ),
        (
            with("/metric/function", json!("max")),
            "metric function \"max\" is not supported: it is sum",
        ),
        (
            with("/window/type", json!("tumbling")),
            "window type \"tumbling\" is not supported: it is rolling",
        ),
        (
            with("/window/seconds", json!(3599)),
            "window.seconds must be 3600 to 259200 (1 to 72 hours)",
        ),
        (
            with("/window/seconds", json!(259_201)),
            "window.seconds must be 3600 to 259200 (1 to 72 hours)",
        ),
        (with("/name", json!("")), "name must be 1 to 50 characters"),
        (
            extra(
                "conditions",
                json!([{ "field_source": "ethereum_transaction", "field": "to", "operator": "eq", "value": SHOP }]),
            ),
            "conditions on aggregations are not supported yet: every transaction of the wallet counts",
        ),
        (
            extra(
                "group_by",
                json!([{ "field_source": "ethereum_transaction", "field": "to" }]),
            ),
            "group_by is not supported yet",
        ),
        (
            extra("owner_id", json!("quorum")),
            "Owners of aggregations are not supported yet",
        ),
        (
            extra("owner", json!({ "public_key": "abc" })),
            "Owners of aggregations are not supported yet",
        ),
    ] {
        let reply = call(&t, Method::POST, "/v1/aggregations", &key, Some(body)).await;
        reply.assert_error(400, "invalid_data");
        assert_eq!(reply.body["error"], message);
    }
    let empty_lists = extra("conditions", json!([]));
    let ok = call(
        &t,
        Method::POST,
        "/v1/aggregations",
        &key,
        Some(empty_lists),
    )
    .await;
    assert_eq!(
        ok.status,
        StatusCode::OK,
        "empty lists are none: {}",
        ok.text
    );
    let id = ok.body["id"].as_str().unwrap().to_string();
    let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM aggregations")
        .fetch_one(t.state.db.pool())
        .await
        .unwrap();
    assert_eq!(count, 1, "only the good one stored");

    // References: an aggregation of the app, numbers only, in transaction rules.
    let rule = |method: &str, field: String, operator: &str, value: &str| {
        json!({ "name": "r", "method": method, "action": "DENY", "conditions": [
            { "field_source": "reference", "field": field, "operator": operator, "value": value }] })
    };
    for (rule, message) in [
        (
            rule("*", "aggregation.nosuchaggregation".into(), "gt", "1"),
            "Rule \"r\": \"nosuchaggregation\" is not an aggregation of this app".to_string(),
        ),
        (
            rule("personal_sign", format!("aggregation.{id}"), "gt", "1"),
            "Rule \"r\": reference conditions do not apply to personal_sign".into(),
        ),
        (
            rule("*", format!("aggregation.{id}"), "starts_with", "1"),
            format!("Rule \"r\": aggregation.{id} is a number: use eq, in, gt, gte, lt or lte"),
        ),
        (
            rule("*", format!("aggregation.{id}"), "gt", "1 ETH"),
            "Rule \"r\": \"1 ETH\" is not a number (decimal or 0x hex)".into(),
        ),
        (
            rule("*", id.clone(), "gt", "1"),
            "Rule \"r\": reference conditions name an aggregation: field must be aggregation.{aggregation id}".into(),
        ),
    ] {
        let reply = create(&t, &key, json!([rule])).await;
        reply.assert_error(400, "invalid_data");
        assert_eq!(reply.body["error"], message);
    }
    let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM policies")
        .fetch_one(t.state.db.pool())
        .await
        .unwrap();
    assert_eq!(count, 0, "no policy stored");
}

async fn calldata_conditions_need_an_abi_whose_function_has_the_field(backend: Backend) {
    let t = TestApp::start(backend).await;
    let key = secret(&t, &t.app_id).await;
    let abi = json!([{ "type": "function", "name": "transfer", "stateMutability": "nonpayable",
        "inputs": [{ "name": "to", "type": "address" }, { "name": "amount", "type": "uint256" }],
        "outputs": [{ "name": "", "type": "bool" }] }]);
    let rule = |field: &str, operator: &str, value: &str, abi: Value| {
        json!({ "name": "tokens", "method": "eth_sendTransaction", "action": "ALLOW", "conditions": [
            { "field_source": "ethereum_calldata", "field": field, "operator": operator, "value": value, "abi": abi }] })
    };
    let ok = create(
        &t,
        &key,
        json!([
            rule("transfer.to", "eq", SHOP, abi.clone()),
            rule("transfer.amount", "lte", "1000", abi.clone())
        ]),
    )
    .await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.text);
    assert_eq!(
        ok.body["rules"][0]["conditions"][0]["abi"], abi,
        "kept whole"
    );
    for (rule, message) in [
        (
            rule("transfer.recipient", "eq", SHOP, abi.clone()),
            "function \"transfer\" of the abi has no input named \"recipient\"",
        ),
        (
            rule("approve.spender", "eq", SHOP, abi.clone()),
            "the abi has no function \"approve\" (field \"approve.spender\")",
        ),
        (
            rule("transfer.amount", "eq", "lots", abi.clone()),
            "transfer.amount compares numbers",
        ),
        (
            rule("transfer.to", "eq", SHOP, json!({ "not": "an abi" })),
            "abi must be a JSON ABI (a list of items)",
        ),
    ] {
        let reply = create(&t, &key, json!([rule])).await;
        reply.assert_error(400, "invalid_data");
        assert_eq!(reply.body["error"], format!("Rule \"tokens\": {message}"));
    }
    let garbled = create(
        &t,
        &key,
        json!([rule(
            "transfer.to",
            "eq",
            SHOP,
            json!([{ "type": "function", "name": "transfer", "inputs": 7 }])
        )]),
    )
    .await;
    garbled.assert_error(400, "invalid_data");
    assert!(
        garbled.body["error"]
            .as_str()
            .unwrap()
            .starts_with("Rule \"tokens\": abi does not parse"),
        "{}",
        garbled.text
    );
}
