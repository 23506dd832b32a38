//! Embedded wallets: registration, share storage and release to the wallet frame only, the
//! frame page and its assets (`docs/wallet.md`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::PathBuf;
use std::sync::Arc;

use axum::http::{Method, StatusCode};
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use common::{Backend, CLIENT_ID, Capture, ORIGIN, PUBLIC_URL, Reply, TestApp, unique_email};
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature as P256Signature, SigningKey};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use symbolon_server::random::random_id;
use symbolon_wallet_core::chains::ethereum::{Address, derive_wallet_key, personal_sign};
use symbolon_wallet_core::{
    Entropy, Share, ShareAad, ShareKind, ShareSet, combine_shares, decrypt_share, split_entropy,
};

const CREATE: &str = "/api/v1/embedded_wallets";

backend_tests!(
    create_lists_the_wallet_in_server_form,
    key_material_rebuilds_the_same_wallet,
    shares_go_only_to_their_owner_in_the_frame,
    frame_calls_may_leave_out_the_app_header,
    malformed_wallets_and_shares_are_invalid_data,
    unsupported_chains_and_recovery_methods_are_refused,
    wallet_indexes_follow_in_order,
    resplit_needs_recovery_and_the_root_key_and_keeps_history,
    a_token_alone_never_gets_two_shares,
    recovery_is_once_per_fresh_session_even_concurrently,
    recoveries_are_capped_per_user,
    auth_share_needs_this_devices_signature,
    challenges_are_single_use_and_expire,
    concurrent_use_of_one_nonce_succeeds_once,
    create_needs_a_proof_from_the_wallet_key,
    key_material_is_rate_limited,
    releases_and_refusals_are_audited,
    stored_shares_are_sealed_under_separate_keys,
    embedded_wallets_cannot_be_unlinked,
    frame_page_carries_the_app_origins,
    frame_page_errors_are_html,
    frame_assets_are_served_without_traversal,
    a_stale_session_cannot_plant_the_root_wallet,
    a_returning_guest_is_not_a_fresh_sign_in,
);

/// A user's wallet material as the frame holds it, with the frame's device key.
pub(crate) struct Material {
    pub(crate) entropy: Entropy,
    pub(crate) shares: ShareSet,
    pub(crate) device: SigningKey,
}

impl Material {
    pub(crate) fn new() -> Self {
        let entropy = Entropy::generate().unwrap();
        let shares = split_entropy(&entropy).unwrap();
        Self {
            entropy,
            shares,
            device: device_key(),
        }
    }

    pub(crate) fn address(&self, index: u32) -> String {
        derive_wallet_key(&self.entropy, index)
            .unwrap()
            .address()
            .to_checksum()
    }

    fn device_public_key(&self) -> String {
        public_key_of(&self.device)
    }

    /// The create body for index 0, without its proof.
    fn root_body(&self) -> Value {
        json!({
            "chain_type": "ethereum",
            "address": self.address(0),
            "wallet_index": 0,
            "recovery_method": "privy",
            "auth_share": b64(&self.shares.auth),
            "recovery_share": b64(&self.shares.recovery),
            "device_public_key": self.device_public_key(),
        })
    }

    /// `personal_sign` of `message` by the key at `index`.
    fn sign(&self, index: u32, message: &str) -> String {
        let key = derive_wallet_key(&self.entropy, index).unwrap();
        personal_sign(&key, message.as_bytes()).unwrap().to_hex()
    }
}

pub(crate) fn device_key() -> SigningKey {
    SigningKey::from_slice(&symbolon_server::random::random_bytes::<32>().unwrap()).unwrap()
}

pub(crate) fn public_key_of(key: &SigningKey) -> String {
    STANDARD.encode(key.verifying_key().to_encoded_point(false).as_bytes())
}

pub(crate) fn b64(share: &Share) -> String {
    STANDARD.encode(share.as_bytes())
}

pub(crate) fn share(text: &Value) -> Share {
    Share::from_bytes(&STANDARD.decode(text.as_str().expect("share")).unwrap()).unwrap()
}

/// Signs a fresh user in; returns the access token.
pub(crate) async fn sign_in(t: &TestApp) -> String {
    let session = t.login(&unique_email()).await;
    session["token"].as_str().expect("token").to_string()
}

/// A claim of an access token (unverified; tests only).
pub(crate) fn claim(token: &str, name: &str) -> String {
    let payload = URL_SAFE_NO_PAD
        .decode(token.split('.').nth(1).unwrap())
        .unwrap();
    let claims: Value = serde_json::from_slice(&payload).unwrap();
    claims[name].as_str().unwrap().to_string()
}

/// A call as the wallet frame makes it: same origin as the server, Bearer token.
pub(crate) async fn frame_post(t: &TestApp, path: &str, token: &str, body: Value) -> Reply {
    t.post(path, body)
        .header("origin", PUBLIC_URL)
        .bearer(token)
        .send()
        .await
}

