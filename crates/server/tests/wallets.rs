//! Embedded wallets: registration, share storage and release to the wallet frame only, the
//! frame page and its assets (`docs/wallet.md`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::PathBuf;

use axum::http::{Method, StatusCode};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use common::{Backend, CLIENT_ID, ORIGIN, PUBLIC_URL, Reply, TestApp, unique_email};
use serde_json::{Value, json};
use symbolon_server::random::random_id;
use symbolon_wallet_core::{
    Address, Entropy, Share, ShareAad, ShareKind, ShareSet, combine_shares, decrypt_share,
    derive_wallet_key, split_entropy,
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
    resplit_replaces_both_shares,
    stored_shares_are_sealed_under_separate_keys,
    embedded_wallets_cannot_be_unlinked,
    frame_page_carries_the_app_origins,
    frame_page_errors_are_html,
    frame_assets_are_served_without_traversal,
);

/// A user's wallet material as the frame holds it.
struct Material {
    entropy: Entropy,
    shares: ShareSet,
}

impl Material {
    fn new() -> Self {
        let entropy = Entropy::generate().unwrap();
        let shares = split_entropy(&entropy).unwrap();
        Self { entropy, shares }
    }

    fn address(&self, index: u32) -> String {
        derive_wallet_key(&self.entropy, index)
            .unwrap()
            .address()
            .to_checksum()
    }

    fn root_body(&self) -> Value {
        json!({
            "chain_type": "ethereum",
            "address": self.address(0),
            "wallet_index": 0,
            "recovery_method": "privy",
            "auth_share": b64(&self.shares.auth),
            "recovery_share": b64(&self.shares.recovery),
        })
    }
}

fn b64(share: &Share) -> String {
    STANDARD.encode(share.as_bytes())
}

fn share(text: &Value) -> Share {
    Share::from_bytes(&STANDARD.decode(text.as_str().expect("share")).unwrap()).unwrap()
}

/// Signs a fresh user in; returns the access token.
async fn sign_in(t: &TestApp) -> String {
    let session = t.login(&unique_email()).await;
    session["token"].as_str().expect("token").to_string()
}

/// A call as the wallet frame makes it: same origin as the server, Bearer token.
async fn frame_post(t: &TestApp, path: &str, token: &str, body: Value) -> Reply {
    t.post(path, body)
        .header("origin", PUBLIC_URL)
        .bearer(token)
        .send()
        .await
}

async fn create_root(t: &TestApp, token: &str, material: &Material) -> Value {
    let reply = frame_post(t, CREATE, token, material.root_body()).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body
}

fn key_material_path(address: &str) -> String {
    format!("/api/v1/embedded_wallets/{address}/recovery/key_material")
}

async fn key_material(t: &TestApp, token: &str, address: &str) -> Reply {
    frame_post(
        t,
        &key_material_path(address),
        token,
        json!({ "chain_type": "ethereum" }),
    )
    .await
}

fn wallets(user: &Value) -> Vec<Value> {
    user["linked_accounts"]
        .as_array()
        .expect("linked_accounts")
        .iter()
        .filter(|a| a["type"] == "wallet")
        .cloned()
        .collect()
}

fn assert_message(reply: &Reply, status: u16, code: &str, message: &str) {
    reply.assert_error(status, code);
    assert_eq!(reply.body["error"], message, "{}", reply.text);
}

async fn create_lists_the_wallet_in_server_form(backend: Backend) {
    let t = TestApp::start(backend).await;
    let session = t.login(&unique_email()).await;
    let token = session["token"].as_str().unwrap();
    let material = Material::new();
    // Lower-case in, checksummed out.
    let mut body = material.root_body();
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

    let reply = key_material(&t, &token, &material.address(0)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["address"], material.address(0));
    assert_eq!(reply.body["chain_type"], "ethereum");
    assert_eq!(reply.body["wallet_index"], 0);
    assert_eq!(reply.body["recovery_method"], "privy");
    let auth = share(&reply.body["auth_share"]);
    let recovery = share(&reply.body["recovery_share"]);
    assert_eq!(auth, material.shares.auth);
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
    let reply = t
        .post(CREATE, material.root_body())
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
    let mut implicit = material.root_body();
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

    let reply = frame_post(&t, CREATE, &token, additional(1)).await;
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
    let reply = key_material(&t, &token, &material.address(1)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["address"], material.address(1));
    assert_eq!(reply.body["wallet_index"], 1);
    assert_eq!(share(&reply.body["auth_share"]), material.shares.auth);
}

async fn resplit_replaces_both_shares(backend: Backend) {
    let t = TestApp::start(backend).await;
    let token = sign_in(&t).await;
    let material = Material::new();
    create_root(&t, &token, &material).await;
    let fresh = split_entropy(&material.entropy).unwrap();
    let path = format!("/api/v1/embedded_wallets/{}/shares", material.address(0));
    let body = json!({
        "chain_type": "ethereum",
        "auth_share": b64(&fresh.auth),
        "recovery_share": b64(&fresh.recovery),
    });

    let other = sign_in(&t).await;
    frame_post(&t, &path, &other, body.clone())
        .await
        .assert_error(404, "linked_account_not_found");
    let mut swapped = body.clone();
    swapped["auth_share"] = json!(b64(&fresh.recovery));
    assert_message(
        &frame_post(&t, &path, &token, swapped).await,
        400,
        "invalid_data",
        "auth_share is a recovery share, expected the auth share",
    );
    // Refused calls changed nothing.
    let before = key_material(&t, &token, &material.address(0)).await;
    assert_eq!(share(&before.body["auth_share"]), material.shares.auth);

    let reply = frame_post(&t, &path, &token, body).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body, json!({ "address": material.address(0) }));
    let after = key_material(&t, &token, &material.address(0)).await;
    let auth = share(&after.body["auth_share"]);
    let recovery = share(&after.body["recovery_share"]);
    assert_eq!(auth, fresh.auth);
    assert_eq!(recovery, fresh.recovery);
    assert!(combine_shares(&[fresh.device.clone(), auth]).unwrap() == material.entropy);
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
    let reply = t
        .post(
            &key_material_path(&material.address(0)),
            json!({ "chain_type": "ethereum" }),
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
        "No wallet with this address is linked to the user",
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
    // The export view is the same page; the frame reads the query itself.
    let export = frame_get(
        &t,
        &format!(
            "/apps/{}/embedded-wallets?mode=export&address=0xabc",
            t.app_id
        ),
    )
    .send()
    .await;
    assert_eq!(export.status, StatusCode::OK);
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
