//! Test harness: real SMTP capture, an SMS catcher speaking Twilio's API, the OAuth stand-ins and Postgres from `tools/stack/bin/services.mjs` (started once
//! per test binary), a fresh database per test, and an in-process router driven with `oneshot`.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

pub mod authenticator;

use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, Method, Request, StatusCode};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use symbolon_server::clock::Clock;
use symbolon_server::config::{Config, Redacted, SmtpTls};
use symbolon_server::db::Db;
use symbolon_server::db::apps::AppRecord;
use symbolon_server::mail::SmtpMailer;
use symbolon_server::random::{random_bytes, random_id};
use symbolon_server::{AppState, app};
use tower::ServiceExt;

/// The origin the default test app allows.
pub const ORIGIN: &str = "http://localhost:3000";
/// The client id the default test app knows.
pub const CLIENT_ID: &str = "client-test";
/// The issuer test servers use.
pub const PUBLIC_URL: &str = "http://symbolon.test";

/// Storage backends every test runs against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Declares `sqlite::name` and `postgres::name` tokio tests calling `name(Backend)`.
#[macro_export]
macro_rules! backend_tests {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $( #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
               async fn $name() { super::$name($crate::common::Backend::Sqlite).await } )*
        }
        mod postgres {
            $( #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
               async fn $name() { super::$name($crate::common::Backend::Postgres).await } )*
        }
    };
}

/// A reqwest builder with the process's TLS provider (ring) installed.
pub fn http_client() -> reqwest::ClientBuilder {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
}

/// Addresses of the shared services.
#[derive(Debug)]
pub struct Services {
    pub smtp_port: u16,
    pub mailbox_url: String,
    pub postgres_url: String,
    /// The SMS catcher (Twilio's Messages API + inbox), `http://127.0.0.1:…`.
    pub smsbox_url: String,
    /// The Google-like OpenID provider's issuer (`http://localhost:…`), when started.
    pub oidc_issuer: Option<String>,
    /// The GitHub-style OAuth 2.0 provider (`http://localhost:…`), when started.
    pub oauth2_url: Option<String>,
}

/// The account SID test servers send SMS with (the catcher accepts any SID and token).
pub const SMS_ACCOUNT_SID: &str = "ACtest0000000000000000000000000000";
/// The auth token test servers send SMS with.
pub const SMS_AUTH_TOKEN: &str = "test-sms-token";
/// The sender number of test SMS (valid for libphonenumber, unlike +1 555 01xx).
pub const SMS_FROM: &str = "+12015550100";

static SERVICES: OnceLock<Services> = OnceLock::new();
// Held for the life of the test process; each child exits when its stdin closes with us.
static CHILDREN: Mutex<Vec<Child>> = Mutex::new(Vec::new());

/// Starts `node tools/stack/bin/services.mjs` with `flags` for the life of the test process and
/// returns the JSON line it prints (the services' addresses).
pub fn spawn_services(flags: &[&str]) -> Value {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let mut child = Command::new("node")
        .arg("tools/stack/bin/services.mjs")
        .args(flags)
        .current_dir(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn node tools/stack/bin/services.mjs {flags:?}: {e}"));
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    stdout.read_line(&mut line).expect("read services line");
    std::thread::spawn(move || {
        let mut sink = Vec::new();
        let _ = stdout.read_to_end(&mut sink);
    });
    CHILDREN.lock().unwrap().push(child);
    serde_json::from_str(&line).unwrap_or_else(|_| panic!("services printed {line:?}"))
}

/// The shared services, from `SYMBOLON_TEST_*` env vars or a spawned `services.mjs`.
pub fn services() -> &'static Services {
    // reqwest is built without a default rustls provider: install ring before any client exists.
    symbolon_server::outbound_http::install_tls_provider();
    SERVICES.get_or_init(|| {
        let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        if let (Some(pg), Some(smtp), Some(mailbox), Some(smsbox)) = (
            env("SYMBOLON_TEST_POSTGRES_URL"),
            env("SYMBOLON_TEST_SMTP_PORT"),
            env("SYMBOLON_TEST_MAILBOX_URL"),
            env("SYMBOLON_TEST_SMSBOX_URL"),
        ) {
            return Services {
                smtp_port: smtp.parse().expect("SMTP port"),
                mailbox_url: mailbox,
                postgres_url: pg,
                smsbox_url: smsbox,
                oidc_issuer: env("SYMBOLON_TEST_OIDC_ISSUER"),
                oauth2_url: env("SYMBOLON_TEST_OAUTH2_URL"),
            };
        }
        let value = spawn_services(&["--mailbox", "--smsbox", "--postgres", "--oidc", "--oauth2"]);
        Services {
            smtp_port: value["smtpPort"].as_u64().expect("smtpPort") as u16,
            mailbox_url: value["mailboxUrl"]
                .as_str()
                .expect("mailboxUrl")
                .replace("localhost", "127.0.0.1"),
            postgres_url: value["postgresUrl"]
                .as_str()
                .expect("postgresUrl")
                .to_string(),
            smsbox_url: value["smsboxUrl"]
                .as_str()
                .expect("smsboxUrl")
                .replace("localhost", "127.0.0.1"),
            // Kept as printed: the issuer is compared with the ID tokens' `iss`.
            oidc_issuer: value["oidcIssuer"].as_str().map(str::to_string),
            oauth2_url: value["oauth2Url"].as_str().map(str::to_string),
        }
    })
}