/// A fresh challenge nonce for `purpose`.
pub(crate) async fn challenge(t: &TestApp, token: &str, purpose: &str) -> String {
    let reply = frame_post(
        t,
        "/api/v1/embedded_wallets/challenge",
        token,
        json!({ "chain_type": "ethereum", "purpose": purpose }),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body["nonce"].as_str().unwrap().to_string()
}

pub(crate) fn digest(auth: &Share, recovery: &Share) -> String {
    let mut hash = Sha256::new();
    hash.update(auth.as_bytes());
    hash.update(recovery.as_bytes());
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The wallet proof message, built here independently of the server's code.
#[allow(clippy::too_many_arguments)]
pub(crate) fn proof_message(
    purpose: &str,
    app: &str,
    user: &str,
    address: &str,
    index: u32,
    shares: Option<(&Share, &Share)>,
    device: Option<&str>,
    nonce: &str,
) -> String {
    let shares = shares.map_or_else(|| "none".to_string(), |(a, r)| digest(a, r));
    format!(
        "Symbolon wallet proof\npurpose: {purpose}\napp: {app}\nuser: {user}\naddress: {}\nwallet index: {index}\nshares: {shares}\ndevice key: {}\nnonce: {nonce}",
        address.to_lowercase(),
        device.unwrap_or("none")
    )
}

pub(crate) fn unlock_message(app: &str, user: &str, address: &str, nonce: &str) -> String {
    format!(
        "Symbolon wallet proof\npurpose: key_material\napp: {app}\nuser: {user}\naddress: {}\nnonce: {nonce}",
        address.to_lowercase()
    )
}

/// `body` (a create body for `index`) with a fresh challenge and the wallet key's proof.
pub(crate) async fn prove_create(
    t: &TestApp,
    token: &str,
    material: &Material,
    mut body: Value,
) -> Value {
    let index = u32::try_from(body["wallet_index"].as_u64().unwrap()).unwrap();
    let nonce = challenge(t, token, "create").await;
    let shares = (index == 0).then_some((&material.shares.auth, &material.shares.recovery));
    let device = body["device_public_key"].as_str().map(str::to_string);
    let message = proof_message(
        "create",
        &t.app_id,
        &claim(token, "sub"),
        body["address"].as_str().unwrap(),
        index,
        shares,
        device.as_deref(),
        &nonce,
    );
    body["nonce"] = json!(nonce);
    body["signature"] = json!(material.sign(index, &message));
    if index > 0 {
        body["root_signature"] = json!(material.sign(0, &message));
    }
    body
}

pub(crate) async fn create_root(t: &TestApp, token: &str, material: &Material) -> Value {
    let body = prove_create(t, token, material, material.root_body()).await;
    let reply = frame_post(t, CREATE, token, body).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body
}

pub(crate) fn key_material_path(address: &str) -> String {
    format!("/api/v1/embedded_wallets/{address}/recovery/key_material")
}

/// key_material with no proof at all (what a stolen token alone can send).
pub(crate) async fn key_material(t: &TestApp, token: &str, address: &str) -> Reply {
    frame_post(
        t,
        &key_material_path(address),
        token,
        json!({ "chain_type": "ethereum" }),
    )
    .await
}

/// key_material signed by `device` over a fresh challenge (a known device's unlock).
pub(crate) async fn unlock(t: &TestApp, token: &str, device: &SigningKey, address: &str) -> Reply {
    unlock_with(t, token, device, address, json!({})).await
}

/// [`unlock`] with more body fields (`intent`, `mfa_token`).
pub(crate) async fn unlock_with(
    t: &TestApp,
    token: &str,
    device: &SigningKey,
    address: &str,
    extra: Value,
) -> Reply {
    let nonce = challenge(t, token, "key_material").await;
    let message = unlock_message(&t.app_id, &claim(token, "sub"), address, &nonce);
    let signature: P256Signature = device.sign(message.as_bytes());
    let mut body = json!({
        "chain_type": "ethereum",
        "nonce": nonce,
        "device_signature": STANDARD.encode(signature.to_bytes()),
    });
    merge(&mut body, extra);
    frame_post(t, &key_material_path(address), token, body).await
}

/// key_material with `recovery: true` (a new device).
pub(crate) async fn recover(t: &TestApp, token: &str, address: &str) -> Reply {
    recover_with(t, token, address, json!({})).await
}

/// [`recover`] with more body fields (`intent`, `mfa_token`).
pub(crate) async fn recover_with(t: &TestApp, token: &str, address: &str, extra: Value) -> Reply {
    let mut body = json!({ "chain_type": "ethereum", "recovery": true });
    merge(&mut body, extra);
    frame_post(t, &key_material_path(address), token, body).await
}

fn merge(body: &mut Value, extra: Value) {
    if let (Some(body), Value::Object(extra)) = (body.as_object_mut(), extra) {
        body.extend(extra);
    }
}

/// The number of share-history rows of the user.
async fn history_len(t: &TestApp, user_id: &str) -> i64 {
    let (count,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM wallet_share_history WHERE user_id = $1")
            .bind(user_id)
            .fetch_one(t.state.db.pool())
            .await
            .unwrap();
    count
}

pub(crate) fn wallets(user: &Value) -> Vec<Value> {
    user["linked_accounts"]
        .as_array()
        .expect("linked_accounts")
        .iter()
        .filter(|a| a["type"] == "wallet")
        .cloned()
        .collect()
}

pub(crate) fn assert_message(reply: &Reply, status: u16, code: &str, message: &str) {
    reply.assert_error(status, code);
    assert_eq!(reply.body["error"], message, "{}", reply.text);
}

async fn create_lists_the_wallet_in_server_form(backend: Backend) {
    let t = TestApp::start(backend).await;
    let session = t.login(&unique_email()).await;
    let token = session["token"].as_str().unwrap();
    let material = Material::new();
    // Lower-case in, checksummed out.
    let mut body = prove_create(&t, token, &material, material.root_body()).await;
    body["address"] = json!(material.address(0).to_lowercase());
    let reply = frame_post(&t, CREATE, token, body).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);

    let wallet = &reply.body["wallet"];
    let id = wallet["id"].as_str().expect("wallet id");
    assert!(!id.is_empty());
    let verified = wallet["verified_at"].as_i64().expect("verified_at");
    assert_eq!(
        *wallet,
        json!({
            "type": "wallet",
            "id": id,
            "address": material.address(0),
            "chain_type": "ethereum",
            "wallet_client_type": "privy",
            "connector_type": "embedded",
            "wallet_index": 0,
            "recovery_method": "privy",
            "imported": false,
            "delegated": false,
            "verified_at": verified,
            "first_verified_at": verified,
            "latest_verified_at": verified,
        })
    );
    assert_eq!(wallets(&reply.body["user"]), vec![wallet.clone()]);
    assert_eq!(reply.body["user"]["linked_accounts"][0]["type"], "email");

    // The host sees it in /users/me and after a refresh (the refresh path reads accounts itself).
    let me = t.get("/api/v1/users/me").bearer(token).send().await;
    assert_eq!(wallets(&me.body["user"]), vec![wallet.clone()]);
    let refreshed = t
        .post(
            "/api/v1/sessions",
            json!({ "refresh_token": session["refresh_token"] }),
        )
        .send()
        .await;
    assert_eq!(refreshed.status, StatusCode::OK, "{}", refreshed.text);
    assert_eq!(wallets(&refreshed.body["user"]), vec![wallet.clone()]);
}

async fn key_material_rebuilds_the_same_wallet(backend: Backend) {
    let t = TestApp::start(backend).await;
    let token = sign_in(&t).await;
    let material = Material::new();
    create_root(&t, &token, &material).await;

    // A known device: its key's signature gets the auth share only.
    let reply = unlock(&t, &token, &material.device, &material.address(0)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["address"], material.address(0));
    assert_eq!(reply.body["chain_type"], "ethereum");
    assert_eq!(reply.body["wallet_index"], 0);
    assert_eq!(reply.body["recovery_method"], "privy");
    assert_eq!(reply.body["recovery_share"], Value::Null);
    let auth = share(&reply.body["auth_share"]);
    assert_eq!(auth, material.shares.auth);

    // A new device in a fresh sign-in: recovery releases both.
    let reply = recover(&t, &token, &material.address(0)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let recovery = share(&reply.body["recovery_share"]);
    assert_eq!(share(&reply.body["auth_share"]), material.shares.auth);
    assert_eq!(recovery, material.shares.recovery);
    // Device + auth (a known device) and auth + recovery (a new device) both rebuild the wallet.
    for pair in [
        [material.shares.device.clone(), auth.clone()],
        [auth, recovery],
    ] {
        let entropy = combine_shares(&pair).unwrap();
        assert!(entropy == material.entropy);
        assert_eq!(
            derive_wallet_key(&entropy, 0)
                .unwrap()
                .address()
                .to_checksum(),
            material.address(0)
        );
    }
}

async fn shares_go_only_to_their_owner_in_the_frame(backend: Backend) {
    let t = TestApp::start(backend).await;
    let token = sign_in(&t).await;
    let material = Material::new();
    create_root(&t, &token, &material).await;
    let address = material.address(0);
    let path = key_material_path(&address);
    let body = json!({ "chain_type": "ethereum" });

    let other = sign_in(&t).await;
    assert_message(
        &key_material(&t, &other, &address).await,
        404,
        "linked_account_not_found",
        "No embedded wallet with this address belongs to the user",
    );
    assert_message(
        &key_material(&t, &token, &Material::new().address(0)).await,
        404,
        "linked_account_not_found",
        "No embedded wallet with this address belongs to the user",
    );
    let anonymous = t
        .post(&path, body.clone())
        .header("origin", PUBLIC_URL)
        .send()
        .await;
    assert_message(
        &anonymous,
        401,
        "missing_or_invalid_token",
        "Missing access token",
    );
    let forged = frame_post(&t, &path, "not.a.token", body.clone()).await;
    forged.assert_error(401, "missing_or_invalid_token");

    // A host page, even with the owner's token, gets nothing and cannot read the answer.
    let host = t.post(&path, body.clone()).bearer(&token).send().await;
    assert_message(
        &host,
        403,
        "invalid_origin",
        "Wallet requests must come from the wallet frame",
    );
    assert_eq!(host.header("access-control-allow-origin"), None);
    let no_origin = t
        .post(&path, body.clone())
        .without("origin")
        .bearer(&token)
        .send()
        .await;
    assert_message(&no_origin, 403, "missing_origin", "Missing Origin header");
    let preflight = t
        .request(Method::OPTIONS, &path)
        .without("privy-app-id")
        .without("content-type")
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "authorization,content-type",
        )
        .send()
        .await;
    assert_eq!(preflight.header("access-control-allow-origin"), None);
    assert_ne!(preflight.status, StatusCode::OK);
    for (path, body) in [
        (CREATE.to_string(), material.root_body()),
        (
            format!("/api/v1/embedded_wallets/{address}/shares"),
            json!({}),
        ),
    ] {
        let host = t.post(&path, body).bearer(&token).send().await;
        host.assert_error(403, "invalid_origin");
    }
}

async fn frame_calls_may_leave_out_the_app_header(backend: Backend) {
    let t = TestApp::start(backend).await;
    let token = sign_in(&t).await;
    let material = Material::new();
    // The app is then the token's audience, still fully verified.
    let body = prove_create(&t, &token, &material, material.root_body()).await;
    let reply = t
        .post(CREATE, body)
        .without("privy-app-id")
        .header("origin", PUBLIC_URL)
        .bearer(&token)
        .send()
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let other_app = t.create_app(false).await;
    let wrong_app = t
        .post(
            &key_material_path(&material.address(0)),
            json!({ "chain_type": "ethereum" }),
        )
        .header("privy-app-id", &other_app)
        .header("origin", PUBLIC_URL)
        .bearer(&token)
        .send()
        .await;
    wrong_app.assert_error(401, "missing_or_invalid_token");
    let unknown_app = t
        .post(
            &key_material_path(&material.address(0)),
            json!({ "chain_type": "ethereum" }),
        )
        .header("privy-app-id", &"x".repeat(25))
        .header("origin", PUBLIC_URL)
        .bearer(&token)
        .send()
        .await;
    assert_message(
        &unknown_app,
        400,
        "missing_or_invalid_privy_app_id",
        "Invalid app id",
    );
    let wrong_client = t
        .post(
            &key_material_path(&material.address(0)),
            json!({ "chain_type": "ethereum" }),
        )
        .header("privy-client-id", "someone-else")
        .header("origin", PUBLIC_URL)
        .bearer(&token)
        .send()
        .await;
    assert_message(
        &wrong_client,
        400,
        "missing_or_invalid_privy_client_id",
        "Invalid client id",
    );
}

async fn malformed_wallets_and_shares_are_invalid_data(backend: Backend) {
    let t = TestApp::start(backend).await;
    let token = sign_in(&t).await;
    let material = Material::new();
    let with = |field: &str, value: Value| {
        let mut body = material.root_body();
        body[field] = value;
        body
    };
    let cases = [
        (
            with("auth_share", json!(b64(&material.shares.recovery))),
            "auth_share is a recovery share, expected the auth share",
        ),
        (
            with("recovery_share", json!(b64(&material.shares.device))),
            "recovery_share is a device share, expected the recovery share",
        ),
        (
            with("auth_share", json!("***not base64***")),
            "auth_share is not valid base64",
        ),
        (
            with("auth_share", json!(STANDARD.encode([2u8; 16]))),
            "auth_share must be a 17-byte share (identifier and 16 bytes)",
        ),
        (
            with("recovery_share", Value::Null),
            "recovery_share is required for wallet index 0",
        ),
        (
            with("address", json!("0x1234")),
            "Invalid wallet address: invalid address: \"0x1234\" has 4 hex characters, expected 40",
        ),
        (
            with("address", json!(format!("0x{}", "zz".repeat(20)))),
            &format!(
                "Invalid wallet address: invalid address: \"0x{}\" is not hex",
                "zz".repeat(20)
            ),
        ),
    ];
    for (body, message) in cases {
        let reply = frame_post(&t, CREATE, &token, body).await;
        assert_message(&reply, 400, "invalid_data", message);
    }
    // A bad EIP-55 checksum is refused, not silently fixed.
    let checksummed = material.address(0);
    let flipped: String = checksummed
        .chars()
        .map(|c| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else if c.is_ascii_lowercase() && c != 'x' {
                c.to_ascii_uppercase()
            } else {
                c
            }
        })
        .collect();
    if flipped.chars().any(|c| c.is_ascii_uppercase())
        && flipped.chars().any(|c| c.is_ascii_lowercase() && c != 'x')
    {
        let reply = frame_post(&t, CREATE, &token, with("address", json!(flipped))).await;
        reply.assert_error(400, "invalid_data");
    }
    let chain = frame_post(&t, CREATE, &token, with("chain_type", json!("bitcoin"))).await;
    chain.assert_error(400, "invalid_data");
    assert!(chain.body["error"].as_str().unwrap().contains("bitcoin"));
    let index = frame_post(&t, CREATE, &token, with("wallet_index", json!(-1))).await;
    index.assert_error(400, "invalid_data");
    // Nothing was stored by the refused calls.
    let me = t.get("/api/v1/users/me").bearer(&token).send().await;
    assert!(wallets(&me.body["user"]).is_empty());
    // The path address is checked too.
    let reply = key_material(&t, &token, "0xnope").await;
    reply.assert_error(400, "invalid_data");
}

async fn unsupported_chains_and_recovery_methods_are_refused(backend: Backend) {
    let t = TestApp::start(backend).await;
    let token = sign_in(&t).await;
    let material = Material::new();
    let mut solana = material.root_body();
    solana["chain_type"] = json!("solana");
    assert_message(
        &frame_post(&t, CREATE, &token, solana).await,
        400,
        "not_supported",
        "Solana embedded wallets are not supported yet",
    );
    let mut passcode = material.root_body();
    passcode["recovery_method"] = json!("user-passcode");
    assert_message(
        &frame_post(&t, CREATE, &token, passcode).await,
        400,
        "disallowed_recovery_method",
        "Recovery method user-passcode is not supported; use privy",
    );
    // Absent means privy.
    let mut implicit = prove_create(&t, &token, &material, material.root_body()).await;
    implicit.as_object_mut().unwrap().remove("recovery_method");
    let reply = frame_post(&t, CREATE, &token, implicit).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["wallet"]["recovery_method"], "privy");
}

