//! Delegated actions (docs/delegation.md): a user delegates their embedded wallet by sealing its key
//! with what they consent to (the app's key quorum and policies) to the signer; the app's back end
//! then signs through `/v1/wallets/{id}/rpc` with its authorization key, within the policies. The
//! signer runs as its own service on loopback (its own key and state). On both databases.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::sync::Arc;

use axum::http::{Method, StatusCode};
use p256::ecdsa::SigningKey;
use serde_json::{Value, json};
use symbolon_protocol::delegation::{DelegationConsent, DelegationTerms};
use symbolon_signer::consent::{SignerKey, seal_to_text};
use symbolon_signer::service::{Signer, system_clock};
use symbolon_signer::store::Store;
use symbolon_signer::wire::SealedConsent;
use symbolon_wallet_core::chains::ethereum::{derive_wallet_key, recover_personal_signer};
use symbolon_wallet_core::{decode_hex, encode_hex};
use tokio::task::JoinHandle;

use crate::common::{self, Backend, Reply, TestApp};
use crate::embedded_wallets::{Material, claim, create_root, frame_post, sign_in};
use crate::policies::{key, public, sign};
use crate::server_api::{at_once, secret, v1};

backend_tests!(
    a_retry_with_its_idempotency_key_gets_the_first_signature,
    a_user_with_a_second_factor_delegates_only_with_a_fresh_mfa_token,
    a_delegated_wallet_signs_what_the_policy_allows_for_the_consented_key_only,
    authorization_signatures_are_single_use_bound_and_expire,
    a_transaction_is_completed_from_the_chain_and_sent_within_policy,
    revoke_stops_the_signer_even_with_an_old_copy_of_the_database,
    the_database_and_the_servers_keys_cannot_make_the_signer_sign,
    only_the_users_own_wallet_with_its_own_key_can_be_delegated,
    a_signer_restart_loses_nothing,
    concurrent_sends_of_one_signed_request_sign_once,
    a_per_day_limit_counts_every_signed_transaction,
    concurrent_transactions_never_pass_the_per_day_limit,
    a_token_transfer_is_signed_for_the_allowed_recipient_only,
);

const SHOP: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const ONE_ETH: &str = "1000000000000000000";
const TOKEN: &str = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

/// The signer as `symbolon signer` runs it: its key and state in files of its own, on loopback.
struct TestSigner {
    dir: PathBuf,
    port: u16,
    task: JoinHandle<()>,
}

impl TestSigner {
    async fn start() -> Self {
        let dir = std::env::temp_dir().join(format!(
            "symbolon-signer-{}",
            symbolon_server::random::random_id(12).unwrap()
        ));
        Self::start_in(dir, 0).await
    }

