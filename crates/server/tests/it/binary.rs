//! The `symbolon` binary: `apps create` output, and a real login over TCP against `serve`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use common::{
    Backend, ORIGIN, fresh_database, mailbox_code, remove_database_file, services, unique_email,
};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

backend_tests!(
    apps_create_prints_only_the_id_and_is_idempotent,
    apps_secret_is_shown_once_listed_by_id_and_revoked,
    users_export_imports_into_a_fresh_server_unchanged_and_the_user_signs_in_as_before,
    users_import_over_http_sends_batches_to_a_running_server,
    serve_signs_a_user_in_over_http
);

const BIN: &str = env!("CARGO_BIN_EXE_symbolon");

pub(crate) fn symbolon(database_url: &str) -> Command {
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

/// A running `symbolon serve` on a free port.
pub(crate) struct Server {
    child: Child,
    /// `host:port`.
    address: String,
    /// `http://host:port`.
    pub(crate) base: String,
    /// The rest of the log, once the server exits.
    logs: Option<JoinHandle<String>>,
}

impl Server {
    /// Signs `email` in to `app_id` by email code over HTTP, as the app's page would; the session.
    pub(crate) async fn sign_in_by_email(&self, app_id: &str, email: &str) -> Value {
        let http = common::http_client().build().unwrap();
        let post = |route: &str, body: Value| {
            http.post(format!("{}{route}", self.base))
                .header("privy-app-id", app_id)
                .header("origin", ORIGIN)
                .json(&body)
                .send()
        };
        let init = post("/api/v1/passwordless/init", json!({ "email": email }))
            .await
            .unwrap();
        assert_eq!(init.status(), 200);
        let code = mailbox_code(&http, email).await;
        post(
            "/api/v1/passwordless/authenticate",
            json!({ "email": email, "code": code }),
        )
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
    }
}

impl Drop for Server {
    /// A failed test must not leave its server running (it holds the test's stdout open).
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// Starts `serve` on `database_url` with extra environment `env`.
    pub(crate) fn start(database_url: &str, env: &[(&str, &str)]) -> Self {
        let mut command = symbolon(database_url);
        command
            .args(["serve"])
            .env("SYMBOLON_LISTEN", "127.0.0.1:0")
            .stderr(Stdio::piped());
        for (name, value) in env {
            command.env(name, value);
        }
        let mut child = command.spawn().unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let address = loop {
            let line = lines.next().expect("server exited early").unwrap();
            if line.contains("symbolon listening") {
                let start = line.find("address=").unwrap() + "address=".len();
                break line[start..].split_whitespace().next().unwrap().to_string();
            }
        };
        let logs =
            std::thread::spawn(move || lines.map_while(Result::ok).collect::<Vec<_>>().join("\n"));
        Self {
            child,
            base: format!("http://{address}"),
            address,
            logs: Some(logs),
        }
    }

    /// Stops the server with SIGTERM (a graceful stop must exit 0) and returns its log.
    pub(crate) fn stop(mut self) -> String {
        let killed = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "exit {status:?}");
        self.logs.take().unwrap().join().unwrap()
    }
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

async fn apps_secret_is_shown_once_listed_by_id_and_revoked(backend: Backend) {
    let url = fresh_database(backend).await;
    let app = "cm0000000000000000secrets";
    let run = |args: &[&str]| symbolon(&url).args(args).output().unwrap();
    let created = run(&[
        "apps",
        "create",
        "--name",
        "S",
        "--origin",
        "http://a.test",
        "--id",
        app,
    ]);
    assert!(created.status.success());
    let secret = |out: std::process::Output| {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    let first = secret(run(&["apps", "secret", "create", "--app", app]));
    let second = secret(run(&["apps", "secret", "create", "--app", app]));
    assert_ne!(first, second);
    let id_of = |s: &str| s.split('_').nth(1).unwrap().to_string();
    assert!(
        first.starts_with("sk_") && first.len() >= 3 + 12 + 1 + 43,
        "{first}"
    );
    let listed = secret(run(&["apps", "secret", "list", "--app", app]));
    assert!(
        listed.contains(&id_of(&first)) && listed.contains(&id_of(&second)),
        "{listed}"
    );
    assert!(
        !listed.contains(&first) && !listed.contains(&second),
        "a secret was listed"
    );
    let revoked = run(&["apps", "secret", "revoke", "--app", app, &id_of(&first)]);
    assert!(revoked.status.success());
    let again = run(&["apps", "secret", "revoke", "--app", app, &id_of(&first)]);
    assert!(
        !again.status.success(),
        "a revoked secret was revoked twice"
    );
    let listed = secret(run(&["apps", "secret", "list", "--app", app]));
    let row = |id: &str| {
        listed
            .lines()
            .find(|l| l.starts_with(id))
            .unwrap()
            .to_string()
    };
    assert!(!row(&id_of(&first)).ends_with("\t-"), "{listed}");
    assert!(row(&id_of(&second)).ends_with("\t-"), "{listed}");
    let unknown = run(&[
        "apps",
        "secret",
        "create",
        "--app",
        "cm0000000000000000000none",
    ]);
    assert!(!unknown.status.success() && unknown.stdout.is_empty());
    remove_database_file(&url);
}

/// Users exported from one server and imported into a fresh one: the same users (ids, creation
/// times, accounts, metadata), what cannot move reported, a bad row never stopping the others,
/// and an imported user signing in by email as the same user.
async fn users_export_imports_into_a_fresh_server_unchanged_and_the_user_signs_in_as_before(
    backend: Backend,
) {
    let dir = std::env::temp_dir().join(format!(
        "symbolon-export-{}-{backend:?}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let (email, other) = (unique_email(), unique_email());
    let seed = dir.join(format!("seed-{backend:?}.csv"));
    std::fs::write(
        &seed,
        format!(
            "id,created_at,email,wallet_address,custom_metadata\n\
             did:privy:exported1,1700000000,{email},0x70997970C51812dc3A010C7d01b50e0d17dc79C8,\"{{\"\"plan\"\":\"\"pro\"\"}}\"\n\
             ,,{other},,\n\
             ,,{email},,\n"
        ),
    )
    .unwrap();
    let from = fresh_database(backend).await;
    let to = fresh_database(backend).await;
    let create_app = |url: &str| {
        let out = symbolon(url)
            .args(["apps", "create", "--name", "Moving", "--origin", ORIGIN])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    let (app_from, app_to) = (create_app(&from), create_app(&to));
    let run = |url: &str, args: &[&str]| symbolon(url).args(args).output().unwrap();
    let path = |p: &std::path::Path| p.to_str().unwrap().to_string();

    // The seed: the third row's email is taken by the first; the other two still import.
    let seeded = run(
        &from,
        &["users", "import", "--app", &app_from, &path(&seed)],
    );
    let report = String::from_utf8_lossy(&seeded.stdout).to_string();
    assert!(!seeded.status.success(), "a failed row fails the command");
    assert!(
        report.contains("1: created did:privy:exported1"),
        "{report}"
    );
    assert!(
        report.contains("3: failed: This account has already been linked to another user."),
        "{report}"
    );
    assert_eq!(
        report.lines().filter(|l| l.contains("created")).count(),
        2,
        "{report}"
    );

    let exported = dir.join(format!("export-{backend:?}.json"));
    let out = run(
        &from,
        &[
            "users",
            "export",
            "--app",
            &app_from,
            "--out",
            &path(&exported),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first: Value = serde_json::from_str(&std::fs::read_to_string(&exported).unwrap()).unwrap();
    assert_eq!(first["app_id"], app_from.as_str());
    assert_eq!(first["users"].as_array().unwrap().len(), 2);

    let imported = run(
        &to,
        &["users", "import", "--app", &app_to, &path(&exported)],
    );
    assert!(
        imported.status.success(),
        "{}",
        String::from_utf8_lossy(&imported.stdout)
    );
    let again = dir.join(format!("again-{backend:?}.json"));
    assert!(
        run(
            &to,
            &["users", "export", "--app", &app_to, "--out", &path(&again)]
        )
        .status
        .success()
    );
    let second: Value = serde_json::from_str(&std::fs::read_to_string(&again).unwrap()).unwrap();
    // The same users: ids, creation times, terms, metadata, and each account's kind and identity.
    let summary = |export: &Value| -> Vec<Value> {
        export["users"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| {
                // Accounts made in the same second have no set order.
                let mut accounts: Vec<String> = u["linked_accounts"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|a| json!([a["type"], a["address"], a["chain_type"]]).to_string())
                    .collect();
                accounts.sort();
                json!([
                    u["id"],
                    u["created_at"],
                    u["has_accepted_terms"],
                    u["custom_metadata"],
                    accounts
                ])
            })
            .collect()
    };
    assert_eq!(summary(&second), summary(&first));
    let kept = second["users"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == "did:privy:exported1")
        .unwrap();
    assert_eq!(kept["custom_metadata"], json!({ "plan": "pro" }));
    assert_eq!(kept["created_at"], 1_700_000_000);

    // Importing the same export again creates nobody twice: both ids exist.
    let twice = run(
        &to,
        &["users", "import", "--app", &app_to, &path(&exported)],
    );
    assert!(!twice.status.success());
    let report = String::from_utf8_lossy(&twice.stdout).to_string();
    assert_eq!(
        report.matches("A user with this id exists already").count(),
        2,
        "{report}"
    );

    // An embedded wallet and a passkey cannot move: reported, the rest imported.
    let vendor = dir.join(format!("vendor-{backend:?}.json"));
    let wallet = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
    std::fs::write(
        &vendor,
        json!([{ "id": "did:privy:vendor1", "created_at": 1_690_000_000, "linked_accounts": [
            { "type": "email", "address": unique_email() },
            { "type": "wallet", "address": wallet, "chain_type": "ethereum", "connector_type": "embedded", "wallet_client_type": "privy" },
            { "type": "passkey", "credential_id": "abc" },
        ]}])
        .to_string(),
    )
    .unwrap();
    let moved = run(&to, &["users", "import", "--app", &app_to, &path(&vendor)]);
    let report = String::from_utf8_lossy(&moved.stdout).to_string();
    assert!(moved.status.success(), "{report}");
    assert!(
        report.contains(&format!("left out: embedded wallet {wallet}")),
        "{report}"
    );
    assert!(
        report.contains("passkey: no export carries its public key"),
        "{report}"
    );

    // The imported user signs in by email on the new server and is the same user.
    let server = Server::start(&to, &[]);
    let session = server.sign_in_by_email(&app_to, &email).await;
    assert_eq!(session["user"]["id"], "did:privy:exported1", "{session}");
    assert_eq!(session["is_new_user"], false);
    server.stop();
    std::fs::remove_dir_all(&dir).ok();
    remove_database_file(&from);
    remove_database_file(&to);
}

async fn serve_signs_a_user_in_over_http(backend: Backend) {
    let url = fresh_database(backend).await;
    let out = symbolon(&url)
        .args(["apps", "create", "--name", "Binary", "--origin", ORIGIN])
        .output()
        .unwrap();
    let app_id = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let server = Server::start(&url, &[]);
    let base = server.base.clone();
    let http = common::http_client().build().unwrap();
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
    let logs = server.stop();
    assert!(logs.contains("symbolon stopped"), "{logs}");
    assert!(!logs.contains(&code), "the code was logged");
    assert!(
        !logs.contains('\u{1b}'),
        "colour codes in a non-terminal log"
    );
    remove_database_file(&url);
}

// --- The serve loop's limits (one backend: they do not touch storage) ---

/// Waits (up to `bound`) for the server to close `stream`; returns how long it took, or `None`
/// if the connection was still open at `bound`. Whatever the server wrote first is returned too.
async fn wait_closed(stream: &mut TcpStream, bound: Duration) -> (Option<Duration>, String) {
    let started = Instant::now();
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let left = bound.saturating_sub(started.elapsed());
        match tokio::time::timeout(left, stream.read(&mut buf)).await {
            Err(_) => return (None, String::from_utf8_lossy(&seen).into_owned()),
            Ok(Ok(0)) | Ok(Err(_)) => {
                return (
                    Some(started.elapsed()),
                    String::from_utf8_lossy(&seen).into_owned(),
                );
            }
            Ok(Ok(n)) => seen.extend_from_slice(&buf[..n]),
        }
    }
}

async fn health_answers(http: &reqwest::Client, base: &str) -> bool {
    match http.get(format!("{base}/health")).send().await {
        Ok(reply) => reply.status() == 200,
        Err(_) => false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_header_connections_are_closed_and_health_keeps_answering() {
    let url = fresh_database(Backend::Sqlite).await;
    let server = Server::start(&url, &[("SYMBOLON_HTTP_HEADER_TIMEOUT_S", "1")]);
    // Slowloris: each connection sends part of a request line and then nothing.
    let mut attackers = Vec::new();
    for _ in 0..300 {
        let mut stream = TcpStream::connect(&server.address).await.unwrap();
        stream
            .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            .await
            .unwrap();
        attackers.push(stream);
    }
    // Fresh connections for /health while the attack is on.
    let http = common::http_client()
        .pool_max_idle_per_host(0)
        .build()
        .unwrap();
    for _ in 0..3 {
        assert!(
            health_answers(&http, &server.base).await,
            "/health stopped answering during the attack"
        );
    }
    for stream in &mut attackers {
        let (closed, _) = wait_closed(stream, Duration::from_secs(20)).await;
        assert!(closed.is_some(), "a slow-header connection was left open");
    }
    assert!(health_answers(&http, &server.base).await);
    server.stop();
    remove_database_file(&url);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_stops_arriving_gets_a_json_408_and_the_connection_closes() {
    let url = fresh_database(Backend::Sqlite).await;
    let out = symbolon(&url)
        .args(["apps", "create", "--name", "Body", "--origin", ORIGIN])
        .output()
        .unwrap();
    let app_id = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let server = Server::start(&url, &[("SYMBOLON_HTTP_BODY_TIMEOUT_S", "1")]);
    let mut stream = TcpStream::connect(&server.address).await.unwrap();
    let head = format!(
        "POST /api/v1/passwordless/init HTTP/1.1\r\nHost: x\r\norigin: {ORIGIN}\r\n\
         privy-app-id: {app_id}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(b"{\"email\": ").await.unwrap();
    let (closed, answer) = wait_closed(&mut stream, Duration::from_secs(20)).await;
    assert!(
        closed.is_some(),
        "the connection stayed open; got {answer:?}"
    );
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
    let body: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    assert_eq!(body["code"], "invalid_data", "{answer}");
    assert!(body["error"].is_string(), "{answer}");
    // Browsers can read it: the CORS headers survive.
    assert!(
        answer
            .to_lowercase()
            .contains(&format!("access-control-allow-origin: {ORIGIN}")),
        "{answer}"
    );
    server.stop();
    remove_database_file(&url);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_connection_cap_holds_new_connections_until_one_closes() {
    let url = fresh_database(Backend::Sqlite).await;
    let server = Server::start(&url, &[("SYMBOLON_HTTP_MAX_CONNECTIONS", "4")]);
    // A client with a kept-alive connection, then three idle connections: every slot is taken
    // (the header timeout, 10 s, has not fired yet).
    let established = common::http_client().build().unwrap();
    assert!(health_answers(&established, &server.base).await);
    let mut idle = Vec::new();
    for _ in 0..3 {
        idle.push(TcpStream::connect(&server.address).await.unwrap());
    }
    let http = common::http_client()
        .pool_max_idle_per_host(0)
        .build()
        .unwrap();
    let waiting: Vec<_> = (0..4)
        .map(|_| {
            let http = http.clone();
            let base = server.base.clone();
            tokio::spawn(async move { health_answers(&http, &base).await })
        })
        .collect();
    // While the cap is full, new connections wait (in the listen backlog) rather than fail.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    assert!(
        waiting.iter().all(|task| !task.is_finished()),
        "a connection over the cap was served"
    );
    // The established connection keeps working meanwhile.
    assert!(health_answers(&established, &server.base).await);
    assert!(waiting.iter().all(|task| !task.is_finished()));
    // Closing the idle connections frees the slots: every waiting request is answered.
    drop(idle);
    for task in waiting {
        let answered = tokio::time::timeout(Duration::from_secs(30), task).await;
        assert!(
            matches!(answered, Ok(Ok(true))),
            "/health did not answer once the cap freed: {answered:?}"
        );
    }
    server.stop();
    remove_database_file(&url);
}

/// `users import --url`: the same file format, through `POST /v1/users/import` of a running
/// server; each row reported, a bad one alone failing; a rerun replays instead of creating twice.
async fn users_import_over_http_sends_batches_to_a_running_server(backend: Backend) {
    let dir = std::env::temp_dir().join(format!(
        "symbolon-http-import-{}-{backend:?}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let (email, other) = (unique_email(), unique_email());
    let file = dir.join("users.csv");
    std::fs::write(
        &file,
        format!(
            "id,created_at,email,custom_metadata\n\
             did:privy:elsewhere1,1700000000,{email},\"{{\"\"plan\"\":\"\"pro\"\"}}\"\n\
             ,,{other},\n\
             ,,{email},\n"
        ),
    )
    .unwrap();
    let url = fresh_database(backend).await;
    let app = String::from_utf8_lossy(
        &symbolon(&url)
            .args(["apps", "create", "--name", "Remote", "--origin", ORIGIN])
            .output()
            .unwrap()
            .stdout,
    )
    .trim()
    .to_string();
    let secret = String::from_utf8_lossy(
        &symbolon(&url)
            .args(["apps", "secret", "create", "--app", &app])
            .output()
            .unwrap()
            .stdout,
    )
    .trim()
    .to_string();
    let server = Server::start(&url, &[]);
    let import = || {
        // Not this machine's database: the destination is the server at --url.
        symbolon("sqlite://does-not-matter.db?mode=ro")
            .env("SYMBOLON_APP_SECRET", &secret)
            .args(["users", "import", "--app", &app, "--url", &server.base])
            .arg(&file)
            .output()
            .unwrap()
    };
    let first = import();
    let report = String::from_utf8_lossy(&first.stdout).to_string();
    assert!(
        !first.status.success(),
        "a failed row fails the command: {report}"
    );
    assert!(report.contains("(was did:privy:elsewhere1)"), "{report}");
    assert!(report.contains("2: created did:privy:"), "{report}");
    assert!(
        report.contains("3: failed: This account has already been linked to another user."),
        "{report}"
    );
    let again = String::from_utf8_lossy(&import().stdout).to_string();
    assert_eq!(again, report, "a rerun replays the answers");

    let http = common::http_client().build().unwrap();
    let listed: Value = http
        .get(format!("{}/v1/users", server.base))
        .basic_auth(&app, Some(&secret))
        .header("privy-app-id", &app)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let users = listed["data"].as_array().unwrap();
    assert_eq!(users.len(), 2, "nobody twice: {listed}");
    let with_plan = users
        .iter()
        .find(|u| u["linked_accounts"][0]["address"] == email.as_str())
        .unwrap();
    assert_eq!(with_plan["custom_metadata"]["plan"], "pro");
    server.stop();
    remove_database_file(&url);
    let _ = std::fs::remove_dir_all(&dir);
}