async fn wallet_indexes_follow_in_order(backend: Backend) {
    let t = TestApp::start(backend).await;
    let token = sign_in(&t).await;
    let material = Material::new();
    let additional = |index: u32| {
        json!({
            "chain_type": "ethereum",
            "address": material.address(index),
            "wallet_index": index,
            "recovery_method": "privy",
        })
    };
    assert_message(
        &frame_post(&t, CREATE, &token, additional(1)).await,
        400,
        "invalid_data",
        "Create the wallet at index 0 before adding more",
    );
    create_root(&t, &token, &material).await;
    let again = frame_post(&t, CREATE, &token, Material::new().root_body()).await;
    assert_message(
        &again,
        400,
        "resource_already_exists",
        "An embedded wallet already exists at index 0",
    );
    assert_message(
        &frame_post(&t, CREATE, &token, additional(2)).await,
        400,
        "invalid_data",
        "The next wallet index is 1",
    );
    let mut with_shares = additional(1);
    with_shares["auth_share"] = json!(b64(&material.shares.auth));
    assert_message(
        &frame_post(&t, CREATE, &token, with_shares).await,
        400,
        "invalid_data",
        "Shares are only sent for wallet index 0; later wallets reuse them",
    );
    let mut reused = additional(1);
    reused["address"] = json!(material.address(0));
    assert_message(
        &frame_post(&t, CREATE, &token, reused).await,
        400,
        "resource_already_exists",
        "A wallet with this address already exists",
    );

    // Index 1 signed by its own key but not by the root key is refused.
    let mut unrooted = prove_create(&t, &token, &material, additional(1)).await;
    unrooted["root_signature"] = json!(Material::new().sign(0, "anything"));
    frame_post(&t, CREATE, &token, unrooted)
        .await
        .assert_error(403, "invalid_credentials");
    let body = prove_create(&t, &token, &material, additional(1)).await;
    let reply = frame_post(&t, CREATE, &token, body).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["wallet"]["wallet_index"], 1);
    assert_eq!(reply.body["wallet"]["address"], material.address(1));
    let listed = wallets(&reply.body["user"]);
    assert_eq!(listed.len(), 2);
    assert_eq!(listed[0]["wallet_index"], 0);
    assert_eq!(listed[1]["wallet_index"], 1);

    // Another user cannot claim an address that is taken.
    let other = sign_in(&t).await;
    let mut stolen = Material::new().root_body();
    stolen["address"] = json!(material.address(1));
    frame_post(&t, CREATE, &other, stolen)
        .await
        .assert_error(400, "resource_already_exists");

    // Any wallet's key material is the root shares.
    let reply = unlock(&t, &token, &material.device, &material.address(1)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["address"], material.address(1));
    assert_eq!(reply.body["wallet_index"], 1);
    assert_eq!(share(&reply.body["auth_share"]), material.shares.auth);
}