/// A fresh, migrated database URL for one test.
pub async fn fresh_database(backend: Backend) -> String {
    let name = format!("t_{}", random_id(20).unwrap());
    match backend {
        Backend::Sqlite => {
            let path = std::env::temp_dir().join(format!("symbolon-{name}.db"));
            format!("sqlite://{}?mode=rwc", path.display())
        }
        Backend::Postgres => {
            let admin_url = &services().postgres_url;
            let admin = Db::connect(admin_url).await.expect("connect postgres");
            sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
                .execute(admin.pool())
                .await
                .expect("create database");
            admin.close().await;
            let base = admin_url
                .rsplit_once('/')
                .map(|(base, _)| base)
                .unwrap_or(admin_url);
            format!("{base}/{name}")
        }
    }
}

/// One server instance over its own database.
pub struct TestApp {
    pub state: AppState,
    pub router: Router,
    pub app_id: String,
    pub backend: Backend,
    pub http: reqwest::Client,
}

impl Drop for TestApp {
    fn drop(&mut self) {
        remove_database_file(&self.state.config.database_url);
    }
}

/// SQLite test databases are files; removes one with its WAL companions (no-op for Postgres).
pub fn remove_database_file(url: &str) {
    if let Some(path) = sqlite_path(url) {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{path}{suffix}"));
        }
    }
}

fn sqlite_path(url: &str) -> Option<&str> {
    let rest = url.strip_prefix("sqlite://")?;
    Some(rest.split('?').next().unwrap_or(rest))
}

/// The default test config (SMTP capture, generous rate limits).
pub fn test_config(database_url: String) -> Config {
    let mut config = Config {
        database_url,
        public_url: PUBLIC_URL.into(),
        ..Config::default()
    };
    config.smtp.host = "127.0.0.1".into();
    config.smtp.port = services().smtp_port;
    config.smtp.tls = SmtpTls::None;
    config.smtp.from = "Symbolon Test <login@symbolon.test>".into();
    config.sms.api_base_url = services().smsbox_url.clone();
    config.sms.account_sid = Some(SMS_ACCOUNT_SID.into());
    config.sms.auth_token = Some(Redacted(SMS_AUTH_TOKEN.into()));
    config.sms.from = Some(SMS_FROM.into());
    config.rate_limit.email_per_window = 50;
    config.rate_limit.ip_per_window = 500;
    // Tests send several codes to one address in a row; the cooldown has its own test.
    config.rate_limit.resend_cooldown_s = 0;
    config.rate_limit.ip_authenticate_per_window = 10_000;
    // A fresh sealing key per server: no key file is written.
    config.key_encryption_key = Some(Redacted(STANDARD.encode(random_bytes::<32>().unwrap())));
    // Fresh share keys per server: no key files are written.
    config.auth_share_key = Some(Redacted(STANDARD.encode(random_bytes::<32>().unwrap())));
    config.recovery_share_key = Some(Redacted(STANDARD.encode(random_bytes::<32>().unwrap())));
    config
}

impl TestApp {
    /// A server with default settings and one app allowing [`ORIGIN`].
    pub async fn start(backend: Backend) -> Self {
        Self::start_with(backend, |_| {}).await
    }

    /// A server whose config `adjust` may change.
    pub async fn start_with(backend: Backend, adjust: impl FnOnce(&mut Config)) -> Self {
        // Shown only for failing tests.
        let _ = tracing_subscriber::fmt()
            .with_test_writer()
            .with_env_filter("warn,symbolon_server=debug")
            .try_init();
        symbolon_server::outbound_http::install_tls_provider();
        let mut config = test_config(fresh_database(backend).await);
        adjust(&mut config);
        let db = Db::connect(&config.database_url).await.expect("connect");
        db.migrate().await.expect("migrate");
        let mailer = Arc::new(SmtpMailer::new(&config.smtp).expect("mailer"));
        let state = AppState::new(config, db, mailer, Clock::system())
            .await
            .expect("state");
        let mut test = Self {
            router: app(state.clone()),
            state,
            app_id: String::new(),
            backend,
            http: http_client().build().expect("http client"),
        };
        test.app_id = test.create_app(false).await;
        test
    }