    async fn start_in(dir: PathBuf, port: u16) -> Self {
        let (key, _) = SignerKey::load_or_create(&dir.join("signer.key")).unwrap();
        let store = Store::open(&dir.join("signer.db")).await.unwrap();
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
            .await
            .unwrap();
        let port = listener.local_addr().unwrap().port();
        let router = Signer::new(key, store, system_clock()).router();
        let task = tokio::spawn(async move {
            axum::serve(listener, router).await.unwrap();
        });
        Self { dir, port, task }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Stops it and starts it again on the same port with the same files.
    async fn restart(self) -> Self {
        self.task.abort();
        let _ = self.task.await;
        Self::start_in(self.dir.clone(), self.port).await
    }
}

/// A user with a delegated wallet and the app's back end that may sign for it.
struct Delegated {
    t: Arc<TestApp>,
    signer: TestSigner,
    token: String,
    material: Material,
    address: String,
    wallet_id: String,
    secret: String,
    app_key: SigningKey,
    quorum_id: String,
    policy_id: String,
}

fn policy_rules() -> Value {
    json!([
        { "name": "sign-in messages", "method": "personal_sign", "action": "ALLOW", "conditions": [
            { "field_source": "message", "field": "content", "operator": "starts_with", "value": "Sign in to" } ] },
        { "name": "sign payments to the shop", "method": "eth_signTransaction", "action": "ALLOW", "conditions": [
            { "field_source": "ethereum_transaction", "field": "to", "operator": "eq", "value": SHOP } ] },
        { "name": "pay the shop", "method": "eth_sendTransaction", "action": "ALLOW", "conditions": [
            { "field_source": "ethereum_transaction", "field": "to", "operator": "eq", "value": SHOP } ] },
        { "name": "at most 1 ETH", "method": "*", "action": "DENY", "conditions": [
            { "field_source": "ethereum_transaction", "field": "value", "operator": "gt", "value": ONE_ETH } ] },
    ])
}

async fn v1_post(t: &TestApp, secret: &str, path: &str, body: Value) -> Reply {
    v1(t, Method::POST, path, &t.app_id, secret)
        .json(body)
        .send()
        .await
}

/// The terms the frame would fetch for `address`.
async fn terms(d: &Delegated, token: &str, address: &str) -> Reply {
    frame_post(
        &d.t,
        "/api/v1/embedded_wallets/delegation/terms",
        token,
        json!({ "address": address, "signers": [{ "signer_id": d.quorum_id, "policy_ids": [d.policy_id] }] }),
    )
    .await
}

/// The consent the frame seals: the wallet's key at `index` of `material` with the terms.
fn consent(
    d: &Delegated,
    terms: &DelegationTerms,
    user_id: &str,
    address: &str,
    private_key: String,
) -> DelegationConsent {
    DelegationConsent {
        version: 1,
        consent_id: terms.consent_id.clone(),
        app_id: d.t.app_id.clone(),
        user_id: user_id.to_string(),
        address: address.to_string(),
        wallet_id: terms.wallet_id.clone().unwrap_or_default(),
        chain_type: "ethereum".into(),
        wallet_index: 0,
        private_key,
        signers: terms.signers.clone(),
        consented_at: 0,
    }
}

/// The consent of the user's own wallet (index 0) with `terms`, naming `user_id`.
fn wallet_consent(d: &Delegated, terms: &DelegationTerms, user_id: &str) -> DelegationConsent {
    consent(
        d,
        terms,
        user_id,
        &d.address,
        private_key_hex(&d.material, 0),
    )
}

/// The wallet's stored delegation, if any.
async fn stored(d: &Delegated) -> Option<symbolon_server::db::delegations::DelegationRecord> {
    d.t.state
        .db
        .find_delegation(&d.t.app_id, &d.wallet_id)
        .await
        .unwrap()
}

fn private_key_hex(material: &Material, index: u32) -> String {
    derive_wallet_key(&material.entropy, index)
        .unwrap()
        .to_hex()
        .to_string()
}

/// Posts a sealed consent as the frame does.
async fn post_consent(
    d: &Delegated,
    token: &str,
    consent: &DelegationConsent,
    public_key: &str,
) -> Reply {
    post_consent_with(d, token, consent, public_key, None).await
}

/// [`post_consent`] with the frame's held MFA token.
async fn post_consent_with(
    d: &Delegated,
    token: &str,
    consent: &DelegationConsent,
    public_key: &str,
    mfa_token: Option<&str>,
) -> Reply {
    let sealed = seal_to_text(public_key, consent).unwrap();
    let mut body = json!({
        "address": consent.address,
        "chain_type": "ethereum",
        "consent_id": consent.consent_id,
        "encapsulated_key": sealed.encapsulated_key,
        "ciphertext": sealed.ciphertext,
    });
    if let Some(mfa_token) = mfa_token {
        body["mfa_token"] = json!(mfa_token);
    }
    frame_post(&d.t, "/api/v1/delegated_actions", token, body).await
}

/// A server with a signer, an app with a key quorum and a policy, a user with a wallet (not yet
/// delegated).
async fn prepared(backend: Backend) -> Delegated {
    prepared_with(backend, |_| policy_rules()).await
}

/// [`prepared`] with the policy's rules from `rules`, which gets the id of an aggregation of the
/// app (the wallet's transaction values over 24 hours).
async fn prepared_with(backend: Backend, rules: impl FnOnce(&str) -> Value) -> Delegated {
    let signer = TestSigner::start().await;
    let url = signer.url();
    let t = Arc::new(TestApp::start_with(backend, |c| c.signer_url = Some(url)).await);
    let token = sign_in(&t).await;
    let material = Material::new();
    create_root(&t, &token, &material).await;
    let address = material.address(0);
    let secret = secret(&t, &t.app_id).await;
    let app_key = key();
    let quorum = v1_post(
        &t,
        &secret,
        "/v1/key_quorums",
        json!({ "public_keys": [public(&app_key)], "display_name": "Shop back end" }),
    )
    .await;
    assert_eq!(quorum.status, StatusCode::OK, "{}", quorum.text);
    let aggregation = v1_post(
        &t,
        &secret,
        "/v1/aggregations",
        json!({ "name": "spent today", "method": "eth_signTransaction",
            "metric": { "field_source": "ethereum_transaction", "field": "value", "function": "sum" },
            "window": { "type": "rolling", "seconds": 86400 } }),
    )
    .await;
    assert_eq!(aggregation.status, StatusCode::OK, "{}", aggregation.text);
    let policy = v1_post(
        &t,
        &secret,
        "/v1/policies",
        json!({ "version": "1.0", "name": "Shop", "chain_type": "ethereum",
            "rules": rules(aggregation.body["id"].as_str().unwrap()) }),
    )
    .await;
    assert_eq!(policy.status, StatusCode::OK, "{}", policy.text);
    let wallets = v1(
        &t,
        Method::GET,
        &format!("/v1/wallets?address={address}"),
        &t.app_id,
        &secret,
    )
    .send()
    .await;
    assert_eq!(wallets.status, StatusCode::OK, "{}", wallets.text);
    Delegated {
        wallet_id: wallets.body["data"][0]["id"].as_str().unwrap().into(),
        quorum_id: quorum.body["id"].as_str().unwrap().into(),
        policy_id: policy.body["id"].as_str().unwrap().into(),
        t,
        signer,
        token,
        material,
        address,
        secret,
        app_key,
    }
}

/// [`prepared`], then the user delegates the wallet.
async fn delegated(backend: Backend) -> Delegated {
    let (d, terms) = delegate(prepared(backend).await).await;
    assert_eq!(
        terms.signers[0].policies[0].rules.len(),
        4,
        "the whole policy"
    );
    d
}

/// The user delegates the wallet of `d` with the terms the frame gets (returned).
async fn delegate(d: Delegated) -> (Delegated, DelegationTerms) {
    let reply = terms(&d, &d.token, &d.address).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let terms: DelegationTerms = serde_json::from_value(reply.body).unwrap();
    assert_eq!(terms.wallet_id.as_deref(), Some(d.wallet_id.as_str()));
    assert_eq!(terms.signers[0].policies[0].id, d.policy_id);
    let consent = consent(
        &d,
        &terms,
        &claim(&d.token, "sub"),
        &d.address,
        private_key_hex(&d.material, 0),
    );
    let reply = post_consent(&d, &d.token, &consent, &terms.signer_public_key).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["delegated"], true);
    (d, terms)
}