async fn resplit_needs_recovery_and_the_root_key_and_keeps_history(backend: Backend) {
    let t = TestApp::start(backend).await;
    let token = sign_in(&t).await;
    let user_id = claim(&token, "sub");
    let material = Material::new();
    create_root(&t, &token, &material).await;
    let fresh = split_entropy(&material.entropy).unwrap();
    let new_device = device_key();
    let root = material.address(0);
    let path = format!("/api/v1/embedded_wallets/{root}/shares");
    let body_for = |nonce: &str, signer: &Material| {
        let message = proof_message(
            "replace_shares",
            &t.app_id,
            &user_id,
            &root,
            0,
            Some((&fresh.auth, &fresh.recovery)),
            Some(&public_key_of(&new_device)),
            nonce,
        );
        json!({
            "chain_type": "ethereum",
            "auth_share": b64(&fresh.auth),
            "recovery_share": b64(&fresh.recovery),
            "device_public_key": public_key_of(&new_device),
            "nonce": nonce,
            "signature": signer.sign(0, &message),
        })
    };

    let other = sign_in(&t).await;
    frame_post(&t, &path, &other, json!({ "chain_type": "ethereum", "auth_share": b64(&fresh.auth), "recovery_share": b64(&fresh.recovery), "device_public_key": public_key_of(&new_device) }))
        .await
        .assert_error(404, "linked_account_not_found");
    let mut swapped = body_for("n", &material);
    swapped["auth_share"] = json!(b64(&fresh.recovery));
    assert_message(
        &frame_post(&t, &path, &token, swapped).await,
        400,
        "invalid_data",
        "auth_share is a recovery share, expected the auth share",
    );
    // A token alone, even with a valid root-key proof: the session has not recovered.
    let nonce = challenge(&t, &token, "replace_shares").await;
    assert_message(
        &frame_post(&t, &path, &token, body_for(&nonce, &material)).await,
        403,
        "invalid_credentials",
        "Sign in again to recover your wallet on this device",
    );
    // After recovery, still not without the root key's proof.
    assert_eq!(recover(&t, &token, &root).await.status, StatusCode::OK);
    let no_proof = json!({
        "chain_type": "ethereum",
        "auth_share": b64(&fresh.auth),
        "recovery_share": b64(&fresh.recovery),
        "device_public_key": public_key_of(&new_device),
    });
    frame_post(&t, &path, &token, no_proof)
        .await
        .assert_error(403, "invalid_credentials");
    let nonce = challenge(&t, &token, "replace_shares").await;
    assert_message(
        &frame_post(&t, &path, &token, body_for(&nonce, &Material::new())).await,
        403,
        "invalid_credentials",
        "The wallet proof is not signed by this wallet's key",
    );
    // Refused calls changed nothing and kept no history.
    assert_eq!(history_len(&t, &user_id).await, 0);
    let before = unlock(&t, &token, &material.device, &root).await;
    assert_eq!(share(&before.body["auth_share"]), material.shares.auth);

    let nonce = challenge(&t, &token, "replace_shares").await;
    let reply = frame_post(&t, &path, &token, body_for(&nonce, &material)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body, json!({ "address": root }));
    // The new device key unlocks the new auth share; the old device key no longer does.
    let after = unlock(&t, &token, &new_device, &root).await;
    let auth = share(&after.body["auth_share"]);
    assert_eq!(auth, fresh.auth);
    assert!(combine_shares(&[fresh.device.clone(), auth]).unwrap() == material.entropy);
    unlock(&t, &token, &material.device, &root)
        .await
        .assert_error(403, "invalid_credentials");
    // The old envelopes are kept for an operator to restore.
    assert_eq!(history_len(&t, &user_id).await, 1);
    let (kept_key,): (Option<String>,) =
        sqlx::query_as("SELECT device_public_key FROM wallet_share_history WHERE user_id = $1")
            .bind(&user_id)
            .fetch_one(t.state.db.pool())
            .await
            .unwrap();
    assert_eq!(kept_key, Some(material.device_public_key()));

    // The operator's undo (docs/wallet.md "Undoing a share replace") restores the old split.
    let mut tx = t.state.db.writer().begin().await.unwrap();
    for undo in [
        "UPDATE wallet_auth_shares SET envelope = h.auth_envelope, device_public_key = h.device_public_key, updated_at = $2
           FROM (SELECT * FROM wallet_share_history WHERE user_id = $1 AND chain_type = 'ethereum'
                 ORDER BY replaced_at DESC LIMIT 1) h
           WHERE wallet_auth_shares.user_id = h.user_id AND wallet_auth_shares.chain_type = h.chain_type",
        "UPDATE wallet_recovery_shares SET envelope = h.recovery_envelope, updated_at = $2
           FROM (SELECT * FROM wallet_share_history WHERE user_id = $1 AND chain_type = 'ethereum'
                 ORDER BY replaced_at DESC LIMIT 1) h
           WHERE wallet_recovery_shares.user_id = h.user_id AND wallet_recovery_shares.chain_type = h.chain_type",
    ] {
        sqlx::query(undo)
            .bind(&user_id)
            .bind(t.state.clock.now())
            .execute(&mut *tx)
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();
    let restored = unlock(&t, &token, &material.device, &root).await;
    assert_eq!(restored.status, StatusCode::OK, "{}", restored.text);
    assert_eq!(share(&restored.body["auth_share"]), material.shares.auth);
}

async fn stored_shares_are_sealed_under_separate_keys(backend: Backend) {
    let t = TestApp::start(backend).await;
    let token = sign_in(&t).await;
    let material = Material::new();
    let created = create_root(&t, &token, &material).await;
    let user_id = created["user"]["id"].as_str().unwrap().to_string();

    let read = |table: &'static str| {
        let pool = t.state.db.pool().clone();
        let user_id = user_id.clone();
        async move {
            let rows: Vec<(String, String, String)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT user_id, chain_type, envelope FROM {table}"
            )))
            .fetch_all(&pool)
            .await
            .unwrap();
            assert_eq!(rows.len(), 1, "{table}");
            assert_eq!(rows[0].0, user_id);
            assert_eq!(rows[0].1, "ethereum");
            STANDARD.decode(&rows[0].2).unwrap()
        }
    };
    let auth_envelope = read("wallet_auth_shares").await;
    let recovery_envelope = read("wallet_recovery_shares").await;
    for envelope in [&auth_envelope, &recovery_envelope] {
        for plain in [&material.shares.auth, &material.shares.recovery] {
            assert!(
                !envelope
                    .windows(plain.as_bytes().len())
                    .any(|w| w == plain.as_bytes()),
                "plaintext share stored"
            );
        }
    }
    // No column anywhere holds a share in its wire (base64) form either.
    let wallet_rows: Vec<(String, String, String, String)> =
        sqlx::query_as("SELECT id, address, chain_type, recovery_method FROM embedded_wallets")
            .fetch_all(t.state.db.pool())
            .await
            .unwrap();
    let dump = format!("{wallet_rows:?}");
    assert!(!dump.contains(&b64(&material.shares.auth)));
    assert!(!dump.contains(&b64(&material.shares.recovery)));

    let key = |value: &Option<symbolon_server::config::Redacted>| {
        STANDARD.decode(&value.as_ref().unwrap().0).unwrap()
    };
    let auth_key = key(&t.state.config.auth_share_key);
    let recovery_key = key(&t.state.config.recovery_share_key);
    let root = Address::parse(&material.address(0)).unwrap();
    let aad = |kind| ShareAad {
        kind,
        address: root,
        user_id: &user_id,
    };
    let opened = decrypt_share(&auth_key, &aad(ShareKind::Auth), &auth_envelope).unwrap();
    assert_eq!(opened, material.shares.auth);
    let opened =
        decrypt_share(&recovery_key, &aad(ShareKind::Recovery), &recovery_envelope).unwrap();
    assert_eq!(opened, material.shares.recovery);
    assert!(decrypt_share(&recovery_key, &aad(ShareKind::Auth), &auth_envelope).is_err());
    assert!(decrypt_share(&auth_key, &aad(ShareKind::Recovery), &recovery_envelope).is_err());

    // A server with other keys cannot open them: key material fails without leaking anything.
    let other_keys = symbolon_server::AppState::new(
        {
            let mut config = (*t.state.config).clone();
            let fresh = common::test_config(config.database_url.clone());
            config.auth_share_key = fresh.auth_share_key;
            config.recovery_share_key = fresh.recovery_share_key;
            config
        },
        t.state.db.clone(),
        t.state.mailer.clone(),
        t.state.clock.clone(),
    )
    .await
    .unwrap();
    let router = symbolon_server::app(other_keys);
    let nonce = challenge(&t, &token, "key_material").await;
    let message = unlock_message(&t.app_id, &user_id, &material.address(0), &nonce);
    let signature: P256Signature = material.device.sign(message.as_bytes());
    let reply = t
        .post(
            &key_material_path(&material.address(0)),
            json!({
                "chain_type": "ethereum",
                "nonce": nonce,
                "device_signature": STANDARD.encode(signature.to_bytes()),
            }),
        )
        .header("origin", PUBLIC_URL)
        .bearer(&token)
        .via(&router)
        .send()
        .await;
    assert_message(&reply, 500, "internal_error", "Internal server error");
}

