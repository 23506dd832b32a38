//! The policies API (`/v1/policies`, docs/policies.md): create, read, change and delete an app's
//! policies and their rules with the app secret; refusals name what is wrong; concurrent rule edits
//! lose nothing. On both databases.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::server_api::{at_once, secret, v1};

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use common::{Backend, TestApp};
use serde_json::{Value, json};

backend_tests!(
    policies_are_created_read_changed_and_deleted_per_app,
    policy_refusals_name_what_is_wrong_and_store_nothing,
    concurrent_rule_changes_lose_nothing,
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
            "Policy owners are not supported yet: leave owner and owner_id empty",
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
