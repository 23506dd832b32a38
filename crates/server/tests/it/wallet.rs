//! Sign-In With Ethereum and Solana over HTTP: EOA sign-in, the EIP-4361 checks (domain, URI,
//! chain, statement, times, malformed text), single-use nonces bound to their address (also
//! under concurrency), the per-address nonce cap that evicts instead of locking out (also under
//! concurrency), contract wallets deployed on the local anvil chain (EIP-1271, exact answers
//! only) and not yet deployed (EIP-6492), smart-wallet linking (contracts only, never an
//! embedded wallet), SIWS with ed25519, the account rules for `wallet` accounts (embedded
//! wallets refused, sole account, transfer) and the allowlist.
//!
//! The contracts are `tests/contracts/TestWallet.sol` (built by `tests/contracts/build.mjs`);
//! the chain is `node tools/stack/bin/services.mjs --chain` (anvil, chain id 50312).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use common::{Backend, Reply, TestApp, unique_email};
use serde_json::{Value, json};
use symbolon_protocol::accounts::LoginMethodsAndOrder;
use symbolon_protocol::constants::SIWE_STATEMENT;
use symbolon_server::app_settings::{Allowlist, AppSettings};
use symbolon_server::config::RateLimitConfig;
use symbolon_server::db::wallet_nonces::MAX_LIVE_NONCES_PER_ADDRESS;
use symbolon_server::random::random_bytes;
use symbolon_wallet_core::chains::ethereum::{Address, PrivateKey, personal_sign};
use symbolon_wallet_core::{decode_hex, encode_hex};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use tokio::task::JoinSet;

const SIWE_INIT: &str = "/api/v1/siwe/init";
const SIWE_AUTH: &str = "/api/v1/siwe/authenticate";
const SIWE_LINK: &str = "/api/v1/siwe/link";
const SIWE_UNLINK: &str = "/api/v1/siwe/unlink";
const SIWE_SMART: &str = "/api/v1/siwe/link_smart_wallet";
const SIWE_TRANSFER: &str = "/api/v1/siwe/transfer";
const SIWS_INIT: &str = "/api/v1/siws/init";
const SIWS_AUTH: &str = "/api/v1/siws/authenticate";
const SIWS_LINK: &str = "/api/v1/siws/link";
const SIWS_UNLINK: &str = "/api/v1/siws/unlink";
/// The SIWE domain and URI of the test origin.
const DOMAIN: &str = "localhost:3000";
const URI: &str = "http://localhost:3000";
/// The local chain (Somnia Testnet stand-in).
const CHAIN_ID: u64 = 50_312;

backend_tests!(
    eoa_login_signs_up_then_in_and_shows_the_wallet,
    message_faults_are_refused_with_4xx_and_spend_no_nonce,
    a_nonce_is_single_use_and_bound_to_its_address,
    of_concurrent_uses_of_one_nonce_exactly_one_wins,
    wallet_login_needs_the_method,
    a_nonce_flood_evicts_the_oldest_and_never_locks_the_owner_out,
    concurrent_inits_keep_an_address_within_its_nonce_cap,
    an_embedded_wallet_cannot_log_in_link_or_be_unlinked,
    link_unlink_and_transfer_rules,
    an_erc1271_contract_wallet_signs_in,
    an_answer_that_only_starts_with_the_erc1271_magic_value_is_refused,
    an_undeployed_erc6492_wallet_signs_in_and_links_as_smart_wallet,
    link_smart_wallet_refuses_an_ordinary_wallet,
    link_smart_wallet_refuses_an_embedded_wallet,
    siws_login_link_and_bad_signatures,
    siws_accepts_the_vanilla_clients_message,
    the_allowlist_matches_wallets_in_any_case,
);

// ---------------------------------------------------------------- chain

/// The anvil chain of this test binary, with the funder (anvil's unlocked dev account 0).
pub(crate) struct Chain {
    pub(crate) rpc_url: String,
    pub(crate) funder: String,
}

static CHAIN: OnceLock<Chain> = OnceLock::new();

pub(crate) fn chain() -> &'static Chain {
    CHAIN.get_or_init(|| {
        let v = common::spawn_services(&["--chain"]);
        Chain {
            rpc_url: v["chainRpcUrl"].as_str().unwrap().into(),
            funder: v["funderAddress"].as_str().unwrap().into(),
        }
    })
}

pub(crate) async fn rpc(method: &str, params: Value) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let reply: Value = common::http_client()
        .build()
        .unwrap()
        .post(&chain().rpc_url)
        .json(&body)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(reply["error"].is_null(), "{method}: {reply}");
    reply["result"].clone()
}

