//! Embedded wallets moving with their users to another server (`symbolon users transfer-key`,
//! `users export --wallets-to`, `users import`; docs/server-api.md "Moving embedded wallets"): the
//! destination holds other sealing and share keys; the user signs in there and their frame
//! recovers the same wallet. An export sealed to another server moves nothing and no half user.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::binary::{Server, symbolon};
use crate::common;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use common::{Backend, ORIGIN, fresh_database, remove_database_file, unique_email};
use serde_json::{Value, json};
use symbolon_wallet_core::chains::ethereum::derive_wallet_key;
use symbolon_wallet_core::{Share, combine_shares};

backend_tests!(embedded_wallets_move_with_their_users_to_a_server_with_other_keys);

/// One server's keys: sealing, auth share, recovery share (base64 of 32 bytes of `n`, `n+1`, `n+2`).
fn keys(n: u8) -> Vec<(&'static str, String)> {
    let key = |b: u8| STANDARD.encode([b; 32]);
    vec![
        ("SYMBOLON_KEY_ENCRYPTION_KEY", key(n)),
        ("SYMBOLON_AUTH_SHARE_KEY", key(n + 1)),
        ("SYMBOLON_RECOVERY_SHARE_KEY", key(n + 2)),
    ]
}

/// `symbolon args…` on `url` with `keys`; (success, stdout, stderr).
fn run(url: &str, keys: &[(&str, String)], args: &[&str]) -> (bool, String, String) {
    let out = symbolon(url)
        .envs(keys.iter().map(|(k, v)| (*k, v.as_str())))
        .args(args)
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).trim().to_string();
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