fn rpc_path(wallet_id: &str) -> String {
    format!("/v1/wallets/{wallet_id}/rpc")
}

fn in_minutes(minutes: i64) -> String {
    (chrono_now_ms() + minutes * 60_000).to_string()
}

fn chrono_now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// A `/v1/wallets/{id}/rpc` call signed by `signers` with `expiry`.
async fn signed_rpc(
    d: &Delegated,
    path: &str,
    body: &Value,
    signers: &[&SigningKey],
    expiry: Option<&str>,
) -> Reply {
    let signatures: Vec<String> = signers
        .iter()
        .map(|k| sign(k, "POST", path, body, &d.t.app_id, expiry))
        .collect();
    let mut call = v1(&d.t, Method::POST, path, &d.t.app_id, &d.secret).json(body.clone());
    if !signatures.is_empty() {
        call = call.header("privy-authorization-signature", &signatures.join(","));
    }
    if let Some(expiry) = expiry {
        call = call.header("privy-request-expiry", expiry);
    }
    call.send().await
}

fn personal_sign(message: &str) -> Value {
    json!({ "method": "personal_sign", "chain_type": "ethereum", "params": { "message": message, "encoding": "utf-8" } })
}

fn sign_transaction(to: &str, value: &str) -> Value {
    sign_transaction_with(to, value, 0, None)
}

/// An `eth_signTransaction` body with `nonce` and, when given, call `data`.
fn sign_transaction_with(to: &str, value: &str, nonce: u64, data: Option<&str>) -> Value {
    let mut body = json!({ "method": "eth_signTransaction", "chain_type": "ethereum", "params": { "transaction": {
        "to": to, "value": value, "chain_id": 50312, "nonce": nonce, "gas_limit": 21000,
        "max_fee_per_gas": "0x3b9aca00", "max_priority_fee_per_gas": "0x1" } } });
    if let Some(data) = data {
        body["params"]["transaction"]["data"] = json!(data);
        body["params"]["transaction"]["gas_limit"] = json!(100_000);
    }
    body
}

async fn a_delegated_wallet_signs_what_the_policy_allows_for_the_consented_key_only(
    backend: Backend,
) {
    let d = delegated(backend).await;
    let path = rpc_path(&d.wallet_id);
    let expiry = in_minutes(10);

    // The user and the wallet API show the delegation.
    let me = d.t.get("/api/v1/users/me").bearer(&d.token).send().await;
    let wallet = me.body["user"]["linked_accounts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["address"] == d.address.as_str())
        .unwrap()
        .clone();
    assert_eq!(wallet["delegated"], true, "{wallet}");
    let listed = v1(
        &d.t,
        Method::GET,
        &format!("/v1/wallets/{}", d.wallet_id),
        &d.t.app_id,
        &d.secret,
    )
    .send()
    .await;
    assert_eq!(listed.body["delegated"], true);
    assert_eq!(
        listed.body["additional_signers"][0]["signer_id"],
        d.quorum_id.as_str()
    );

    // Allowed: signed by the consented key, within the policy.
    let message = "Sign in to the shop";
    let ok = signed_rpc(
        &d,
        &path,
        &personal_sign(message),
        &[&d.app_key],
        Some(&expiry),
    )
    .await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.text);
    assert_eq!(ok.body["method"], "personal_sign");
    let signature = decode_hex(ok.body["data"]["signature"].as_str().unwrap()).unwrap();
    assert_eq!(
        recover_personal_signer(message.as_bytes(), &signature)
            .unwrap()
            .to_checksum(),
        d.address,
        "the wallet's own signature"
    );
    let tx = signed_rpc(
        &d,
        &path,
        &sign_transaction(SHOP, "0x10"),
        &[&d.app_key],
        Some(&expiry),
    )
    .await;
    assert_eq!(tx.status, StatusCode::OK, "{}", tx.text);
    assert_eq!(tx.body["data"]["encoding"], "rlp");
    assert!(
        tx.body["data"]["signed_transaction"]
            .as_str()
            .unwrap()
            .starts_with("0x02")
    );

    // Refused by the policy, naming the rule.
    let denied = signed_rpc(
        &d,
        &path,
        &sign_transaction(SHOP, "2000000000000000000"),
        &[&d.app_key],
        Some(&expiry),
    )
    .await;
    denied.assert_error(403, "policy_violation");
    assert!(
        denied.text.contains("at most 1 ETH"),
        "the DENY wins over the ALLOW: {}",
        denied.text
    );
    let elsewhere = signed_rpc(
        &d,
        &path,
        &sign_transaction("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", "0x1"),
        &[&d.app_key],
        Some(&expiry),
    )
    .await;
    elsewhere.assert_error(403, "policy_violation");
    assert!(elsewhere.text.contains("No rule"), "{}", elsewhere.text);
    let other_message = signed_rpc(
        &d,
        &path,
        &personal_sign("Transfer everything"),
        &[&d.app_key],
        Some(&expiry),
    )
    .await;
    other_message.assert_error(403, "policy_violation");
    let typed = json!({ "method": "eth_signTypedData_v4", "params": { "typed_data": {
        "domain": { "name": "X", "chainId": 50312 }, "types": { "M": [{ "name": "a", "type": "uint256" }] },
        "primary_type": "M", "message": { "a": 1 } } } });
    signed_rpc(&d, &path, &typed, &[&d.app_key], Some(&expiry))
        .await
        .assert_error(403, "policy_violation");

    // Not the consented key, or no key at all.
    let stranger = key();
    signed_rpc(
        &d,
        &path,
        &personal_sign("Sign in to a"),
        &[&stranger],
        Some(&expiry),
    )
    .await
    .assert_error(401, "invalid_credentials");
    signed_rpc(
        &d,
        &path,
        &personal_sign("Sign in to b"),
        &[],
        Some(&expiry),
    )
    .await
    .assert_error(401, "invalid_credentials");
    let forged = v1(&d.t, Method::POST, &path, &d.t.app_id, &d.secret)
        .json(personal_sign("Sign in to c"))
        .header(
            "privy-authorization-signature",
            "MEUCIQDforgedforgedforgedforgedforgedforgedforgedAiBmb3JnZWQ=",
        )
        .header("privy-request-expiry", &expiry)
        .send()
        .await;
    forged.assert_error(401, "invalid_credentials");
    // A wrong app secret never reaches the signer.
    let mut wrong = v1(&d.t, Method::POST, &path, &d.t.app_id, "sk_wrong_secret")
        .json(personal_sign("Sign in to d"));
    wrong = wrong.header(
        "privy-authorization-signature",
        &sign(
            &d.app_key,
            "POST",
            &path,
            &personal_sign("Sign in to d"),
            &d.t.app_id,
            Some(&expiry),
        ),
    );
    wrong.send().await.assert_error(401, "invalid_credentials");
    // A wallet that does not exist, and one not delegated.
    signed_rpc(
        &d,
        "/v1/wallets/nosuchwallet/rpc",
        &personal_sign("Sign in to e"),
        &[&d.app_key],
        Some(&expiry),
    )
    .await
    .assert_error(404, "not_found");
}

