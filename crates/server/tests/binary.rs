//! The `symbolon` binary: `apps create` output, and a real login over TCP against `serve`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use common::{
    Backend, ORIGIN, fresh_database, mailbox_code, remove_database_file, services, unique_email,
};
use serde_json::{Value, json};

backend_tests!(
    apps_create_prints_only_the_id_and_is_idempotent,
    serve_signs_a_user_in_over_http
);

const BIN: &str = env!("CARGO_BIN_EXE_symbolon");

fn symbolon(database_url: &str) -> Command {
    let mut command = Command::new(BIN);
    command
        .env("DATABASE_URL", database_url)
        .env("SYMBOLON_SMTP_HOST", "127.0.0.1")
        .env("SYMBOLON_SMTP_PORT", services().smtp_port.to_string())
        .env("SYMBOLON_SMTP_TLS", "none")
        .env("SYMBOLON_LOG", "info")
        // Fixed share keys: nothing is generated into a key directory (base64 of 32 bytes of 1s and 2s).
        .env(
            "SYMBOLON_AUTH_SHARE_KEY",
            "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=",
        )
        .env(
            "SYMBOLON_RECOVERY_SHARE_KEY",
            "AgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgI=",
        );
    command
}

async fn apps_create_prints_only_the_id_and_is_idempotent(backend: Backend) {
    let url = fresh_database(backend).await;
    let id = "cm0000000000000000000demo";
    for name in ["Demo", "Demo renamed"] {
        let out = symbolon(&url)
            .args([
                "apps",
                "create",
                "--name",
                name,
                "--origin",
                "http://localhost:5173/",
                "--id",
                id,
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{id}\n"));
    }
    let out = symbolon(&url)
        .args(["apps", "create", "--name", "X", "--origin", "http://a.test"])
        .output()
        .unwrap();
    let generated = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert_eq!(generated.len(), 25);
    assert!(
        generated
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    );
    let bad = symbolon(&url)
        .args([
            "apps", "create", "--name", "X", "--origin", "http://a", "--id", "short",
        ])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(bad.stdout.is_empty());
    remove_database_file(&url);
}

async fn serve_signs_a_user_in_over_http(backend: Backend) {
    let url = fresh_database(backend).await;
    let out = symbolon(&url)
        .args(["apps", "create", "--name", "Binary", "--origin", ORIGIN])
        .output()
        .unwrap();
    let app_id = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let mut child = symbolon(&url)
        .args(["serve"])
        .env("SYMBOLON_LISTEN", "127.0.0.1:0")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let address = loop {
        let line = lines.next().expect("server exited early").unwrap();
        if line.contains("symbolon listening") {
            let start = line.find("address=").unwrap() + "address=".len();
            break line[start..].split_whitespace().next().unwrap().to_string();
        }
    };
    let log_reader =
        std::thread::spawn(move || lines.map_while(Result::ok).collect::<Vec<_>>().join("\n"));
    let base = format!("http://{address}");
    let http = reqwest::Client::new();
    let call = |path: &str, body: Value| {
        http.post(format!("{base}{path}"))
            .header("privy-app-id", &app_id)
            .header("origin", ORIGIN)
            .json(&body)
    };

    let health: Value = http
        .get(format!("{base}/health"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(health, json!({ "status": "ok" }));
    let email = unique_email();
    let init = call("/api/v1/passwordless/init", json!({ "email": email }))
        .send()
        .await
        .unwrap();
    assert_eq!(init.status(), 200);
    let code = mailbox_code(&http, &email).await;
    let session: Value = call(
        "/api/v1/passwordless/authenticate",
        json!({ "email": email, "code": code }),
    )
    .send()
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    assert_eq!(session["is_new_user"], true, "{session}");
    let me = http
        .get(format!("{base}/api/v1/users/me"))
        .header("privy-app-id", &app_id)
        .bearer_auth(session["token"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), 200);

    // SIGTERM stops it gracefully.
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    assert!(status.success(), "exit {status:?}");
    let logs = log_reader.join().unwrap();
    assert!(logs.contains("symbolon stopped"), "{logs}");
    assert!(!logs.contains(&code), "the code was logged");
    assert!(
        !logs.contains('\u{1b}'),
        "colour codes in a non-terminal log"
    );
    remove_database_file(&url);
}