async fn embedded_wallets_move_with_their_users_to_a_server_with_other_keys(backend: Backend) {
    let dir =
        std::env::temp_dir().join(format!("symbolon-moves-{}-{backend:?}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (from, to, elsewhere) = (
        fresh_database(backend).await,
        fresh_database(backend).await,
        fresh_database(backend).await,
    );
    let (from_keys, to_keys, elsewhere_keys) = (keys(10), keys(20), keys(30));
    let create_app = |url: &str, keys: &[(&str, String)]| {
        run(
            url,
            keys,
            &["apps", "create", "--name", "Moving", "--origin", ORIGIN],
        )
        .1
    };
    let (app_from, app_to) = (create_app(&from, &from_keys), create_app(&to, &to_keys));

    // On the source: a user with two pregenerated wallets (the host's back end over /v1).
    let (made, secret, _) = run(
        &from,
        &from_keys,
        &["apps", "secret", "create", "--app", &app_from],
    );
    assert!(made);
    let email = unique_email();
    let source = Server::start(
        &from,
        &from_keys
            .iter()
            .map(|(k, v)| (*k, v.as_str()))
            .collect::<Vec<_>>(),
    );
    let http = common::http_client().build().unwrap();
    let created: Value = http
        .post(format!("{}/v1/users", source.base))
        .basic_auth(&app_from, Some(&secret))
        .header("privy-app-id", &app_from)
        .json(&json!({
            "linked_accounts": [{ "type": "email", "address": email }],
            "wallets": [{ "chain_type": "ethereum" }, { "chain_type": "ethereum" }],
        }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    source.stop();
    let addresses: Vec<String> = created["linked_accounts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["type"] == "wallet")
        .map(|a| a["address"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(addresses.len(), 2, "{created}");
    let user_id = created["id"].as_str().unwrap();

    // The destination's transfer key: derived from its sealing key, the same every time.
    let (ok, transfer_key, _) = run(&to, &to_keys, &["users", "transfer-key"]);
    assert!(
        ok && transfer_key.starts_with("symbolon-transfer-v1:"),
        "{transfer_key}"
    );
    assert_eq!(
        run(&to, &to_keys, &["users", "transfer-key"]).1,
        transfer_key
    );
    let (_, elsewhere_key, _) = run(&elsewhere, &elsewhere_keys, &["users", "transfer-key"]);
    assert_ne!(elsewhere_key, transfer_key);
    let (ok, _, refused) = run(
        &from,
        &from_keys,
        &[
            "users",
            "export",
            "--app",
            &app_from,
            "--wallets-to",
            "0xnot-a-key",
        ],
    );
    assert!(!ok);
    assert!(
        refused.contains("--wallets-to: not a transfer key"),
        "{refused}"
    );

    let export = |to_key: &str, name: &str| {
        let (ok, _, err) = run(
            &from,
            &from_keys,
            &[
                "users",
                "export",
                "--app",
                &app_from,
                "--wallets-to",
                to_key,
                "--out",
                &path(name),
            ],
        );
        assert!(ok, "{err}");
        let text = std::fs::read_to_string(path(name)).unwrap();
        // No share in the clear: only the sealed pair.
        assert!(!text.contains("auth_share"), "{text}");
        serde_json::from_str::<Value>(&text).unwrap()
    };
    let for_us = export(&transfer_key, "moves.json");
    assert_eq!(for_us["wallet_shares"].as_array().unwrap().len(), 1);
    assert_eq!(
        for_us["wallet_shares"][0]["root_address"],
        addresses[0].as_str()
    );
    export(&elsewhere_key, "elsewhere.json");

    // Sealed to another server: the user is refused whole (nothing half-imported).
    let (ok, report, _) = run(
        &to,
        &to_keys,
        &["users", "import", "--app", &app_to, &path("elsewhere.json")],
    );
    assert!(!ok);
    assert!(
        report.contains("do not open with this server's transfer key"),
        "{report}"
    );
    // A changed address in the export: the shares do not rebuild it.
    let mut changed = for_us.clone();
    let wallet = changed["users"][0]["linked_accounts"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|a| a["wallet_index"] == 1)
        .unwrap();
    wallet["address"] = json!("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    std::fs::write(path("changed.json"), changed.to_string()).unwrap();
    let (ok, report, _) = run(
        &to,
        &to_keys,
        &["users", "import", "--app", &app_to, &path("changed.json")],
    );
    assert!(!ok);
    assert!(report.contains("do not rebuild wallet 1"), "{report}");

    // Sealed to us: the user and both wallets arrive, nothing left out.
    let (ok, report, _) = run(
        &to,
        &to_keys,
        &["users", "import", "--app", &app_to, &path("moves.json")],
    );
    assert!(ok, "{report}");
    assert!(
        report.contains(&format!("1: created {user_id}")),
        "{report}"
    );
    assert!(!report.contains("left out"), "{report}");

    // The user signs in on the destination: same id, same wallets; the fresh session recovers
    // the wallet from this server's shares (sealed under its own keys), which rebuild both addresses.
    let server = Server::start(
        &to,
        &to_keys
            .iter()
            .map(|(k, v)| (*k, v.as_str()))
            .collect::<Vec<_>>(),
    );
    let session = server.sign_in_by_email(&app_to, &email).await;
    assert_eq!(session["user"]["id"], user_id, "{session}");
    let token = session["token"].as_str().unwrap();
    // As the wallet frame calls: from the server's own origin (the default public URL).
    let recovered: Value = http
        .post(format!(
            "{}/api/v1/embedded_wallets/{}/recovery/key_material",
            server.base, addresses[0]
        ))
        .header("privy-app-id", &app_to)
        .header("origin", "http://localhost:8787")
        .bearer_auth(token)
        .json(&json!({ "chain_type": "ethereum", "recovery": true }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let share = |field: &str| {
        Share::from_bytes(
            &STANDARD
                .decode(
                    recovered[field]
                        .as_str()
                        .unwrap_or_else(|| panic!("{recovered}")),
                )
                .unwrap(),
        )
        .unwrap()
    };
    let entropy = combine_shares(&[share("auth_share"), share("recovery_share")]).unwrap();
    for (index, address) in addresses.iter().enumerate() {
        let derived = derive_wallet_key(&entropy, index as u32).unwrap().address();
        assert_eq!(&derived.to_checksum(), address);
    }
    server.stop();
    std::fs::remove_dir_all(&dir).ok();
    for url in [&from, &to, &elsewhere] {
        remove_database_file(url);
    }
}