async fn authorization_signatures_are_single_use_bound_and_expire(backend: Backend) {
    let d = delegated(backend).await;
    let path = rpc_path(&d.wallet_id);
    let expiry = in_minutes(10);
    let body = personal_sign("Sign in to once");
    let first = signed_rpc(&d, &path, &body, &[&d.app_key], Some(&expiry)).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let again = signed_rpc(&d, &path, &body, &[&d.app_key], Some(&expiry)).await;
    again.assert_error(401, "invalid_credentials");
    assert!(again.text.contains("already used"), "{}", again.text);

    // No deadline, a past one, one too far ahead.
    let no_expiry = signed_rpc(
        &d,
        &path,
        &personal_sign("Sign in to x"),
        &[&d.app_key],
        None,
    )
    .await;
    no_expiry.assert_error(400, "invalid_data");
    assert!(
        no_expiry.text.contains("privy-request-expiry"),
        "{}",
        no_expiry.text
    );
    signed_rpc(
        &d,
        &path,
        &personal_sign("Sign in to y"),
        &[&d.app_key],
        Some(&in_minutes(-1)),
    )
    .await
    .assert_error(400, "invalid_data");
    let far = signed_rpc(
        &d,
        &path,
        &personal_sign("Sign in to z"),
        &[&d.app_key],
        Some(&in_minutes(120)),
    )
    .await;
    far.assert_error(400, "invalid_data");
    assert!(far.text.contains("1 hour"), "{}", far.text);

    // Signed for another URL (another wallet's), sent to this one.
    let other_path = rpc_path("another_wallet_id");
    let body = personal_sign("Sign in to w");
    let signature = sign(
        &d.app_key,
        "POST",
        &other_path,
        &body,
        &d.t.app_id,
        Some(&expiry),
    );
    let moved = v1(&d.t, Method::POST, &path, &d.t.app_id, &d.secret)
        .json(body)
        .header("privy-authorization-signature", &signature)
        .header("privy-request-expiry", &expiry)
        .send()
        .await;
    moved.assert_error(401, "invalid_credentials");
}