    /// A second server over this one's database, with its config changed by `adjust` (what a
    /// restart, or another instance, would load).
    pub async fn restart_with(
        &self,
        adjust: impl FnOnce(&mut Config),
    ) -> Result<AppState, symbolon_server::state::StartupError> {
        let mut config = (*self.state.config).clone();
        adjust(&mut config);
        let db = Db::connect(&config.database_url).await.expect("connect");
        let mailer = Arc::new(SmtpMailer::new(&config.smtp).expect("mailer"));
        AppState::new(config, db, mailer, Clock::system()).await
    }

    /// Creates another app allowing [`ORIGIN`]; returns its id.
    pub async fn create_app(&self, disable_plus_emails: bool) -> String {
        let record = AppRecord {
            id: random_id(25).unwrap(),
            name: "Test App".into(),
            allowed_origins: vec![ORIGIN.into()],
            client_ids: vec![CLIENT_ID.into()],
            disable_plus_emails,
            require_users_accept_terms: false,
            settings: Default::default(),
        };
        self.state
            .db
            .upsert_app(&record, self.state.clock.now())
            .await
            .expect("create app");
        record.id
    }

    /// Replaces the default app's settings (login methods, allowlist, limits, …), its secrets
    /// sealed as `symbolon apps create` stores them.
    pub async fn set_settings(&self, settings: symbolon_server::app_settings::AppSettings) {
        let mut record = self
            .state
            .db
            .find_app(&self.app_id)
            .await
            .unwrap()
            .expect("default app");
        record.settings = settings
            .sealed(&self.state.app_secrets, &self.app_id)
            .expect("seal settings");
        self.state
            .db
            .upsert_app(&record, self.state.clock.now())
            .await
            .expect("update app");
    }

    /// A request builder with the default app id, origin and JSON content type.
    pub fn request(&self, method: Method, path: &str) -> Call<'_> {
        Call {
            test: self,
            method,
            path: path.into(),
            headers: vec![
                ("privy-app-id".into(), self.app_id.clone()),
                ("origin".into(), ORIGIN.into()),
                ("content-type".into(), "application/json".into()),
            ],
            body: None,
            ip: "127.0.0.1".into(),
            router: None,
        }
    }

    pub fn get(&self, path: &str) -> Call<'_> {
        self.request(Method::GET, path)
    }

    pub fn post(&self, path: &str, body: Value) -> Call<'_> {
        self.request(Method::POST, path).json(body)
    }

    /// Sends a code to `email` and reads it from the mailbox.
    pub async fn send_code(&self, email: &str) -> String {
        let reply = self
            .post("/api/v1/passwordless/init", json!({ "email": email }))
            .send()
            .await;
        assert_eq!(reply.status, StatusCode::OK, "init failed: {}", reply.body);
        self.latest_code(email).await
    }

    /// The code in the newest message to `email` (waits up to 5 s).
    pub async fn latest_code(&self, email: &str) -> String {
        mailbox_code(&self.http, email).await
    }

    /// The newest message to `email` in the capture mailbox (waits up to 5 s).
    pub async fn latest_message(&self, email: &str) -> Value {
        mailbox_latest(&self.http, email).await
    }

    /// Every message to `email` (waits up to 5 s for at least one).
    pub async fn messages(&self, email: &str) -> Vec<Value> {
        mailbox_messages(&self.http, email).await
    }

    /// The newest SMS to `to` in the catcher (waits up to 5 s).
    pub async fn latest_sms(&self, to: &str) -> Value {
        latest_sms(&self.http, to).await
    }

    /// The code in the newest SMS to `to` (waits up to 5 s).
    pub async fn latest_sms_code(&self, to: &str) -> String {
        latest_sms_code(&self.http, to).await
    }

    /// Signs `email` in with an emailed code; returns the session response.
    pub async fn login(&self, email: &str) -> Value {
        let code = self.send_code(email).await;
        let reply = self
            .post(
                "/api/v1/passwordless/authenticate",
                json!({ "email": email, "code": code }),
            )
            .send()
            .await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "authenticate failed: {}",
            reply.body
        );
        reply.body
    }
}