/// Deploys `creation` (hex) followed by `args` from the funder; returns the contract address.
async fn deploy(creation_hex: &str, args: &[u8]) -> Address {
    // Tests run in parallel and share the funder: one deployment at a time, or their account
    // nonces collide.
    static FUNDER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    let _turn = FUNDER.lock().await;
    let mut data = decode_hex(creation_hex.trim()).unwrap();
    data.extend_from_slice(args);
    let hash = rpc(
        "eth_sendTransaction",
        json!([{"from": chain().funder, "data": encode_hex(&data)}]),
    )
    .await;
    for _ in 0..200 {
        let receipt = rpc("eth_getTransactionReceipt", json!([hash])).await;
        if let Some(address) = receipt["contractAddress"].as_str() {
            assert_eq!(receipt["status"], "0x1", "{receipt}");
            return Address::parse(&address.to_ascii_lowercase()).unwrap();
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!("no receipt for {hash}");
}

fn word_address(address: &Address) -> Vec<u8> {
    let mut word = vec![0u8; 12];
    word.extend_from_slice(&address.0);
    word
}

fn word_u64(n: u64) -> Vec<u8> {
    let mut word = vec![0u8; 24];
    word.extend_from_slice(&n.to_be_bytes());
    word
}

fn abi_bytes(bytes: &[u8]) -> Vec<u8> {
    let mut out = word_u64(bytes.len() as u64);
    out.extend_from_slice(bytes);
    out.resize(32 + bytes.len().div_ceil(32) * 32, 0);
    out
}

fn selector(signature: &str) -> Vec<u8> {
    symbolon_wallet_core::chains::ethereum::keccak256(signature.as_bytes())[..4].to_vec()
}

/// A `TestWallet` owned by `owner`, deployed now.
async fn deploy_wallet(owner: &PrivateKey) -> Address {
    deploy(
        include_str!("../contracts/test_wallet.hex"),
        &word_address(&owner.address()),
    )
    .await
}

/// Where `factory` would deploy a `TestWallet` of `owner` with `salt` (CREATE2).
async fn counterfactual_address(factory: &Address, owner: &PrivateKey, salt: [u8; 32]) -> Address {
    let mut call = selector("addressOf(address,bytes32)");
    call.extend_from_slice(&word_address(&owner.address()));
    call.extend_from_slice(&salt);
    let result = rpc(
        "eth_call",
        json!([{"to": factory.to_checksum(), "data": encode_hex(&call)}, "latest"]),
    )
    .await;
    let word = decode_hex(result.as_str().unwrap()).unwrap();
    let mut address = [0u8; 20];
    address.copy_from_slice(&word[12..32]);
    Address(address)
}

/// An EIP-6492 signature of `message` for that wallet: `abi.encode(factory, deploy(owner, salt)
/// calldata, owner's signature) ‖ 0x6492…6492`.
fn counterfactual_signature(
    factory: &Address,
    owner: &PrivateKey,
    salt: [u8; 32],
    message: &str,
) -> String {
    let mut deploy_call = selector("deploy(address,bytes32)");
    deploy_call.extend_from_slice(&word_address(&owner.address()));
    deploy_call.extend_from_slice(&salt);
    let inner = decode_hex(&sign(owner, message)).unwrap();
    let deploy_tail = abi_bytes(&deploy_call);
    let mut wrapped = word_address(factory);
    wrapped.extend_from_slice(&word_u64(96));
    wrapped.extend_from_slice(&word_u64(96 + deploy_tail.len() as u64));
    wrapped.extend_from_slice(&deploy_tail);
    wrapped.extend_from_slice(&abi_bytes(&inner));
    wrapped.extend_from_slice(&[0x64, 0x92].repeat(16));
    encode_hex(&wrapped)
}

// ---------------------------------------------------------------- messages

fn new_key() -> PrivateKey {
    loop {
        if let Ok(key) = PrivateKey::from_bytes(&random_bytes::<32>().unwrap()) {
            return key;
        }
    }
}

fn sign(key: &PrivateKey, message: &str) -> String {
    personal_sign(key, message.as_bytes()).unwrap().to_hex()
}

fn rfc3339(offset_s: i64) -> String {
    (OffsetDateTime::now_utc() + time::Duration::seconds(offset_s))
        .format(&Rfc3339)
        .unwrap()
}

/// An EIP-4361 message as the client writes it; each field can be spoiled by a test.
#[derive(Clone)]
struct Siwe {
    domain: String,
    address: String,
    statement: String,
    uri: String,
    chain_id: u64,
    nonce: String,
    issued_at: String,
    expiration: Option<String>,
    not_before: Option<String>,
}

impl Siwe {
    fn new(address: &Address, nonce: &str) -> Self {
        Self {
            domain: DOMAIN.into(),
            address: address.to_checksum(),
            statement: SIWE_STATEMENT.into(),
            uri: URI.into(),
            chain_id: CHAIN_ID,
            nonce: nonce.into(),
            issued_at: rfc3339(0),
            expiration: Some(rfc3339(600)),
            not_before: None,
        }
    }

    fn text(&self) -> String {
        let mut text = format!(
            "{} wants you to sign in with your Ethereum account:\n{}\n\n{}\n\nURI: {}\nVersion: 1\n\
             Chain ID: {}\nNonce: {}\nIssued At: {}",
            self.domain,
            self.address,
            self.statement,
            self.uri,
            self.chain_id,
            self.nonce,
            self.issued_at
        );
        if let Some(expiration) = &self.expiration {
            text.push_str(&format!("\nExpiration Time: {expiration}"));
        }
        if let Some(not_before) = &self.not_before {
            text.push_str(&format!("\nNot Before: {not_before}"));
        }
        text
    }
}

fn settings(methods: &[&str]) -> AppSettings {
    AppSettings {
        login_methods: LoginMethodsAndOrder {
            primary: methods.iter().map(|m| m.to_string()).collect(),
            overflow: vec![],
        },
        ..AppSettings::default()
    }
}

fn with_rpc(mut settings: AppSettings) -> AppSettings {
    settings.wallets.rpc_urls = BTreeMap::from([(CHAIN_ID.to_string(), chain().rpc_url.clone())]);
    settings
}

async fn start(backend: Backend) -> TestApp {
    let t = TestApp::start(backend).await;
    t.set_settings(settings(&["email", "wallet"])).await;
    t
}

async fn nonce(t: &TestApp, path: &str, address: &str) -> String {
    let reply = t.post(path, json!({ "address": address })).send().await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.body["nonce"].as_str().unwrap().to_string()
}

fn siwe_body(message: &str, signature: &str) -> Value {
    json!({
        "message": message,
        "signature": signature,
        "chainId": format!("eip155:{CHAIN_ID}"),
        "walletClientType": "metamask",
        "connectorType": "injected",
    })
}

/// A fresh SIWE message of `key` with a fresh nonce, signed.
async fn signed_siwe(t: &TestApp, key: &PrivateKey) -> (String, String) {
    let nonce = nonce(t, SIWE_INIT, &key.address().to_checksum()).await;
    let text = Siwe::new(&key.address(), &nonce).text();
    let signature = sign(key, &text);
    (text, signature)
}

async fn siwe_login(t: &TestApp, key: &PrivateKey) -> Reply {
    let (text, signature) = signed_siwe(t, key).await;
    t.post(SIWE_AUTH, siwe_body(&text, &signature)).send().await
}

fn token(session: &Value) -> String {
    session["token"].as_str().unwrap().to_string()
}

fn wallets(user: &Value) -> Vec<Value> {
    user["linked_accounts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["type"] == "wallet")
        .cloned()
        .collect()
}

// ---------------------------------------------------------------- tests

async fn eoa_login_signs_up_then_in_and_shows_the_wallet(backend: Backend) {
    let t = start(backend).await;
    // The app configuration offers wallets, with the operator's WalletConnect project.
    let mut app = settings(&["email", "wallet"]);
    app.wallets.wallet_connect_cloud_project_id = Some("wc-project-1".into());
    t.set_settings(app).await;
    let config = t.get(&format!("/api/v1/apps/{}", t.app_id)).send().await;
    assert_eq!(config.body["wallet_auth"], true, "{}", config.text);
    assert_eq!(
        config.body["wallet_connect_cloud_project_id"],
        "wc-project-1"
    );
    let key = new_key();
    // init answers the checksummed address whatever the case sent.
    let lower = key.address().to_checksum().to_ascii_lowercase();
    let init = t.post(SIWE_INIT, json!({ "address": lower })).send().await;
    assert_eq!(init.status, 200, "{}", init.text);
    assert_eq!(init.body["address"], key.address().to_checksum());
    assert!(init.body["nonce"].as_str().unwrap().len() >= 8);

    let first = siwe_login(&t, &key).await;
    assert_eq!(first.status, 200, "{}", first.text);
    assert_eq!(first.body["is_new_user"], true);
    let shown = wallets(&first.body["user"]);
    assert_eq!(shown.len(), 1, "{}", first.text);
    let wallet = &shown[0];
    assert_eq!(wallet["address"], key.address().to_checksum());
    assert_eq!(wallet["chain_type"], "ethereum");
    assert_eq!(wallet["wallet_client_type"], "metamask");
    assert_eq!(wallet["connector_type"], "injected");
    assert_eq!(wallet["wallet_index"], Value::Null);
    assert!(wallet["latest_verified_at"].is_number());

    let again = siwe_login(&t, &key).await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.body["is_new_user"], false);
    assert_eq!(again.body["user"]["id"], first.body["user"]["id"]);
    // mode no-signup: an unknown wallet is user_does_not_exist.
    let (text, signature) = signed_siwe(&t, &new_key()).await;
    let mut body = siwe_body(&text, &signature);
    body["mode"] = json!("no-signup");
    t.post(SIWE_AUTH, body)
        .send()
        .await
        .assert_error(400, "user_does_not_exist");
}

async fn message_faults_are_refused_with_4xx_and_spend_no_nonce(backend: Backend) {
    let t = start(backend).await;
    let key = new_key();
    let nonce = nonce(&t, SIWE_INIT, &key.address().to_checksum()).await;
    let good = Siwe::new(&key.address(), &nonce);
    let send = |message: Siwe| {
        let t = &t;
        let key = &key;
        async move {
            let text = message.text();
            t.post(SIWE_AUTH, siwe_body(&text, &sign(key, &text)))
                .send()
                .await
        }
    };
    let spoil = |f: fn(&mut Siwe)| {
        let mut m = good.clone();
        f(&mut m);
        m
    };
    send(spoil(|m| m.domain = "evil.example".into()))
        .await
        .assert_error(400, "invalid_data");
    send(spoil(|m| m.uri = "https://evil.example".into()))
        .await
        .assert_error(400, "invalid_data");
    send(spoil(|m| m.chain_id = 1))
        .await
        .assert_error(400, "invalid_data");
    let wrong_statement = send(spoil(|m| m.statement = "Sign in to win a prize".into())).await;
    wrong_statement.assert_error(400, "invalid_data");
    assert!(wrong_statement.text.contains("statement"));
    send(spoil(|m| {
        m.issued_at = rfc3339(-3600);
        m.expiration = Some(rfc3339(-60));
    }))
    .await
    .assert_error(401, "invalid_credentials");
    send(spoil(|m| m.issued_at = rfc3339(3600)))
        .await
        .assert_error(401, "invalid_credentials");
    send(spoil(|m| m.not_before = Some(rfc3339(3600))))
        .await
        .assert_error(401, "invalid_credentials");
    // EIP-4361 wants the checksummed address.
    send(spoil(|m| m.address = m.address.to_ascii_lowercase()))
        .await
        .assert_error(400, "invalid_data");
    // Malformed text, garbage signature, oversized message: 400, never 5xx.
    t.post(SIWE_AUTH, siwe_body("hello", &sign(&key, "hello")))
        .send()
        .await
        .assert_error(400, "invalid_data");
    let text = good.text();
    t.post(SIWE_AUTH, siwe_body(&text, "0xzz"))
        .send()
        .await
        .assert_error(400, "invalid_data");
    let huge = format!(
        "{text}\nResources:\n- https://a.example/{}",
        "a".repeat(5000)
    );
    t.post(SIWE_AUTH, siwe_body(&huge, &sign(&key, &huge)))
        .send()
        .await
        .assert_error(400, "invalid_data");
    // Someone else's signature of the right message.
    t.post(SIWE_AUTH, siwe_body(&text, &sign(&new_key(), &text)))
        .send()
        .await
        .assert_error(401, "invalid_credentials");
    // A tampered message under the original signature.
    let signature = sign(&key, &text);
    let tampered = text.replace(
        "URI: http://localhost:3000",
        "URI: http://localhost:3000/other",
    );
    t.post(SIWE_AUTH, siwe_body(&tampered, &signature))
        .send()
        .await
        .assert_error(401, "invalid_credentials");
    // An over-long client label is refused before the proof is checked.
    let mut long_label = siwe_body(&text, &signature);
    long_label["walletClientType"] = json!("w".repeat(65));
    t.post(SIWE_AUTH, long_label)
        .send()
        .await
        .assert_error(400, "invalid_data");
    // None of that spent the nonce.
    let ok = t.post(SIWE_AUTH, siwe_body(&text, &signature)).send().await;
    assert_eq!(ok.status, 200, "{}", ok.text);
}

async fn a_nonce_is_single_use_and_bound_to_its_address(backend: Backend) {
    let t = start(backend).await;
    let (alice, bob) = (new_key(), new_key());
    let (text, signature) = signed_siwe(&t, &alice).await;
    let first = t.post(SIWE_AUTH, siwe_body(&text, &signature)).send().await;
    assert_eq!(first.status, 200, "{}", first.text);
    t.post(SIWE_AUTH, siwe_body(&text, &signature))
        .send()
        .await
        .assert_error(401, "invalid_credentials");
    // Bob signs a message with a nonce issued for Alice's address.
    let alices = nonce(&t, SIWE_INIT, &alice.address().to_checksum()).await;
    let text = Siwe::new(&bob.address(), &alices).text();
    t.post(SIWE_AUTH, siwe_body(&text, &sign(&bob, &text)))
        .send()
        .await
        .assert_error(401, "invalid_credentials");
    // A nonce never issued.
    let text = Siwe::new(&bob.address(), "neverissued1234").text();
    t.post(SIWE_AUTH, siwe_body(&text, &sign(&bob, &text)))
        .send()
        .await
        .assert_error(401, "invalid_credentials");
    // A SIWE nonce is no SIWS nonce of the same text (chain types differ), and a bad address
    // gets no nonce at all.
    t.post(SIWE_INIT, json!({"address": "0x1234"}))
        .send()
        .await
        .assert_error(400, "invalid_data");
}

async fn of_concurrent_uses_of_one_nonce_exactly_one_wins(backend: Backend) {
    let t = Arc::new(start(backend).await);
    let key = new_key();
    let (text, signature) = signed_siwe(&t, &key).await;
    let mut set = JoinSet::new();
    for _ in 0..8 {
        let (t, text, signature) = (t.clone(), text.clone(), signature.clone());
        set.spawn(async move { t.post(SIWE_AUTH, siwe_body(&text, &signature)).send().await });
    }
    let mut ok = 0;
    while let Some(reply) = set.join_next().await {
        let reply = reply.unwrap();
        if reply.status == 200 {
            ok += 1;
        } else {
            reply.assert_error(401, "invalid_credentials");
        }
    }
    assert_eq!(ok, 1);
}

async fn wallet_login_needs_the_method(backend: Backend) {
    let t = TestApp::start(backend).await;
    let key = new_key();
    t.post(SIWE_INIT, json!({"address": key.address().to_checksum()}))
        .send()
        .await
        .assert_error(403, "disallowed_login_method");
    t.post(
        SIWS_INIT,
        json!({"address": bs58::encode([7u8; 32]).into_string()}),
    )
    .send()
    .await
    .assert_error(403, "disallowed_login_method");
    // Without Origin there is no site to check the message's domain against.
    t.post(SIWE_INIT, json!({"address": key.address().to_checksum()}))
        .without("origin")
        .send()
        .await
        .assert_error(403, "missing_origin");
}

/// Issue 19: anyone may ask for nonces of any address. A flood of `/siwe/init` for someone's
/// address (with the production limits) is answered and evicts the oldest nonces: the owner's
/// fresh init still signs in, and the address never holds more than the cap.
async fn a_nonce_flood_evicts_the_oldest_and_never_locks_the_owner_out(backend: Backend) {
    let t = TestApp::start_with(backend, |c| {
        c.rate_limit.email_per_window = RateLimitConfig::default().email_per_window;
    })
    .await;
    t.set_settings(settings(&["email", "wallet"])).await;
    let owner = new_key();
    let address = owner.address().to_checksum();
    let cap = i64::try_from(MAX_LIVE_NONCES_PER_ADDRESS).unwrap();
    let stored = || {
        t.state
            .db
            .count_wallet_nonces(&t.app_id, "ethereum", &address)
    };
    // The attacker knows only the address; 50 inits, in any case of it, are all answered.
    for i in 0..50 {
        let asked = if i % 2 == 0 {
            address.clone()
        } else {
            address.to_ascii_lowercase()
        };
        let reply = t.post(SIWE_INIT, json!({ "address": asked })).send().await;
        assert_eq!(reply.status, 200, "init {i}: {}", reply.text);
    }
    assert_eq!(stored().await.unwrap(), cap);
    // The owner's fresh init signs in.
    let ok = siwe_login(&t, &owner).await;
    assert_eq!(ok.status, 200, "{}", ok.text);
    // Up to cap - 1 inits between the owner's init and sign-in leave its nonce live.
    let (text, signature) = signed_siwe(&t, &owner).await;
    for _ in 1..MAX_LIVE_NONCES_PER_ADDRESS {
        nonce(&t, SIWE_INIT, &address).await;
    }
    let ok = t.post(SIWE_AUTH, siwe_body(&text, &signature)).send().await;
    assert_eq!(ok.status, 200, "{}", ok.text);
    // A full cap of them evicts it (the flooded owner asks again, and that works).
    let (text, signature) = signed_siwe(&t, &owner).await;
    for _ in 0..MAX_LIVE_NONCES_PER_ADDRESS {
        nonce(&t, SIWE_INIT, &address).await;
    }
    t.post(SIWE_AUTH, siwe_body(&text, &signature))
        .send()
        .await
        .assert_error(401, "invalid_credentials");
    let again = siwe_login(&t, &owner).await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert!(stored().await.unwrap() <= cap);
    // SIWS shares the store and its cap.
    let solana = bs58::encode([9u8; 32]).into_string();
    for _ in 0..15 {
        nonce(&t, SIWS_INIT, &solana).await;
    }
    let siws = t.state.db.count_wallet_nonces(&t.app_id, "solana", &solana);
    assert_eq!(siws.await.unwrap(), cap);
}

/// Eviction and insert are one write: concurrent inits for one address never leave it more
/// than the cap of nonces, and the owner signs in afterwards.
async fn concurrent_inits_keep_an_address_within_its_nonce_cap(backend: Backend) {
    let t = Arc::new(start(backend).await);
    let owner = new_key();
    let address = owner.address().to_checksum();
    let mut set = JoinSet::new();
    for _ in 0..40 {
        let (t, address) = (t.clone(), address.clone());
        set.spawn(async move { nonce(&t, SIWE_INIT, &address).await });
    }
    let mut answered = Vec::new();
    while let Some(nonce) = set.join_next().await {
        answered.push(nonce.unwrap());
    }
    assert_eq!(answered.len(), 40);
    let cap = i64::try_from(MAX_LIVE_NONCES_PER_ADDRESS).unwrap();
    let stored = t
        .state
        .db
        .count_wallet_nonces(&t.app_id, "ethereum", &address)
        .await
        .unwrap();
    assert!((1..=cap).contains(&stored), "{stored} nonces stored");
    let ok = siwe_login(&t, &owner).await;
    assert_eq!(ok.status, 200, "{}", ok.text);
}

async fn an_embedded_wallet_cannot_log_in_link_or_be_unlinked(backend: Backend) {
    let t = start(backend).await;
    let session = t.login(&unique_email()).await;
    let user_id = session["user"]["id"].as_str().unwrap();
    // The user exported their embedded wallet's key and tries it as an external wallet.
    let key = new_key();
    let wallet = symbolon_server::db::wallets::EmbeddedWalletRecord {
        id: symbolon_server::random::random_id(25).unwrap(),
        app_id: t.app_id.clone(),
        user_id: user_id.into(),
        address: key.address().to_checksum(),
        chain_type: "ethereum".into(),
        wallet_index: 0,
        recovery_method: "privy".into(),
        imported: false,
        created_at: 1,
    };
    t.state
        .db
        .create_embedded_wallet(&wallet, None, &[])
        .await
        .unwrap();
    let login = siwe_login(&t, &key).await;
    login.assert_error(400, "invalid_data");
    assert_eq!(
        login.body["error"],
        "Cannot link or login with embedded wallet"
    );
    let (text, signature) = signed_siwe(&t, &key).await;
    let link = t
        .post(SIWE_LINK, siwe_body(&text, &signature))
        .bearer(&token(&session))
        .send()
        .await;
    link.assert_error(400, "invalid_data");
    assert_eq!(
        link.body["error"],
        "Cannot link or login with embedded wallet"
    );
    let unlink = t
        .post(SIWE_UNLINK, json!({"address": key.address().to_checksum()}))
        .bearer(&token(&session))
        .send()
        .await;
    unlink.assert_error(400, "cannot_unlink_embedded_wallet");
    assert_eq!(unlink.body["error"], "Cannot unlink an embedded wallet");
}

async fn link_unlink_and_transfer_rules(backend: Backend) {
    let t = start(backend).await;
    let email_session = t.login(&unique_email()).await;
    let bearer = token(&email_session);
    // An email user links two wallets (any number of wallets, spec §9).
    let (one, two) = (new_key(), new_key());
    for key in [&one, &two] {
        let (text, signature) = signed_siwe(&t, key).await;
        let mut body = siwe_body(&text, &signature);
        body["walletClientType"] = json!("rabby_wallet");
        let linked = t.post(SIWE_LINK, body).bearer(&bearer).send().await;
        assert_eq!(linked.status, 200, "{}", linked.text);
    }
    let me = t.get("/api/v1/users/me").bearer(&bearer).send().await;
    let shown = wallets(&me.body["user"]);
    assert_eq!(shown.len(), 2, "{}", me.text);
    assert!(
        shown
            .iter()
            .all(|w| w["wallet_client_type"] == "rabby_wallet")
    );
    // Linking needs a session.
    let (text, signature) = signed_siwe(&t, &new_key()).await;
    t.post(SIWE_LINK, siwe_body(&text, &signature))
        .send()
        .await
        .assert_error(401, "missing_or_invalid_token");
    // Unlink: one wallet goes (any case of the address), an unknown one is not found.
    let unlinked = t
        .post(
            SIWE_UNLINK,
            json!({"address": one.address().to_checksum().to_ascii_lowercase()}),
        )
        .bearer(&bearer)
        .send()
        .await;
    assert_eq!(unlinked.status, 200, "{}", unlinked.text);
    assert_eq!(wallets(&unlinked.body).len(), 1);
    t.post(SIWE_UNLINK, json!({"address": one.address().to_checksum()}))
        .bearer(&bearer)
        .send()
        .await
        .assert_error(404, "linked_account_not_found");

    // A wallet-only user cannot unlink their only way in.
    let solo = new_key();
    let solo_session = siwe_login(&t, &solo).await;
    assert_eq!(solo_session.status, 200, "{}", solo_session.text);
    t.post(
        SIWE_UNLINK,
        json!({"address": solo.address().to_checksum()}),
    )
    .bearer(&token(&solo_session.body))
    .send()
    .await
    .assert_error(422, "cannot_unlink_sole_account");

    // The email user links the solo user's wallet: a transfer is offered, and moves it.
    let (text, signature) = signed_siwe(&t, &solo).await;
    let offered = t
        .post(SIWE_LINK, siwe_body(&text, &signature))
        .bearer(&bearer)
        .send()
        .await;
    offered.assert_error(403, "account_transfer_required");
    let transfer_nonce = offered.body["data"]["nonce"].as_str().unwrap().to_string();
    assert_eq!(offered.body["data"]["account_type"], "wallet");
    assert_eq!(
        offered.body["data"]["external_wallet_metadata"]["walletClientType"],
        "metamask"
    );
    let moved = t
        .post(
            SIWE_TRANSFER,
            json!({
                "nonce": transfer_nonce,
                "address": solo.address().to_checksum(),
                "metadata": {"walletClientType": "coinbase_wallet", "connectorType": "coinbase_wallet"},
            }),
        )
        .bearer(&bearer)
        .send()
        .await;
    assert_eq!(moved.status, 200, "{}", moved.text);
    let moved_wallet = wallets(&moved.body)
        .into_iter()
        .find(|w| w["address"] == solo.address().to_checksum())
        .expect("moved");
    assert_eq!(moved_wallet["wallet_client_type"], "coinbase_wallet");
    t.post(
        SIWE_TRANSFER,
        json!({"nonce": transfer_nonce, "address": solo.address().to_checksum()}),
    )
    .bearer(&bearer)
    .send()
    .await
    .assert_error(401, "token_already_used");
    // The wallet now signs the email user in.
    let back = siwe_login(&t, &solo).await;
    assert_eq!(back.status, 200, "{}", back.text);
    assert_eq!(back.body["user"]["id"], email_session["user"]["id"]);
}

async fn an_erc1271_contract_wallet_signs_in(backend: Backend) {
    let t = start(backend).await;
    let owner = new_key();
    let wallet = deploy_wallet(&owner).await;
    let login = |signer: PrivateKey| {
        let t = &t;
        async move {
            let nonce = nonce(t, SIWE_INIT, &wallet.to_checksum()).await;
            let text = Siwe::new(&wallet, &nonce).text();
            t.post(SIWE_AUTH, siwe_body(&text, &sign(&signer, &text)))
                .send()
                .await
        }
    };
    // Without an RPC endpoint for the chain, a contract signature cannot be checked.
    let no_rpc = login(owner.clone()).await;
    no_rpc.assert_error(401, "invalid_credentials");
    assert!(no_rpc.text.contains("RPC"), "{}", no_rpc.text);
    t.set_settings(with_rpc(settings(&["email", "wallet"])))
        .await;
    let ok = login(owner.clone()).await;
    assert_eq!(ok.status, 200, "{}", ok.text);
    assert_eq!(
        wallets(&ok.body["user"])[0]["address"],
        wallet.to_checksum()
    );
    // The contract refuses a stranger's signature.
    login(new_key())
        .await
        .assert_error(401, "invalid_credentials");
}

/// Issue 19: the identity precompile (0x…04) answers `isValidSignature` with the call itself,
/// whose first 4 bytes are the magic value. Only the exact 32-byte ABI answer counts.
async fn an_answer_that_only_starts_with_the_erc1271_magic_value_is_refused(backend: Backend) {
    let t = start(backend).await;
    t.set_settings(with_rpc(settings(&["email", "wallet"])))
        .await;
    let echo = Address::parse("0x0000000000000000000000000000000000000004").unwrap();
    let nonce_value = nonce(&t, SIWE_INIT, &echo.to_checksum()).await;
    let text = Siwe::new(&echo, &nonce_value).text();
    let refused = t.post(SIWE_AUTH, siwe_body(&text, "0x00")).send().await;
    refused.assert_error(401, "invalid_credentials");
    assert!(refused.body.get("token").is_none(), "{}", refused.text);
}

async fn an_undeployed_erc6492_wallet_signs_in_and_links_as_smart_wallet(backend: Backend) {
    let t = start(backend).await;
    t.set_settings(with_rpc(settings(&["email", "wallet"])))
        .await;
    let owner = new_key();
    let salt = random_bytes::<32>().unwrap();
    let factory = deploy(include_str!("../contracts/test_wallet_factory.hex"), &[]).await;
    let wallet = counterfactual_address(&factory, &owner, salt).await;
    let nonce_value = nonce(&t, SIWE_INIT, &wallet.to_checksum()).await;
    let text = Siwe::new(&wallet, &nonce_value).text();
    // The owner's plain signature is not the wallet's (it has no code yet, and is no EOA).
    t.post(SIWE_AUTH, siwe_body(&text, &sign(&owner, &text)))
        .send()
        .await
        .assert_error(401, "invalid_credentials");
    // Wrapped for a stranger's wallet deployment, it does not verify either.
    let stranger = counterfactual_signature(&factory, &new_key(), salt, &text);
    t.post(SIWE_AUTH, siwe_body(&text, &stranger))
        .send()
        .await
        .assert_error(401, "invalid_credentials");
    let signature = counterfactual_signature(&factory, &owner, salt, &text);
    let code = rpc("eth_getCode", json!([wallet.to_checksum(), "latest"])).await;
    assert_eq!(code, "0x", "not deployed");
    let ok = t.post(SIWE_AUTH, siwe_body(&text, &signature)).send().await;
    assert_eq!(ok.status, 200, "{}", ok.text);
    // The check ran inside eth_call: still not deployed.
    let code = rpc("eth_getCode", json!([wallet.to_checksum(), "latest"])).await;
    assert_eq!(code, "0x");

    // An email user links a smart wallet (deployed, EIP-1271) with link_smart_wallet.
    let session = t.login(&unique_email()).await;
    let smart = deploy_wallet(&owner).await;
    let nonce_value = nonce(&t, SIWE_INIT, &smart.to_checksum()).await;
    let text = Siwe::new(&smart, &nonce_value).text();
    let linked = t
        .post(
            SIWE_SMART,
            json!({
                "message": text,
                "signature": sign(&owner, &text),
                "smart_wallet_type": "kernel",
                "smart_wallet_version": "v3.1",
            }),
        )
        .bearer(&token(&session))
        .send()
        .await;
    assert_eq!(linked.status, 200, "{}", linked.text);
    // Stored with its kind (not a spec §3 linked-account type, so not in the user's list).
    let user_id = session["user"]["id"].as_str().unwrap();
    let stored = t.state.db.linked_accounts(user_id).await.unwrap();
    let account = stored
        .iter()
        .find(|a| a.account_type == "smart_wallet")
        .expect("smart wallet stored");
    assert_eq!(account.subject, smart.to_checksum());
    let details: Value = serde_json::from_str(account.details.as_deref().unwrap()).unwrap();
    assert_eq!(details["smart_wallet_type"], "kernel");
    assert_eq!(details["smart_wallet_version"], "v3.1");
    // A smart wallet is no way in: the email stays the sole account.
    let email = session["user"]["linked_accounts"][0]["address"]
        .as_str()
        .unwrap();
    t.post("/api/v1/passwordless/unlink", json!({ "address": email }))
        .bearer(&token(&session))
        .send()
        .await
        .assert_error(422, "cannot_unlink_sole_account");
}

fn smart_body(text: &str, signature: &str) -> Value {
    json!({
        "message": text,
        "signature": signature,
        "smart_wallet_type": "kernel",
        "smart_wallet_version": "v3.1",
    })
}

/// Issue 19: `link_smart_wallet` links contracts only. An ordinary wallet's (EOA's) own
/// signature, plain or wrapped as EIP-6492 around any factory call, links nothing.
async fn link_smart_wallet_refuses_an_ordinary_wallet(backend: Backend) {
    let t = start(backend).await;
    t.set_settings(with_rpc(settings(&["email", "wallet"])))
        .await;
    let session = t.login(&unique_email()).await;
    let user_id = session["user"]["id"].as_str().unwrap().to_string();
    let eoa = new_key();
    let address = eoa.address();
    let link = |signature: String, text: String| {
        let (t, bearer) = (&t, token(&session));
        async move {
            t.post(SIWE_SMART, smart_body(&text, &signature))
                .bearer(&bearer)
                .send()
                .await
        }
    };
    let text = Siwe::new(
        &address,
        &nonce(&t, SIWE_INIT, &address.to_checksum()).await,
    )
    .text();
    let plain = link(sign(&eoa, &text), text.clone()).await;
    plain.assert_error(400, "invalid_data");
    assert!(plain.text.contains("ordinary wallet"), "{}", plain.text);
    // The refusal spent no nonce; wrapped for a factory that deploys elsewhere, the EOA's own
    // signature finds no code at its address.
    let factory = deploy(include_str!("../contracts/test_wallet_factory.hex"), &[]).await;
    let wrapped = counterfactual_signature(&factory, &eoa, random_bytes::<32>().unwrap(), &text);
    link(wrapped, text)
        .await
        .assert_error(401, "invalid_credentials");
    let stored = t.state.db.linked_accounts(&user_id).await.unwrap();
    assert!(stored.iter().all(|a| a.account_type != "smart_wallet"));
}

/// Issue 19: an embedded wallet's address (here one with code, as an EIP-7702 delegation gives
/// it) is never linked as another user's smart wallet.
async fn link_smart_wallet_refuses_an_embedded_wallet(backend: Backend) {
    let t = start(backend).await;
    t.set_settings(with_rpc(settings(&["email", "wallet"])))
        .await;
    let owner_session = t.login(&unique_email()).await;
    let key = new_key();
    let contract = deploy_wallet(&key).await;
    let wallet = symbolon_server::db::wallets::EmbeddedWalletRecord {
        id: symbolon_server::random::random_id(25).unwrap(),
        app_id: t.app_id.clone(),
        user_id: owner_session["user"]["id"].as_str().unwrap().into(),
        address: contract.to_checksum(),
        chain_type: "ethereum".into(),
        wallet_index: 0,
        recovery_method: "privy".into(),
        imported: false,
        created_at: 1,
    };
    t.state
        .db
        .create_embedded_wallet(&wallet, None, &[])
        .await
        .unwrap();
    let other = t.login(&unique_email()).await;
    let text = Siwe::new(
        &contract,
        &nonce(&t, SIWE_INIT, &contract.to_checksum()).await,
    )
    .text();
    let refused = t
        .post(SIWE_SMART, smart_body(&text, &sign(&key, &text)))
        .bearer(&token(&other))
        .send()
        .await;
    refused.assert_error(400, "invalid_data");
    assert_eq!(
        refused.body["error"],
        "Cannot link or login with embedded wallet"
    );
    let user_id = other["user"]["id"].as_str().unwrap();
    let stored = t.state.db.linked_accounts(user_id).await.unwrap();
    assert!(stored.iter().all(|a| a.account_type != "smart_wallet"));
}

/// The published vanilla client's SIWS text (wire.md): its own statement naming the signer,
/// `Chain ID: mainnet` and a `Resources` list. Domain, nonce, address and time still bind it.
async fn siws_accepts_the_vanilla_clients_message(backend: Backend) {
    let t = start(backend).await;
    let key = ed25519_dalek::SigningKey::from_bytes(&random_bytes::<32>().unwrap());
    let address = bs58::encode(key.verifying_key().to_bytes()).into_string();
    let message = |nonce: &str, domain: &str, named: &str| {
        format!(
            "{domain} wants you to sign in with your Solana account:\n{address}\n\n\
             You are proving you own {named}.\n\nURI: {URI}\nVersion: 1\nChain ID: mainnet\n\
             Nonce: {nonce}\nIssued At: {}\nResources:\n- https://privy.io",
            rfc3339(0)
        )
    };
    use ed25519_dalek::Signer;
    let body = |text: &str| {
        json!({"message": text, "signature": STANDARD.encode(key.sign(text.as_bytes()).to_bytes()),
               "message_type": "plain", "walletClientType": "phantom",
               "connectorType": "solana_adapter"})
    };
    let text = message(&nonce(&t, SIWS_INIT, &address).await, DOMAIN, &address);
    let ok = t.post(SIWS_AUTH, body(&text)).send().await;
    assert_eq!(ok.status, 200, "{}", ok.text);
    assert_eq!(wallets(&ok.body["user"])[0]["address"], address);
    // A statement naming another key, another domain, an unknown nonce: refused.
    let fresh = nonce(&t, SIWS_INIT, &address).await;
    let other = bs58::encode([7u8; 32]).into_string();
    t.post(SIWS_AUTH, body(&message(&fresh, DOMAIN, &other)))
        .send()
        .await
        .assert_error(400, "invalid_data");
    t.post(SIWS_AUTH, body(&message(&fresh, "evil.example", &address)))
        .send()
        .await
        .assert_error(400, "invalid_data");
    t.post(SIWS_AUTH, body(&message("notissued1", DOMAIN, &address)))
        .send()
        .await
        .assert_error(401, "invalid_credentials");
    // The refusals left the nonce unspent.
    let again = t
        .post(SIWS_AUTH, body(&message(&fresh, DOMAIN, &address)))
        .send()
        .await;
    assert_eq!(again.status, 200, "{}", again.text);
}

async fn siws_login_link_and_bad_signatures(backend: Backend) {
    let t = start(backend).await;
    let key = ed25519_dalek::SigningKey::from_bytes(&random_bytes::<32>().unwrap());
    let address = bs58::encode(key.verifying_key().to_bytes()).into_string();
    let message = |nonce: &str, domain: &str| {
        format!(
            "{domain} wants you to sign in with your Solana account:\n{address}\n\n{SIWE_STATEMENT}\n\n\
             URI: {URI}\nVersion: 1\nChain ID: mainnet\nNonce: {nonce}\nIssued At: {}",
            rfc3339(0)
        )
    };
    use ed25519_dalek::Signer;
    let sign64 = |text: &str| key.sign(text.as_bytes()).to_bytes();
    let body = |text: &str, signature: String| {
        json!({"message": text, "signature": signature, "message_type": "plain",
               "walletClientType": "phantom", "connectorType": "solana_adapter"})
    };

    let text = message(&nonce(&t, SIWS_INIT, &address).await, DOMAIN);
    let ok = t
        .post(SIWS_AUTH, body(&text, STANDARD.encode(sign64(&text))))
        .send()
        .await;
    assert_eq!(ok.status, 200, "{}", ok.text);
    assert_eq!(ok.body["is_new_user"], true);
    let wallet = &wallets(&ok.body["user"])[0];
    assert_eq!(wallet["address"], address);
    assert_eq!(wallet["chain_type"], "solana");
    assert_eq!(wallet["wallet_client_type"], "phantom");
    // Replay: the nonce is spent.
    t.post(SIWS_AUTH, body(&text, STANDARD.encode(sign64(&text))))
        .send()
        .await
        .assert_error(401, "invalid_credentials");
    // base58 signatures are accepted too; the same user signs in.
    let text = message(&nonce(&t, SIWS_INIT, &address).await, DOMAIN);
    let again = t
        .post(
            SIWS_AUTH,
            body(&text, bs58::encode(sign64(&text)).into_string()),
        )
        .send()
        .await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.body["user"]["id"], ok.body["user"]["id"]);
    // A flipped bit, another key's signature, another domain, a transaction message type.
    let text = message(&nonce(&t, SIWS_INIT, &address).await, DOMAIN);
    let mut flipped = sign64(&text);
    flipped[10] ^= 1;
    t.post(SIWS_AUTH, body(&text, STANDARD.encode(flipped)))
        .send()
        .await
        .assert_error(401, "invalid_credentials");
    let other = ed25519_dalek::SigningKey::from_bytes(&random_bytes::<32>().unwrap());
    t.post(
        SIWS_AUTH,
        body(
            &text,
            STANDARD.encode(other.sign(text.as_bytes()).to_bytes()),
        ),
    )
    .send()
    .await
    .assert_error(401, "invalid_credentials");
    t.post(SIWS_AUTH, body(&text, "AAAA".into()))
        .send()
        .await
        .assert_error(400, "invalid_data");
    let evil = message("whatever123", "evil.example");
    t.post(SIWS_AUTH, body(&evil, STANDARD.encode(sign64(&evil))))
        .send()
        .await
        .assert_error(400, "invalid_data");
    let mut transaction = body(&text, STANDARD.encode(sign64(&text)));
    transaction["message_type"] = json!("transaction");
    t.post(SIWS_AUTH, transaction)
        .send()
        .await
        .assert_error(400, "invalid_data");
    // Still unspent after all that.
    let ok = t
        .post(SIWS_AUTH, body(&text, STANDARD.encode(sign64(&text))))
        .send()
        .await;
    assert_eq!(ok.status, 200, "{}", ok.text);

    // Link a second Solana wallet to an email user, then unlink it.
    let session = t.login(&unique_email()).await;
    let second = ed25519_dalek::SigningKey::from_bytes(&random_bytes::<32>().unwrap());
    let second_address = bs58::encode(second.verifying_key().to_bytes()).into_string();
    let nonce_value = nonce(&t, SIWS_INIT, &second_address).await;
    let text = message(&nonce_value, DOMAIN).replace(&address, &second_address);
    let linked = t
        .post(
            SIWS_LINK,
            body(
                &text,
                STANDARD.encode(second.sign(text.as_bytes()).to_bytes()),
            ),
        )
        .bearer(&token(&session))
        .send()
        .await;
    assert_eq!(linked.status, 200, "{}", linked.text);
    assert_eq!(wallets(&linked.body)[0]["address"], second_address);
    let unlinked = t
        .post(SIWS_UNLINK, json!({"address": second_address}))
        .bearer(&token(&session))
        .send()
        .await;
    assert_eq!(unlinked.status, 200, "{}", unlinked.text);
    assert!(wallets(&unlinked.body).is_empty());
}

async fn the_allowlist_matches_wallets_in_any_case(backend: Backend) {
    let t = TestApp::start(backend).await;
    let (listed, stranger) = (new_key(), new_key());
    let mut app = settings(&["email", "wallet"]);
    app.allowlist = Some(Allowlist {
        wallet_addresses: vec![
            listed
                .address()
                .to_checksum()
                .to_ascii_uppercase()
                .replace("0X", "0x"),
        ],
        ..Allowlist::default()
    });
    t.set_settings(app.checked().unwrap()).await;
    let ok = siwe_login(&t, &listed).await;
    assert_eq!(ok.status, 200, "{}", ok.text);
    siwe_login(&t, &stranger)
        .await
        .assert_error(403, "allowlist_rejected");
}