async fn embedded_wallets_cannot_be_unlinked(backend: Backend) {
    let t = TestApp::start(backend).await;
    let token = sign_in(&t).await;
    let material = Material::new();
    create_root(&t, &token, &material).await;
    let unlink = |address: String, token: String| {
        t.post("/api/v1/siwe/unlink", json!({ "address": address }))
            .bearer(&token)
            .send()
    };
    let reply = unlink(material.address(0), token.clone()).await;
    assert_message(
        &reply,
        400,
        "cannot_unlink_embedded_wallet",
        "Cannot unlink an embedded wallet",
    );
    // Called from the host page: normal CORS.
    assert_eq!(reply.header("access-control-allow-origin"), Some(ORIGIN));
    let lower = unlink(material.address(0).to_lowercase(), token.clone()).await;
    lower.assert_error(400, "cannot_unlink_embedded_wallet");
    let unknown = unlink(Material::new().address(0), token.clone()).await;
    assert_message(
        &unknown,
        404,
        "linked_account_not_found",
        "No such account is linked to this user",
    );
    let other = sign_in(&t).await;
    unlink(material.address(0), other)
        .await
        .assert_error(404, "linked_account_not_found");
    let no_origin = t
        .post(
            "/api/v1/siwe/unlink",
            json!({ "address": material.address(0) }),
        )
        .without("origin")
        .bearer(&token)
        .send()
        .await;
    no_origin.assert_error(403, "missing_origin");
    // Still linked.
    let me = t.get("/api/v1/users/me").bearer(&token).send().await;
    assert_eq!(wallets(&me.body["user"]).len(), 1);
}

/// A built frame in a temporary directory, with a file next to it that must stay private.
fn frame_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("symbolon-frame-{}", random_id(12).unwrap()));
    std::fs::create_dir_all(dir.join("dist/assets")).unwrap();
    std::fs::write(
        dir.join("dist/index.html"),
        "<!doctype html><html><head><meta charset=\"utf-8\"><script type=\"module\" src=\"/embedded-wallets/assets/index-abc.js\"></script></head><body></body></html>",
    )
    .unwrap();
    std::fs::write(dir.join("dist/assets/index-abc.js"), "export {};").unwrap();
    std::fs::write(dir.join("dist/assets/core_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
    std::fs::write(dir.join("dist/assets/style.css"), "body{}").unwrap();
    std::fs::write(dir.join("dist/secret.txt"), "top secret").unwrap();
    dir
}

async fn start_with_frame(backend: Backend, dir: &std::path::Path) -> TestApp {
    let dist = dir.join("dist");
    TestApp::start_with(backend, move |config| config.wallet_frame_dir = dist).await
}

fn frame_get<'a>(t: &'a TestApp, path: &str) -> common::Call<'a> {
    t.get(path)
        .without("privy-app-id")
        .without("origin")
        .without("content-type")
}