async fn a_transaction_is_completed_from_the_chain_and_sent_within_policy(backend: Backend) {
    let chain = crate::wallet::chain();
    let d = delegated(backend).await;
    let mut settings = symbolon_server::app_settings::AppSettings::default();
    settings
        .wallets
        .rpc_urls
        .insert("50312".into(), chain.rpc_url.clone());
    d.t.set_settings(settings).await;
    // Fund the wallet from anvil's dev account.
    crate::wallet::rpc(
        "eth_sendTransaction",
        json!([{ "from": chain.funder, "to": d.address, "value": "0xde0b6b3a7640000" }]),
    )
    .await;
    let before = crate::wallet::rpc("eth_getBalance", json!([SHOP, "latest"])).await;
    let path = rpc_path(&d.wallet_id);
    let send = json!({ "method": "eth_sendTransaction", "caip2": "eip155:50312", "chain_type": "ethereum",
        "params": { "transaction": { "to": SHOP, "value": "0x2386f26fc10000" } } });
    let sent = signed_rpc(&d, &path, &send, &[&d.app_key], Some(&in_minutes(5))).await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    assert_eq!(sent.body["data"]["caip2"], "eip155:50312");
    let hash = sent.body["data"]["hash"].as_str().unwrap().to_string();
    let mut receipt = Value::Null;
    for _ in 0..100 {
        receipt = crate::wallet::rpc("eth_getTransactionReceipt", json!([hash])).await;
        if !receipt.is_null() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(receipt["status"], "0x1", "{receipt}");
    assert_eq!(
        receipt["from"].as_str().unwrap().to_lowercase(),
        d.address.to_lowercase()
    );
    let after = crate::wallet::rpc("eth_getBalance", json!([SHOP, "latest"])).await;
    let gained = u128::from_str_radix(after.as_str().unwrap().trim_start_matches("0x"), 16)
        .unwrap()
        - u128::from_str_radix(before.as_str().unwrap().trim_start_matches("0x"), 16).unwrap();
    assert_eq!(gained, 10_000_000_000_000_000, "0.01 ETH moved");

    // Over the policy's cap: refused before anything is signed.
    let big = json!({ "method": "eth_sendTransaction", "caip2": "eip155:50312",
        "params": { "transaction": { "to": SHOP, "value": "2000000000000000000" } } });
    let refused = signed_rpc(&d, &path, &big, &[&d.app_key], Some(&in_minutes(5))).await;
    refused.assert_error(403, "policy_violation");
    assert!(refused.text.contains("at most 1 ETH"), "{}", refused.text);
    // More than the wallet holds, within policy: the chain's answer.
    let poor = json!({ "method": "eth_sendTransaction", "caip2": "eip155:50312",
        "params": { "transaction": { "to": SHOP, "value": "990000000000000000", "gas_limit": "0x5208" } } });
    signed_rpc(&d, &path, &poor, &[&d.app_key], Some(&in_minutes(5)))
        .await
        .assert_error(400, "insufficient_funds");
    // Sponsored sends are not served; a chain without an RPC endpoint is named.
    let sponsored = json!({ "method": "eth_sendTransaction", "caip2": "eip155:50312", "sponsor": true,
        "params": { "transaction": { "to": SHOP, "value": "0x1" } } });
    signed_rpc(&d, &path, &sponsored, &[&d.app_key], Some(&in_minutes(5)))
        .await
        .assert_error(403, "feature_not_enabled");
    let unknown_chain = json!({ "method": "eth_sendTransaction", "caip2": "eip155:7",
        "params": { "transaction": { "to": SHOP, "value": "0x1" } } });
    let no_rpc = signed_rpc(
        &d,
        &path,
        &unknown_chain,
        &[&d.app_key],
        Some(&in_minutes(5)),
    )
    .await;
    no_rpc.assert_error(400, "invalid_data");
    assert!(no_rpc.text.contains("chain 7"), "{}", no_rpc.text);
}

async fn revoke_stops_the_signer_even_with_an_old_copy_of_the_database(backend: Backend) {
    let d = delegated(backend).await;
    let path = rpc_path(&d.wallet_id);
    let copy = stored(&d).await.unwrap();
    let revoked =
        d.t.post("/api/v1/wallets/revoke", json!({}))
            .bearer(&d.token)
            .send()
            .await;
    assert_eq!(revoked.status, StatusCode::OK, "{}", revoked.text);
    assert_eq!(revoked.body["revoked"], json!([d.address]));
    signed_rpc(
        &d,
        &path,
        &personal_sign("Sign in to after"),
        &[&d.app_key],
        Some(&in_minutes(5)),
    )
    .await
    .assert_error(403, "user_has_not_delegated_wallet");
    let me = d.t.get("/api/v1/users/me").bearer(&d.token).send().await;
    assert!(
        me.body["user"]["linked_accounts"]
            .as_array()
            .unwrap()
            .iter()
            .all(|a| a["delegated"] != true),
        "no wallet shows delegated"
    );
    // The operator restores the row from an old backup: the signer still refuses it.
    d.t.state.db.put_delegation(&copy).await.unwrap();
    let restored = signed_rpc(
        &d,
        &path,
        &personal_sign("Sign in to restored"),
        &[&d.app_key],
        Some(&in_minutes(5)),
    )
    .await;
    restored.assert_error(403, "user_has_not_delegated_wallet");
    // Revoking with nothing delegated (the restored row is the operator's, not the user's doing).
    d.t.state
        .db
        .delete_delegations_of_user(&d.t.app_id, &claim(&d.token, "sub"))
        .await
        .unwrap();
    let nothing =
        d.t.post("/api/v1/wallets/revoke", json!({}))
            .bearer(&d.token)
            .send()
            .await;
    nothing.assert_error(403, "user_has_not_delegated_wallet");
    assert!(
        nothing
            .text
            .contains("User has no delegated wallets to revoke.")
    );
}

async fn the_database_and_the_servers_keys_cannot_make_the_signer_sign(backend: Backend) {
    let d = delegated(backend).await;
    let row = stored(&d).await.unwrap();
    assert!(
        !row.ciphertext
            .contains(&private_key_hex(&d.material, 0)[2..]),
        "only ciphertext is stored"
    );
    let sealed = SealedConsent {
        app_id: d.t.app_id.clone(),
        address: row.address.clone(),
        encapsulated_key: row.encapsulated_key.clone(),
        ciphertext: row.ciphertext.clone(),
    };
    let signer = common::http_client().build().unwrap();
    let url = format!("{}/v1/sign", d.signer.url());
    // Everything the server holds (its database row, its config and keys) and a request the
    // operator signs with a key of their own.
    let operator_key = key();
    let path = rpc_path(&d.wallet_id);
    let body = personal_sign("Sign in to the operator");
    let expiry = in_minutes(5);
    let request = |signature: String| {
        json!({ "sealed": sealed, "request": {
            "method": "POST", "url": format!("{}{path}", common::PUBLIC_URL), "body": body,
            "headers": { "privy-app-id": d.t.app_id, "privy-request-expiry": expiry },
            "signatures": [signature] } })
    };
    let refused: Value = signer
        .post(&url)
        .json(&request(sign(
            &operator_key,
            "POST",
            &path,
            &body,
            &d.t.app_id,
            Some(&expiry),
        )))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(refused["code"], "invalid_credentials", "{refused}");
    // Moving the ciphertext to another wallet of the app: it does not open.
    let mut moved = request(sign(
        &d.app_key,
        "POST",
        &path,
        &body,
        &d.t.app_id,
        Some(&expiry),
    ));
    moved["sealed"]["address"] = json!(SHOP);
    let refused: Value = signer
        .post(&url)
        .json(&moved)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(refused["code"], "invalid_credentials");
    assert!(refused["error"].as_str().unwrap().contains("does not open"));
    // A consent the operator seals themselves needs the wallet's key: any other key is refused.
    let forged_terms = terms(&d, &d.token, &d.address).await;
    let forged_terms: DelegationTerms = serde_json::from_value(forged_terms.body).unwrap();
    let mut forged = consent(
        &d,
        &forged_terms,
        &claim(&d.token, "sub"),
        &d.address,
        encode_hex(&[7u8; 32]),
    );
    forged.signers[0].public_keys = vec![public(&operator_key)];
    let forged = seal_to_text(&forged_terms.signer_public_key, &forged).unwrap();
    let refused: Value = signer
        .post(format!("{}/v1/consents", d.signer.url()))
        .json(&forged)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(refused["code"], "invalid_credentials", "{refused}");
}

async fn only_the_users_own_wallet_with_its_own_key_can_be_delegated(backend: Backend) {
    let d = prepared(backend).await;
    // Another user, with a wallet of their own, asks for terms on the first user's wallet.
    let other = sign_in(&d.t).await;
    let other_material = Material::new();
    create_root(&d.t, &other, &other_material).await;
    let reply = terms(&d, &other, &d.address).await;
    reply.assert_error(400, "invalid_data");
    assert!(
        reply
            .text
            .contains("Address to delegate is not associated with current user.")
    );
    // A host page cannot ask for the frame's terms or post a consent.
    d.t.post(
        "/api/v1/delegated_actions",
        json!({ "address": d.address, "chain_type": "ethereum", "consent_id": "c", "encapsulated_key": "", "ciphertext": "" }),
    )
    .bearer(&d.token)
    .send()
    .await
    .assert_error(403, "invalid_origin");
    // A key that is not the wallet's, sealed properly: the signer refuses, nothing is stored.
    let good_terms: DelegationTerms =
        serde_json::from_value(terms(&d, &d.token, &d.address).await.body).unwrap();
    let wrong_key = consent(
        &d,
        &good_terms,
        &claim(&d.token, "sub"),
        &d.address,
        private_key_hex(&d.material, 1),
    );
    post_consent(&d, &d.token, &wrong_key, &good_terms.signer_public_key)
        .await
        .assert_error(401, "invalid_credentials");
    // The user's own key, but the consent names another user: refused, nothing stored.
    let other_user = consent(
        &d,
        &good_terms,
        &claim(&other, "sub"),
        &d.address,
        private_key_hex(&d.material, 0),
    );
    post_consent(&d, &d.token, &other_user, &good_terms.signer_public_key)
        .await
        .assert_error(400, "invalid_data");
    assert!(stored(&d).await.is_none());
    // A signer that is not the app's, or without a policy.
    let bad = frame_post(
        &d.t,
        "/api/v1/embedded_wallets/delegation/terms",
        &d.token,
        json!({ "address": d.address, "signers": [{ "signer_id": "not_a_quorum", "policy_ids": [d.policy_id] }] }),
    )
    .await;
    bad.assert_error(400, "invalid_data");
    let no_policy = frame_post(
        &d.t,
        "/api/v1/embedded_wallets/delegation/terms",
        &d.token,
        json!({ "address": d.address, "signers": [{ "signer_id": d.quorum_id, "policy_ids": [] }] }),
    )
    .await;
    no_policy.assert_error(400, "invalid_data");
    // Without signers and without the app's default: named.
    let none = frame_post(
        &d.t,
        "/api/v1/embedded_wallets/delegation/terms",
        &d.token,
        json!({ "address": d.address }),
    )
    .await;
    none.assert_error(403, "feature_not_enabled");
    // A server without a signer says so.
    let plain = TestApp::start(d.t.backend).await;
    let token = sign_in(&plain).await;
    let off = frame_post(
        &plain,
        "/api/v1/embedded_wallets/delegation/terms",
        &token,
        json!({}),
    )
    .await;
    off.assert_error(403, "feature_not_enabled");
    assert!(off.text.contains("SYMBOLON_SIGNER_URL"));
}

async fn a_signer_restart_loses_nothing(backend: Backend) {
    let mut d = delegated(backend).await;
    let path = rpc_path(&d.wallet_id);
    let expiry = in_minutes(10);
    let body = personal_sign("Sign in to before the restart");
    let first = signed_rpc(&d, &path, &body, &[&d.app_key], Some(&expiry)).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    d.signer = d.signer.restart().await;
    let after = signed_rpc(
        &d,
        &path,
        &personal_sign("Sign in to after the restart"),
        &[&d.app_key],
        Some(&expiry),
    )
    .await;
    assert_eq!(
        after.status,
        StatusCode::OK,
        "the same key and consents: {}",
        after.text
    );
    signed_rpc(&d, &path, &body, &[&d.app_key], Some(&expiry))
        .await
        .assert_error(401, "invalid_credentials");
}

async fn concurrent_sends_of_one_signed_request_sign_once(backend: Backend) {
    let d = delegated(backend).await;
    let path = rpc_path(&d.wallet_id);
    let expiry = in_minutes(10);
    let body = personal_sign("Sign in to the race");
    let signature = sign(&d.app_key, "POST", &path, &body, &d.t.app_id, Some(&expiry));
    let (app_id, secret) = (d.t.app_id.clone(), d.secret.clone());
    let replies = at_once(&d.t, 8, move |t, _| {
        v1(t, Method::POST, &path, &app_id, &secret)
            .json(body.clone())
            .header("privy-authorization-signature", &signature)
            .header("privy-request-expiry", &expiry)
    })
    .await;
    let signed = replies
        .iter()
        .filter(|r| r.status == StatusCode::OK)
        .count();
    assert_eq!(signed, 1, "one signature for one signed request");
    assert!(
        replies
            .iter()
            .filter(|r| r.status != StatusCode::OK)
            .all(|r| r.body["code"] == "invalid_credentials")
    );
}

/// Pay the shop, but at most 1 ETH over 24 hours (the aggregation `id`), as the vendor writes it.
fn per_day_rules(id: &str) -> Value {
    json!([
        { "name": "pay the shop", "method": "eth_signTransaction", "action": "ALLOW", "conditions": [
            { "field_source": "ethereum_transaction", "field": "to", "operator": "eq", "value": SHOP } ] },
        { "name": "at most 1 ETH a day", "method": "*", "action": "DENY", "conditions": [
            { "field_source": "reference", "field": format!("aggregation.{id}"), "operator": "gt", "value": ONE_ETH } ] },
        { "name": "sign-in messages", "method": "personal_sign", "action": "ALLOW", "conditions": [] },
    ])
}

const POINT_FOUR_ETH: &str = "400000000000000000";
const POINT_THREE_ETH: &str = "300000000000000000";

async fn a_per_day_limit_counts_every_signed_transaction(backend: Backend) {
    let mut aggregation_id = String::new();
    let d = prepared_with(backend, |id| {
        aggregation_id = id.to_string();
        per_day_rules(id)
    })
    .await;
    let (d, terms) = delegate(d).await;
    assert_eq!(
        terms.signers[0]
            .aggregations
            .iter()
            .map(|a| a.id.as_str())
            .collect::<Vec<_>>(),
        [aggregation_id.as_str()],
        "the aggregation is sealed with the policy"
    );
    assert_eq!(terms.signers[0].aggregations[0].window.seconds, 86_400);
    let path = rpc_path(&d.wallet_id);
    let expiry = in_minutes(10);
    for nonce in 0..2 {
        let body = sign_transaction_with(SHOP, POINT_FOUR_ETH, nonce, None);
        let signed = signed_rpc(&d, &path, &body, &[&d.app_key], Some(&expiry)).await;
        assert_eq!(signed.status, StatusCode::OK, "{}", signed.text);
    }
    // Messages never touch the ledger (the DENY on the sum does not hold for them).
    let message = signed_rpc(
        &d,
        &path,
        &personal_sign("Sign in to the shop"),
        &[&d.app_key],
        Some(&expiry),
    )
    .await;
    assert_eq!(message.status, StatusCode::OK, "{}", message.text);
    // 0.8 ETH spent: the third 0.4 ETH would make 1.2.
    let third = sign_transaction_with(SHOP, POINT_FOUR_ETH, 2, None);
    let refused = signed_rpc(&d, &path, &third, &[&d.app_key], Some(&expiry)).await;
    refused.assert_error(403, "policy_violation");
    assert!(
        refused.text.contains("at most 1 ETH a day"),
        "{}",
        refused.text
    );
    // A refused request spent nothing: 0.2 ETH still fits (0.8 + 0.2 = 1).
    let rest = sign_transaction_with(SHOP, "200000000000000000", 3, None);
    let fits = signed_rpc(&d, &path, &rest, &[&d.app_key], Some(&expiry)).await;
    assert_eq!(fits.status, StatusCode::OK, "{}", fits.text);
    let over = sign_transaction_with(SHOP, "1", 4, None);
    signed_rpc(&d, &path, &over, &[&d.app_key], Some(&expiry))
        .await
        .assert_error(403, "policy_violation");

    // The aggregation cannot go while the policy names it.
    let delete = v1(
        &d.t,
        Method::DELETE,
        &format!("/v1/aggregations/{aggregation_id}"),
        &d.t.app_id,
        &d.secret,
    )
    .send()
    .await;
    delete.assert_error(400, "invalid_data");
}

async fn concurrent_transactions_never_pass_the_per_day_limit(backend: Backend) {
    let d = prepared_with(backend, per_day_rules).await;
    let (d, _) = delegate(d).await;
    let path = rpc_path(&d.wallet_id);
    let expiry = in_minutes(10);
    // Eight transactions of 0.3 ETH, each signed on its own (nonces differ), sent at once.
    let requests: Vec<(Value, String)> = (0..8)
        .map(|nonce| {
            let body = sign_transaction_with(SHOP, POINT_THREE_ETH, nonce, None);
            let signature = sign(&d.app_key, "POST", &path, &body, &d.t.app_id, Some(&expiry));
            (body, signature)
        })
        .collect();
    let (app_id, secret) = (d.t.app_id.clone(), d.secret.clone());
    let replies = at_once(&d.t, 8, move |t, i| {
        let (body, signature) = &requests[i];
        v1(t, Method::POST, &path, &app_id, &secret)
            .json(body.clone())
            .header("privy-authorization-signature", signature)
            .header("privy-request-expiry", &expiry)
    })
    .await;
    let signed = replies
        .iter()
        .filter(|r| r.status == StatusCode::OK)
        .count();
    assert_eq!(signed, 3, "0.9 ETH fits 1 ETH, a fourth 0.3 does not");
    for refused in replies.iter().filter(|r| r.status != StatusCode::OK) {
        refused.assert_error(403, "policy_violation");
        assert!(
            refused.text.contains("at most 1 ETH a day"),
            "{}",
            refused.text
        );
    }
}

/// ERC-20 `transfer(address,uint256)` calldata.
fn erc20_transfer(to: &str, amount: u64) -> String {
    let mut data = decode_hex("0xa9059cbb").unwrap();
    data.extend([0u8; 12]);
    data.extend(decode_hex(to).unwrap());
    data.extend([0u8; 24]);
    data.extend(amount.to_be_bytes());
    encode_hex(&data)
}

async fn a_token_transfer_is_signed_for_the_allowed_recipient_only(backend: Backend) {
    let abi = json!([
        { "type": "function", "name": "transfer", "stateMutability": "nonpayable",
          "inputs": [{ "name": "to", "type": "address" }, { "name": "amount", "type": "uint256" }],
          "outputs": [{ "name": "", "type": "bool" }] },
    ]);
    let rules = json!([
        { "name": "pay the shop in tokens", "method": "eth_signTransaction", "action": "ALLOW", "conditions": [
            { "field_source": "ethereum_transaction", "field": "to", "operator": "eq", "value": TOKEN },
            { "field_source": "ethereum_calldata", "field": "transfer.to", "operator": "eq", "value": SHOP, "abi": abi },
            { "field_source": "ethereum_calldata", "field": "transfer.amount", "operator": "lte", "value": "1000000", "abi": abi } ] },
    ]);
    let d = prepared_with(backend, |_| rules).await;
    let (d, _) = delegate(d).await;
    let path = rpc_path(&d.wallet_id);
    let expiry = in_minutes(10);
    let to_shop = sign_transaction_with(TOKEN, "0x0", 0, Some(&erc20_transfer(SHOP, 1_000_000)));
    let ok = signed_rpc(&d, &path, &to_shop, &[&d.app_key], Some(&expiry)).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.text);
    for (body, what) in [
        (
            sign_transaction_with(
                TOKEN,
                "0x0",
                1,
                Some(&erc20_transfer(
                    "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
                    1,
                )),
            ),
            "another recipient",
        ),
        (
            sign_transaction_with(TOKEN, "0x0", 2, Some(&erc20_transfer(SHOP, 1_000_001))),
            "more than the amount",
        ),
        (
            sign_transaction_with(TOKEN, "0x0", 3, Some("0xa9059cbb00")),
            "calldata that does not decode",
        ),
    ] {
        let refused = signed_rpc(&d, &path, &body, &[&d.app_key], Some(&expiry)).await;
        refused.assert_error(403, "policy_violation");
        assert!(refused.text.contains("No rule"), "{what}: {}", refused.text);
    }
}