/// Every message to `email` in the capture mailbox (waits up to 5 s for at least one).
pub async fn mailbox_messages(http: &reqwest::Client, email: &str) -> Vec<Value> {
    let url = format!("{}/api/messages", services().mailbox_url);
    for _ in 0..50 {
        let query = format!("{url}?to={}", email.replace('+', "%2B").replace('@', "%40"));
        let reply = http.get(&query).send().await.expect("mailbox");
        let list: Vec<Value> = reply.json().await.expect("mailbox json");
        if !list.is_empty() {
            return list;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Vec::new()
}

/// The newest message to `email` (waits up to 5 s).
pub async fn mailbox_latest(http: &reqwest::Client, email: &str) -> Value {
    mailbox_messages(http, email)
        .await
        .last()
        .cloned()
        .unwrap_or_else(|| panic!("no mail for {email}"))
}

/// The code in the newest message to `email`: the subject starts with it (waits up to 5 s).
pub async fn mailbox_code(http: &reqwest::Client, email: &str) -> String {
    let message = mailbox_latest(http, email).await;
    let subject = message["subject"].as_str().unwrap_or_default();
    subject
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// Every SMS to `to` (E.164) in the catcher, newest first (waits up to 5 s for at least one).
pub async fn sms_messages(http: &reqwest::Client, to: &str) -> Vec<Value> {
    let url = format!(
        "{}/api/messages?to={}",
        services().smsbox_url,
        to.replace('+', "%2B")
    );
    for _ in 0..50 {
        let reply = http.get(&url).send().await.expect("smsbox");
        let list: Vec<Value> = reply.json().await.expect("smsbox json");
        if !list.is_empty() {
            return list;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Vec::new()
}

/// The newest SMS to `to`: `{id, to, from, body, receivedAt}` (waits up to 5 s).
pub async fn latest_sms(http: &reqwest::Client, to: &str) -> Value {
    sms_messages(http, to)
        .await
        .first()
        .cloned()
        .unwrap_or_else(|| panic!("no SMS for {to}"))
}

/// The 6-digit code in the newest SMS to `to`: the text starts with it (waits up to 5 s).
pub async fn latest_sms_code(http: &reqwest::Client, to: &str) -> String {
    let message = latest_sms(http, to).await;
    let body = message["body"].as_str().unwrap_or_default();
    body.split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// A unique, valid US number for one test (the catcher is shared across tests): +1 201 555 01xx
/// would repeat, so the last seven digits are random in 2xx-xxxx (a valid exchange).
pub fn unique_phone() -> String {
    let bytes = random_bytes::<4>().unwrap();
    let n = u32::from_le_bytes(bytes) % 8_000_000 + 2_000_000;
    format!("+1201{n:07}")
}

/// A unique address for one test (the mailbox is shared across tests).
pub fn unique_email() -> String {
    format!("user-{}@example.com", random_id(12).unwrap())
}

/// A request under construction.
pub struct Call<'a> {
    test: &'a TestApp,
    method: Method,
    path: String,
    headers: Vec<(String, String)>,
    body: Option<String>,
    ip: String,
    router: Option<Router>,
}

impl Call<'_> {
    /// Sends through another router (e.g. a second server over the same database).
    pub fn via(mut self, router: &Router) -> Self {
        self.router = Some(router.clone());
        self
    }

    /// Sets (replacing) a header.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.retain(|(n, _)| n != name);
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Removes a header.
    pub fn without(mut self, name: &str) -> Self {
        self.headers.retain(|(n, _)| n != name);
        self
    }

    pub fn bearer(self, token: &str) -> Self {
        self.header("authorization", &format!("Bearer {token}"))
    }

    pub fn json(mut self, body: Value) -> Self {
        self.body = Some(body.to_string());
        self
    }

    pub fn raw_body(mut self, body: &str) -> Self {
        self.body = Some(body.into());
        self
    }

    pub fn client_ip(mut self, ip: &str) -> Self {
        self.ip = ip.into();
        self
    }

    pub async fn send(self) -> Reply {
        let mut builder = Request::builder().method(self.method).uri(&self.path);
        for (name, value) in &self.headers {
            builder = builder.header(name, value);
        }
        let mut request = builder
            .body(Body::from(self.body.unwrap_or_default()))
            .unwrap();
        let addr: SocketAddr = format!("{}:5555", self.ip).parse().unwrap();
        request.extensions_mut().insert(ConnectInfo(addr));
        let router = self.router.unwrap_or_else(|| self.test.router.clone());
        let response = router.oneshot(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let text = String::from_utf8_lossy(&bytes).to_string();
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Reply {
            status,
            headers,
            body,
            text,
        }
    }
}

/// A response with its body parsed as JSON (`Null` when it is not JSON).
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Value,
    pub text: String,
}

impl Reply {
    /// Asserts an error reply in the wire shape with this status and code.
    pub fn assert_error(&self, status: u16, code: &str) {
        assert_eq!(self.status.as_u16(), status, "body: {}", self.text);
        assert_eq!(self.body["code"], code, "body: {}", self.text);
        assert!(
            self.body["error"].as_str().is_some_and(|m| !m.is_empty()),
            "no message: {}",
            self.text
        );
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

/// A log writer that keeps everything written to it (for tests that read the server's logs).
#[derive(Clone, Default)]
pub struct Capture(pub Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