fn frame_csp(ancestors: &str) -> String {
    format!(
        "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors {ancestors}"
    )
}

fn assert_page_headers(reply: &Reply, ancestors: &str) {
    assert_eq!(
        reply.header("content-security-policy"),
        Some(frame_csp(ancestors).as_str())
    );
    assert_eq!(
        reply.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(reply.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(reply.header("referrer-policy"), Some("no-referrer"));
    assert_eq!(reply.header("cache-control"), Some("no-store"));
}

async fn frame_page_carries_the_app_origins(backend: Backend) {
    let dir = frame_dir();
    let t = start_with_frame(backend, &dir).await;
    // A second allowed origin shows in both lists.
    let mut app = t.state.db.find_app(&t.app_id).await.unwrap().unwrap();
    app.allowed_origins.push("https://shop.example:8443".into());
    t.state.db.upsert_app(&app, 0).await.unwrap();

    let path = format!(
        "/apps/{}/embedded-wallets?caid=c123&client_id={CLIENT_ID}",
        t.app_id
    );
    let reply = frame_get(&t, &path).send().await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let origins = format!("{ORIGIN} https://shop.example:8443");
    assert_page_headers(&reply, &origins);
    assert!(
        reply.text.starts_with(&format!(
            "<!doctype html><html><head><meta name=\"symbolon-allowed-origins\" content=\"{origins}\"><meta charset=\"utf-8\">"
        )),
        "{}",
        reply.text
    );
    assert_eq!(reply.text.matches("<script").count(), 1, "no inline script");
    // The export page is the same page at the path the published client opens; the frame reads
    // the path and query itself (the token stays in the fragment, which is never sent).
    let export = frame_get(
        &t,
        &format!(
            "/apps/{}/embedded-wallets/export?v=1&entropy_id=0xabc&entropy_id_verifier=ethereum-address-verifier&hd_wallet_index=0&chain_type=ethereum",
            t.app_id
        ),
    )
    .send()
    .await;
    assert_eq!(export.status, StatusCode::OK);
    assert_page_headers(&export, &origins);
    assert_eq!(export.text, reply.text, "one page, two paths");
    let _ = std::fs::remove_dir_all(&dir);
}

async fn frame_page_errors_are_html(backend: Backend) {
    let dir = frame_dir();
    let t = start_with_frame(backend, &dir).await;
    let unknown = frame_get(&t, &format!("/apps/{}/embedded-wallets", "z".repeat(25)))
        .send()
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert_page_headers(&unknown, "'none'");
    assert!(
        unknown.text.contains("<h1>Unknown app</h1>"),
        "{}",
        unknown.text
    );

    let client = frame_get(
        &t,
        &format!("/apps/{}/embedded-wallets?client_id=nobody", t.app_id),
    )
    .send()
    .await;
    assert_eq!(client.status, StatusCode::BAD_REQUEST);
    assert_page_headers(&client, ORIGIN);
    assert!(
        client.text.contains("This app has no such client id."),
        "{}",
        client.text
    );

    let _ = std::fs::remove_dir_all(&dir);
    let unbuilt = frame_get(&t, &format!("/apps/{}/embedded-wallets", t.app_id))
        .send()
        .await;
    assert_eq!(unbuilt.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_page_headers(&unbuilt, ORIGIN);
    assert!(
        unbuilt
            .text
            .contains("The wallet frame is not built on this server."),
        "{}",
        unbuilt.text
    );
}

async fn frame_assets_are_served_without_traversal(backend: Backend) {
    let dir = frame_dir();
    let t = start_with_frame(backend, &dir).await;
    for (file, content_type) in [
        ("core_bg.wasm", "application/wasm"),
        ("index-abc.js", "text/javascript; charset=utf-8"),
        ("style.css", "text/css; charset=utf-8"),
    ] {
        let reply = frame_get(&t, &format!("/embedded-wallets/assets/{file}"))
            .send()
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{file}");
        assert_eq!(reply.header("content-type"), Some(content_type));
        assert_eq!(
            reply.header("cache-control"),
            Some("public, max-age=31536000, immutable")
        );
        assert_eq!(reply.header("x-content-type-options"), Some("nosniff"));
    }
    let wasm = frame_get(&t, "/embedded-wallets/assets/core_bg.wasm")
        .send()
        .await;
    assert!(wasm.text.as_bytes().starts_with(b"\0asm"));

    for path in [
        "/embedded-wallets/assets/..%2Fsecret.txt",
        "/embedded-wallets/assets/..%2F..%2Fdist%2Fsecret.txt",
        "/embedded-wallets/assets/%2E%2E",
        "/embedded-wallets/assets/.hidden",
    ] {
        let reply = frame_get(&t, path).send().await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{path}");
        assert_eq!(reply.text, "Invalid asset name");
        assert!(!reply.text.contains("top secret"));
    }
    let missing = frame_get(&t, "/embedded-wallets/assets/nope.js")
        .send()
        .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(missing.text, "Not found");
    assert_eq!(
        missing.header("content-type"),
        Some("text/plain; charset=utf-8")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether a reply carries two shares (which rebuild the wallet without the device).
pub(crate) fn has_two_shares(reply: &Reply) -> bool {
    reply.body["auth_share"].is_string() && reply.body["recovery_share"].is_string()
}

async fn a_token_alone_never_gets_two_shares(backend: Backend) {
    let t = TestApp::start(backend).await;
    let session = t.login(&unique_email()).await;
    let token = session["token"].as_str().unwrap().to_string();
    let material = Material::new();
    create_root(&t, &token, &material).await;
    let address = material.address(0);

    // No device signature: nothing, even with the frame's Origin forged.
    let plain = key_material(&t, &token, &address).await;
    assert_message(
        &plain,
        403,
        "invalid_credentials",
        "A signed challenge is required",
    );
    assert!(plain.body.get("auth_share").is_none());
    // Recovery more than 10 minutes after the sign-in: refused, every time.
    t.state.clock.advance(11 * 60);
    for _ in 0..2 {
        let late = recover(&t, &token, &address).await;
        assert_message(
            &late,
            403,
            "invalid_credentials",
            "Sign in again to recover your wallet on this device",
        );
        assert!(!has_two_shares(&late));
    }
    let plain = key_material(&t, &token, &address).await;
    assert!(!has_two_shares(&plain));
    // A refresh token mints tokens of the same session: its sign-in time does not renew.
    let refreshed = t
        .post(
            "/api/v1/sessions",
            json!({ "refresh_token": session["refresh_token"] }),
        )
        .send()
        .await;
    assert_eq!(refreshed.status, StatusCode::OK, "{}", refreshed.text);
    let minted = refreshed.body["token"].as_str().unwrap().to_string();
    let late = recover(&t, &minted, &address).await;
    late.assert_error(403, "invalid_credentials");
    assert!(!has_two_shares(&late));
    // A forged "recovery": false with a made-up signature is no better.
    let forged = frame_post(
        &t,
        &key_material_path(&address),
        &token,
        json!({ "chain_type": "ethereum", "recovery": false, "nonce": "x", "device_signature": STANDARD.encode([0u8; 64]) }),
    )
    .await;
    forged.assert_error(403, "invalid_credentials");
    assert!(!has_two_shares(&forged));
}

async fn recovery_is_once_per_fresh_session_even_concurrently(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let first = t.login(&email).await["token"].as_str().unwrap().to_string();
    let material = Material::new();
    create_root(&t, &first, &material).await;
    let address = material.address(0);

    // Twice in one fresh session: the second is refused.
    assert!(has_two_shares(&recover(&t, &first, &address).await));
    let again = recover(&t, &first, &address).await;
    again.assert_error(403, "invalid_credentials");
    assert!(!has_two_shares(&again));

    // 20 at once in another fresh session: exactly one gets the shares.
    let fresh = t.login(&email).await["token"].as_str().unwrap().to_string();
    let t = Arc::new(t);
    let mut calls = tokio::task::JoinSet::new();
    for _ in 0..20 {
        let (t, token, address) = (t.clone(), fresh.clone(), address.clone());
        calls.spawn(async move { recover(&t, &token, &address).await });
    }
    let mut granted = 0;
    while let Some(reply) = calls.join_next().await {
        let reply = reply.unwrap();
        if has_two_shares(&reply) {
            granted += 1;
        } else {
            reply.assert_error(403, "invalid_credentials");
        }
    }
    assert_eq!(granted, 1);
}

async fn recoveries_are_capped_per_user(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let token = t.login(&email).await["token"].as_str().unwrap().to_string();
    let material = Material::new();
    create_root(&t, &token, &material).await;
    let address = material.address(0);
    assert!(has_two_shares(&recover(&t, &token, &address).await));
    for _ in 0..2 {
        let fresh = t.login(&email).await["token"].as_str().unwrap().to_string();
        assert!(has_two_shares(&recover(&t, &fresh, &address).await));
    }
    // A fourth fresh sign-in within the day: capped, and its own allowance is not used up.
    let fourth = t.login(&email).await["token"].as_str().unwrap().to_string();
    let capped = recover(&t, &fourth, &address).await;
    capped.assert_error(429, "too_many_requests");
    assert!(!has_two_shares(&capped));
    let (used,): (Option<i64>,) =
        sqlx::query_as("SELECT recovery_used_at FROM sessions WHERE id = $1")
            .bind(claim(&fourth, "sid"))
            .fetch_one(t.state.db.pool())
            .await
            .unwrap();
    assert_eq!(used, None);
}

async fn auth_share_needs_this_devices_signature(backend: Backend) {
    let t = TestApp::start(backend).await;
    let token = sign_in(&t).await;
    let material = Material::new();
    create_root(&t, &token, &material).await;
    let address = material.address(0);

    // Another device's key, or this key over another message, is refused.
    let stranger = unlock(&t, &token, &device_key(), &address).await;
    assert_message(
        &stranger,
        403,
        "invalid_credentials",
        "This device is not registered for the wallet; recover it",
    );
    assert!(stranger.body.get("auth_share").is_none());
    let nonce = challenge(&t, &token, "key_material").await;
    let other_user = unlock_message(&t.app_id, "did:privy:someone-else", &address, &nonce);
    let signature: P256Signature = material.device.sign(other_user.as_bytes());
    frame_post(
        &t,
        &key_material_path(&address),
        &token,
        json!({ "chain_type": "ethereum", "nonce": nonce, "device_signature": STANDARD.encode(signature.to_bytes()) }),
    )
    .await
    .assert_error(403, "invalid_credentials");

    let good = unlock(&t, &token, &material.device, &address).await;
    assert_eq!(good.status, StatusCode::OK, "{}", good.text);
    assert_eq!(share(&good.body["auth_share"]), material.shares.auth);
    assert_eq!(good.body["recovery_share"], Value::Null);
}

async fn challenges_are_single_use_and_expire(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let token = t.login(&email).await["token"].as_str().unwrap().to_string();
    let material = Material::new();
    create_root(&t, &token, &material).await;
    let address = material.address(0);
    let user = claim(&token, "sub");
    let signed = |nonce: &str| {
        let message = unlock_message(&t.app_id, &user, &address, nonce);
        let signature: P256Signature = material.device.sign(message.as_bytes());
        json!({ "chain_type": "ethereum", "nonce": nonce, "device_signature": STANDARD.encode(signature.to_bytes()) })
    };
    let path = key_material_path(&address);

    let reply = frame_post(
        &t,
        "/api/v1/embedded_wallets/challenge",
        &token,
        json!({ "chain_type": "ethereum", "purpose": "key_material" }),
    )
    .await;
    let expires_at = reply.body["expires_at"].as_i64().unwrap();
    assert!((expires_at - t.state.clock.now() - 120).abs() <= 2);
    let nonce = reply.body["nonce"].as_str().unwrap().to_string();
    assert_eq!(
        frame_post(&t, &path, &token, signed(&nonce)).await.status,
        StatusCode::OK
    );
    // Replayed: refused.
    assert_message(
        &frame_post(&t, &path, &token, signed(&nonce)).await,
        403,
        "invalid_credentials",
        "The challenge expired or was already used",
    );
    // A nonce for another purpose, or from another session of the same user: refused.
    let create_nonce = challenge(&t, &token, "create").await;
    frame_post(&t, &path, &token, signed(&create_nonce))
        .await
        .assert_error(403, "invalid_credentials");
    let other_session = t.login(&email).await["token"].as_str().unwrap().to_string();
    let foreign = challenge(&t, &other_session, "key_material").await;
    frame_post(&t, &path, &token, signed(&foreign))
        .await
        .assert_error(403, "invalid_credentials");
    // Expired after two minutes.
    let stale = challenge(&t, &token, "key_material").await;
    t.state.clock.advance(121);
    assert_message(
        &frame_post(&t, &path, &token, signed(&stale)).await,
        403,
        "invalid_credentials",
        "The challenge expired or was already used",
    );
    // Unknown purposes are invalid data.
    frame_post(
        &t,
        "/api/v1/embedded_wallets/challenge",
        &token,
        json!({ "chain_type": "ethereum", "purpose": "anything" }),
    )
    .await
    .assert_error(400, "invalid_data");
}

async fn concurrent_use_of_one_nonce_succeeds_once(backend: Backend) {
    let t = TestApp::start(backend).await;
    let token = sign_in(&t).await;
    let material = Material::new();
    create_root(&t, &token, &material).await;
    let address = material.address(0);
    let nonce = challenge(&t, &token, "key_material").await;
    let message = unlock_message(&t.app_id, &claim(&token, "sub"), &address, &nonce);
    let signature: P256Signature = material.device.sign(message.as_bytes());
    let body = json!({ "chain_type": "ethereum", "nonce": nonce, "device_signature": STANDARD.encode(signature.to_bytes()) });
    let t = Arc::new(t);
    let mut calls = tokio::task::JoinSet::new();
    for _ in 0..20 {
        let (t, token, body, path) = (
            t.clone(),
            token.clone(),
            body.clone(),
            key_material_path(&address),
        );
        calls.spawn(async move { frame_post(&t, &path, &token, body).await });
    }
    let mut released = 0;
    while let Some(reply) = calls.join_next().await {
        let reply = reply.unwrap();
        if reply.status == StatusCode::OK {
            released += 1;
        } else {
            reply.assert_error(403, "invalid_credentials");
        }
    }
    assert_eq!(released, 1);
}

async fn create_needs_a_proof_from_the_wallet_key(backend: Backend) {
    let t = TestApp::start(backend).await;
    let token = sign_in(&t).await;
    let material = Material::new();
    let other = Material::new();

    // No proof.
    assert_message(
        &frame_post(&t, CREATE, &token, material.root_body()).await,
        403,
        "invalid_credentials",
        "A signed challenge is required",
    );
    // Signed by another key.
    let mut wrong_key = prove_create(&t, &token, &material, material.root_body()).await;
    let message = "not the proof";
    wrong_key["signature"] = json!(other.sign(0, message));
    assert_message(
        &frame_post(&t, CREATE, &token, wrong_key).await,
        403,
        "invalid_credentials",
        "The wallet proof is not signed by this wallet's key",
    );
    // A valid proof for another address, sent for this one.
    let mut another_address = prove_create(&t, &token, &other, other.root_body()).await;
    another_address["address"] = json!(material.address(0));
    frame_post(&t, CREATE, &token, another_address)
        .await
        .assert_error(403, "invalid_credentials");
    // Tampered shares or device key after signing.
    let mut tampered = prove_create(&t, &token, &material, material.root_body()).await;
    tampered["recovery_share"] = json!(b64(&other.shares.recovery));
    frame_post(&t, CREATE, &token, tampered)
        .await
        .assert_error(403, "invalid_credentials");
    let mut swapped_device = prove_create(&t, &token, &material, material.root_body()).await;
    swapped_device["device_public_key"] = json!(public_key_of(&device_key()));
    frame_post(&t, CREATE, &token, swapped_device)
        .await
        .assert_error(403, "invalid_credentials");
    // Bad device keys are invalid data.
    let mut bad_device = material.root_body();
    bad_device["device_public_key"] = json!(STANDARD.encode([4u8; 65]));
    frame_post(&t, CREATE, &token, bad_device)
        .await
        .assert_error(400, "invalid_data");

    // Nothing stored by any of them.
    let me = t.get("/api/v1/users/me").bearer(&token).send().await;
    assert!(wallets(&me.body["user"]).is_empty());
    let (stored,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM wallet_auth_shares")
        .fetch_one(t.state.db.pool())
        .await
        .unwrap();
    assert_eq!(stored, 0);
    // The honest proof works.
    create_root(&t, &token, &material).await;
}

async fn key_material_is_rate_limited(backend: Backend) {
    let t = TestApp::start(backend).await;
    let token = sign_in(&t).await;
    let material = Material::new();
    create_root(&t, &token, &material).await;
    let address = material.address(0);
    for _ in 0..30 {
        key_material(&t, &token, &address)
            .await
            .assert_error(403, "invalid_credentials");
    }
    let limited = key_material(&t, &token, &address).await;
    limited.assert_error(429, "too_many_requests");
    assert!(limited.header("retry-after").is_some());
    // Even a good signature waits out the window.
    unlock(&t, &token, &material.device, &address)
        .await
        .assert_error(429, "too_many_requests");
    t.state.clock.advance(601);
    let later = unlock(&t, &token, &material.device, &address).await;
    assert_eq!(later.status, StatusCode::OK, "{}", later.text);
}

async fn releases_and_refusals_are_audited(backend: Backend) {
    let t = TestApp::start(backend).await;
    // This test's thread only (handlers run inline in the test's future).
    let capture = Capture::default();
    let writer = capture.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_env_filter("symbolon::audit=info")
        .without_time()
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);

    let token = sign_in(&t).await;
    let material = Material::new();
    create_root(&t, &token, &material).await;
    let address = material.address(0);
    key_material(&t, &token, &address).await;
    unlock(&t, &token, &device_key(), &address).await;
    unlock(&t, &token, &material.device, &address).await;
    recover(&t, &token, &address).await;
    recover(&t, &token, &address).await;

    let text = String::from_utf8_lossy(&capture.0.lock().unwrap()).to_string();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("symbolon::audit"))
        .collect();
    let expected = [
        ("create", "stored"),
        ("key_material", "refused_challenge"),
        ("key_material", "refused_device_signature"),
        ("key_material", "released_auth"),
        ("key_material_recovery", "released_auth_and_recovery"),
        ("key_material_recovery", "refused_stale_session"),
    ];
    assert_eq!(lines.len(), expected.len(), "{text}");
    for (line, (action, outcome)) in lines.iter().zip(expected) {
        for part in [
            format!("app={}", t.app_id),
            format!("user={}", claim(&token, "sub")),
            format!("session={}", claim(&token, "sid")),
            "ip=127.0.0.1".to_string(),
            format!("address={address}"),
            format!("action=\"{action}\""),
            format!("outcome=\"{outcome}\""),
        ] {
            assert!(line.contains(&part), "{part} missing in {line}");
        }
    }
    // No share travels into the log.
    for secret in [&material.shares.auth, &material.shares.recovery] {
        assert!(!text.contains(&b64(secret)));
    }
}

/// A thief's token of any age must not register a root wallet built from the thief's entropy: the
/// victim's frame would adopt it, and the thief would know the key of the victim's "own" wallet.
async fn a_stale_session_cannot_plant_the_root_wallet(backend: Backend) {
    let t = TestApp::start(backend).await;
    let email = unique_email();
    let token_of = |session: Value| session["token"].as_str().unwrap().to_string();
    let stolen = token_of(t.login(&email).await);
    t.state.clock.advance(11 * 60);
    let attacker = Material::new();
    let body = prove_create(&t, &stolen, &attacker, attacker.root_body()).await;
    let planted = frame_post(&t, CREATE, &stolen, body).await;
    assert_message(
        &planted,
        403,
        "invalid_credentials",
        "Sign in again to create your wallet",
    );
    let me = t.get("/api/v1/users/me").bearer(&stolen).send().await;
    assert_eq!(me.status, StatusCode::OK, "{}", me.text);
    assert!(
        !me.text.contains(&attacker.address(0)),
        "the planted wallet is listed: {}",
        me.text
    );
    // The user's own fresh sign-in creates theirs.
    let fresh = token_of(t.login(&email).await);
    create_root(&t, &fresh, &Material::new()).await;
}

/// A guest credential is a standing password in the host page's storage (XSS, a copied profile):
/// presenting it again signs the guest in, but never counts as a fresh sign-in, so it releases no
/// recovery share and registers no root wallet.
async fn a_returning_guest_is_not_a_fresh_sign_in(backend: Backend) {
    let t = TestApp::start(backend).await;
    t.set_settings(symbolon_server::app_settings::AppSettings {
        guest_accounts: true,
        ..Default::default()
    })
    .await;
    let credential = URL_SAFE_NO_PAD.encode(symbolon_server::random::random_bytes::<32>().unwrap());
    let guest = || async {
        let reply = t
            .post(
                "/api/v1/guest/authenticate",
                json!({ "guest_credential": credential }),
            )
            .send()
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        reply.body["token"].as_str().unwrap().to_string()
    };
    // The sign-up that creates the guest is fresh: its wallet is made then.
    let first = guest().await;
    let material = Material::new();
    create_root(&t, &first, &material).await;
    let address = material.address(0);

    let replayed = guest().await;
    assert_eq!(claim(&replayed, "sub"), claim(&first, "sub"));
    let recovery = recover(&t, &replayed, &address).await;
    assert_message(
        &recovery,
        403,
        "invalid_credentials",
        "Sign in again to recover your wallet on this device",
    );
    assert!(!has_two_shares(&recovery));
}