async fn a_user_with_a_second_factor_delegates_only_with_a_fresh_mfa_token(backend: Backend) {
    let d = prepared(backend).await;
    let mut settings = symbolon_server::app_settings::AppSettings::default();
    settings.mfa.methods = vec!["totp".into()];
    d.t.set_settings(settings).await;
    let secret = crate::mfa::enroll_totp(&d.t, &d.token).await;
    let user_id = claim(&d.token, "sub");
    let fresh_terms = || async {
        let reply = terms(&d, &d.token, &d.address).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        serde_json::from_value::<DelegationTerms>(reply.body).unwrap()
    };
    // The session alone: refused before the signer sees anything; nothing stored.
    let first = fresh_terms().await;
    let without = wallet_consent(&d, &first, &user_id);
    post_consent(&d, &d.token, &without, &first.signer_public_key)
        .await
        .assert_error(403, "missing_or_invalid_mfa");
    assert!(stored(&d).await.is_none());
    // With a fresh verification: delegated, and the token is used up.
    let mfa = crate::mfa::mfa_token(&d.t, &d.token, &secret).await;
    let second = fresh_terms().await;
    let with = wallet_consent(&d, &second, &user_id);
    let reply = post_consent_with(&d, &d.token, &with, &second.signer_public_key, Some(&mfa)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let third = fresh_terms().await;
    let again = wallet_consent(&d, &third, &user_id);
    post_consent_with(&d, &d.token, &again, &third.signer_public_key, Some(&mfa))
        .await
        .assert_error(403, "expired_or_invalid_mfa_token");
}

async fn a_retry_with_its_idempotency_key_gets_the_first_signature(backend: Backend) {
    use base64::Engine;
    use p256::ecdsa::signature::Signer as _;
    let d = delegated(backend).await;
    let path = rpc_path(&d.wallet_id);
    let expiry = in_minutes(10);
    let body = personal_sign("Sign in to a retried request");
    // Signed as the SDK signs a request with an idempotency key: the key is a signed header.
    let request = symbolon_signer::authorization::SignedRequest {
        method: "POST".into(),
        url: format!("{}{path}", common::PUBLIC_URL),
        body: body.clone(),
        headers: [
            ("privy-app-id".to_string(), d.t.app_id.clone()),
            ("privy-idempotency-key".to_string(), "retry-1".to_string()),
            ("privy-request-expiry".to_string(), expiry.clone()),
        ]
        .into(),
        signatures: Vec::new(),
    };
    let signature: p256::ecdsa::Signature = d.app_key.sign(&request.payload().unwrap());
    let signature = base64::engine::general_purpose::STANDARD.encode(signature.to_der().as_bytes());
    let send = || {
        v1(&d.t, Method::POST, &path, &d.t.app_id, &d.secret)
            .json(body.clone())
            .header("privy-authorization-signature", &signature)
            .header("privy-request-expiry", &expiry)
            .header("privy-idempotency-key", "retry-1")
            .send()
    };
    let first = send().await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let retry = send().await;
    assert_eq!(
        retry.status,
        StatusCode::OK,
        "the retry is answered, not refused as used: {}",
        retry.text
    );
    assert_eq!(retry.body, first.body, "the first signature again");
}
