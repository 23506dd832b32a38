//! The load scenarios. Each worker is one connection with its own work: a refresh chain (request n uses the
//! refresh token from response n−1, which is why a generic HTTP load tool cannot do this), a login loop, or a host
//! back end's `/v1` calls (a batch import, walking the user list).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use tokio::task::JoinSet;

use crate::api::{Api, Session};
use crate::error::Result;
use crate::report::Report;
use crate::worker::{Tally, Window};

/// A prefix unique to this run, so a rerun against the same database makes new users.
fn run_tag() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    format!("{:x}", nanos % 0xffff_ffff_ffff)
}

/// Signs in `count` fresh users by email, `parallel` at a time.
pub async fn create_sessions(
    api: &Arc<Api>,
    count: usize,
    parallel: usize,
) -> Result<Vec<Session>> {
    let tag = run_tag();
    let mut sessions = Vec::with_capacity(count);
    let mut next = 0;
    while next < count {
        let mut batch = JoinSet::new();
        for i in next..(next + parallel).min(count) {
            let api = Arc::clone(api);
            let email = format!("refresh-{tag}-{i}@loadgen.example.com");
            batch.spawn(async move { api.login(&email).await });
        }
        next = (next + parallel).min(count);
        while let Some(joined) = batch.join_next().await {
            sessions.push(joined.map_err(|e| crate::error::LoadgenError::Protocol {
                path: "login task".into(),
                detail: e.to_string(),
            })??);
        }
    }
    Ok(sessions)
}

/// `connections` workers, each chaining refreshes over its share of `sessions` until the window closes.
pub async fn refresh(
    api: Arc<Api>,
    sessions: Vec<Session>,
    connections: usize,
    warmup: Duration,
    duration: Duration,
) -> Report {
    let mut shares: Vec<Vec<Session>> = (0..connections).map(|_| Vec::new()).collect();
    for (i, session) in sessions.into_iter().enumerate() {
        shares[i % connections].push(session);
    }
    let window = Window::starting_now(warmup, duration);
    let mut workers = JoinSet::new();
    for (worker, mut share) in shares.into_iter().enumerate() {
        let api = Arc::clone(&api);
        workers.spawn(async move {
            let mut tally = Tally::new();
            let mut turn = 0usize;
            while window.open() && !share.is_empty() {
                let slot = turn % share.len();
                turn += 1;
                let started = Instant::now();
                match api.refresh(&share[slot]).await {
                    Ok(next) => {
                        share[slot] = next;
                        tally.record(&window, started, Ok(()));
                    }
                    Err(error) => {
                        tally.record(&window, started, Err(error.to_string()));
                        // The chain may be broken (revoked session): sign in again, untimed, and carry on.
                        let email =
                            format!("refresh-{}-w{worker}-{turn}@loadgen.example.com", run_tag());
                        match api.login(&email).await {
                            Ok(fresh) => share[slot] = fresh,
                            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
                        }
                    }
                }
            }
            tally
        });
    }
    finish("refresh", connections, window, workers).await
}

/// `connections` workers, each signing in new users by email (init, code from the mailbox, authenticate).
pub async fn email_login(
    api: Arc<Api>,
    connections: usize,
    warmup: Duration,
    duration: Duration,
) -> Report {
    let tag = run_tag();
    let window = Window::starting_now(warmup, duration);
    let mut workers = JoinSet::new();
    for worker in 0..connections {
        let api = Arc::clone(&api);
        let tag = tag.clone();
        workers.spawn(async move {
            let mut tally = Tally::new();
            let mut n = 0u64;
            while window.open() {
                n += 1;
                let email = format!("login-{tag}-{worker}-{n}@loadgen.example.com");
                let started = Instant::now();
                let outcome = api
                    .login(&email)
                    .await
                    .map(|_| ())
                    .map_err(|e| e.to_string());
                tally.record(&window, started, outcome);
            }
            tally
        });
    }
    finish("email-login", connections, window, workers).await
}

/// `connections` workers, each signing in new users by SMS (init, code from the SMS catcher, authenticate).
pub async fn sms_login(
    api: Arc<Api>,
    connections: usize,
    warmup: Duration,
    duration: Duration,
) -> Report {
    // Valid North American numbers (+1 201 2xx-9xx xxxx), a fresh block per run and per worker.
    let base = u64::from_str_radix(&run_tag(), 16).unwrap_or_default();
    let window = Window::starting_now(warmup, duration);
    let mut workers = JoinSet::new();
    for worker in 0..connections {
        let api = Arc::clone(&api);
        workers.spawn(async move {
            let mut tally = Tally::new();
            let mut n = 0u64;
            while window.open() {
                n += 1;
                let line = (base + worker as u64 * 100_000 + n) % 8_000_000 + 2_000_000;
                let number = format!("+1201{line:07}");
                let started = Instant::now();
                let outcome = api
                    .sms_login(&number)
                    .await
                    .map(|_| ())
                    .map_err(|e| e.to_string());
                tally.record(&window, started, outcome);
            }
            tally
        });
    }
    finish("sms-login", connections, window, workers).await
}

/// Imports `users` new users through `POST /v1/users/import` in batches of `batch`, `connections` batches in
/// flight: every batch is timed, and the report adds users per second over the whole run.
pub async fn import(
    api: Arc<Api>,
    secret: Arc<str>,
    users: usize,
    batch: usize,
    connections: usize,
) -> Report {
    let tag = run_tag();
    let batches = users.div_ceil(batch.max(1));
    let next = Arc::new(AtomicUsize::new(0));
    let created = Arc::new(AtomicUsize::new(0));
    let window = Window::starting_now(Duration::ZERO, Duration::from_secs(3600));
    let mut workers = JoinSet::new();
    for _ in 0..connections {
        let (api, secret, next, created, tag) = (
            Arc::clone(&api),
            Arc::clone(&secret),
            Arc::clone(&next),
            Arc::clone(&created),
            tag.clone(),
        );
        workers.spawn(async move {
            let mut tally = Tally::new();
            loop {
                let number = next.fetch_add(1, Ordering::Relaxed);
                if number >= batches {
                    return tally;
                }
                let first = number * batch;
                let body = serde_json::json!({ "users": (first..(first + batch).min(users))
                    .map(|i| serde_json::json!({ "linked_accounts": [
                        { "type": "email", "address": format!("import-{tag}-{i}@loadgen.example.com") }
                    ]}))
                    .collect::<Vec<_>>() });
                let started = Instant::now();
                let outcome = api
                    .v1(&secret, reqwest::Method::POST, "/v1/users/import", Some(&body))
                    .await
                    .map_err(|e| e.to_string())
                    .and_then(|answer| {
                        let results = answer["results"].as_array().cloned().unwrap_or_default();
                        let ok = results.iter().filter(|r| r["success"] == true).count();
                        created.fetch_add(ok, Ordering::Relaxed);
                        if ok == results.len() && !results.is_empty() {
                            Ok(())
                        } else {
                            Err(format!("{} of {} users refused", results.len() - ok, results.len()))
                        }
                    });
                tally.record(&window, started, outcome);
            }
        });
    }
    let mut report = finish("import", connections, window, workers).await;
    let created = created.load(Ordering::Relaxed) as u64;
    report.items = Some(created);
    report.items_per_second = Some(if report.seconds > 0.0 {
        created as f64 / report.seconds
    } else {
        0.0
    });
    report
}

/// `connections` workers walk the app's user list (`GET /v1/users`, pages of 100, from the start again at the end).
pub async fn list_users(
    api: Arc<Api>,
    secret: Arc<str>,
    connections: usize,
    warmup: Duration,
    duration: Duration,
) -> Report {
    let window = Window::starting_now(warmup, duration);
    let mut workers = JoinSet::new();
    for _ in 0..connections {
        let (api, secret) = (Arc::clone(&api), Arc::clone(&secret));
        workers.spawn(async move {
            let mut tally = Tally::new();
            let mut cursor: Option<String> = None;
            while window.open() {
                let path = match &cursor {
                    Some(cursor) => format!("/v1/users?limit=100&cursor={cursor}"),
                    None => "/v1/users?limit=100".to_owned(),
                };
                let started = Instant::now();
                let outcome = api
                    .v1(&secret, reqwest::Method::GET, &path, None)
                    .await
                    .map_err(|e| e.to_string());
                cursor = outcome
                    .as_ref()
                    .ok()
                    .and_then(|page| page["next_cursor"].as_str().map(str::to_owned));
                tally.record(&window, started, outcome.map(|_| ()));
            }
            tally
        });
    }
    finish("list-users", connections, window, workers).await
}

/// Signs wallet-API requests as `@privy-io/node` does: P-256 over the canonical request (the signer crate's
/// payload), with the app id and a deadline among the signed headers.
pub struct RequestSigner {
    public_url: String,
    app_id: String,
    key: p256::ecdsa::SigningKey,
}

impl RequestSigner {
    /// A signer for requests to `public_url` with the base64 PKCS#8 `key`.
    pub fn new(public_url: &str, app_id: &str, key: &str) -> std::result::Result<Self, String> {
        use base64::Engine;
        use p256::pkcs8::DecodePrivateKey;
        let der = base64::engine::general_purpose::STANDARD
            .decode(key.trim())
            .map_err(|e| format!("--key is not base64: {e}"))?;
        let key = p256::ecdsa::SigningKey::from_pkcs8_der(&der)
            .map_err(|e| format!("--key is not a PKCS#8 P-256 key: {e}"))?;
        Ok(Self {
            public_url: public_url.trim_end_matches('/').to_owned(),
            app_id: app_id.to_owned(),
            key,
        })
    }

    /// The headers of a `POST {path}` with `body`: the signature and its deadline (10 minutes on).
    fn headers(
        &self,
        path: &str,
        body: &serde_json::Value,
    ) -> std::result::Result<Vec<(&'static str, String)>, String> {
        use base64::Engine;
        use p256::ecdsa::signature::Signer;
        let expiry = (SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis())
            .unwrap_or_default()
            + 600_000)
            .to_string();
        let request = symbolon_signer::authorization::SignedRequest {
            method: "POST".into(),
            url: format!("{}{path}", self.public_url),
            body: body.clone(),
            headers: [
                ("privy-app-id".to_owned(), self.app_id.clone()),
                ("privy-request-expiry".to_owned(), expiry.clone()),
            ]
            .into(),
            signatures: Vec::new(),
        };
        let payload = request.payload().map_err(|e| e.to_string())?;
        let signature: p256::ecdsa::Signature = self.key.sign(&payload);
        Ok(vec![
            (
                "privy-authorization-signature",
                base64::engine::general_purpose::STANDARD.encode(signature.to_der().as_bytes()),
            ),
            ("privy-request-expiry", expiry),
        ])
    }
}

/// `connections` workers sign with a delegated wallet (`personal_sign` of a fresh message, or
/// `eth_signTransaction` of a complete transaction with a fresh nonce: each signed request is used once).
#[allow(clippy::too_many_arguments)]
pub async fn wallet_rpc(
    api: Arc<Api>,
    secret: Arc<str>,
    signer: Arc<RequestSigner>,
    wallet: Arc<str>,
    method: Arc<str>,
    connections: usize,
    warmup: Duration,
    duration: Duration,
) -> Report {
    let window = Window::starting_now(warmup, duration);
    let tag = run_tag();
    let path: Arc<str> = format!("/v1/wallets/{wallet}/rpc").into();
    let mut workers = JoinSet::new();
    for worker in 0..connections {
        let (api, secret, signer, path, method, tag) = (
            Arc::clone(&api),
            Arc::clone(&secret),
            Arc::clone(&signer),
            Arc::clone(&path),
            Arc::clone(&method),
            tag.clone(),
        );
        workers.spawn(async move {
            let mut tally = Tally::new();
            let mut n = 0u64;
            while window.open() {
                n += 1;
                let body = match &*method {
                    "eth_signTransaction" => serde_json::json!({
                        "method": "eth_signTransaction", "chain_type": "ethereum",
                        "params": { "transaction": {
                            "to": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "value": "0x1",
                            "chain_id": 50312, "nonce": worker as u64 * 1_000_000_000 + n,
                            "gas_limit": 21000, "max_fee_per_gas": "0x3b9aca00", "max_priority_fee_per_gas": "0x1" } }
                    }),
                    _ => serde_json::json!({
                        "method": "personal_sign", "chain_type": "ethereum",
                        "params": { "message": format!("Sign in to loadgen {tag}-{worker}-{n}"), "encoding": "utf-8" }
                    }),
                };
                let started = Instant::now();
                let outcome = match signer.headers(&path, &body) {
                    Ok(headers) => api
                        .v1_signed(&secret, &path, &body, &headers)
                        .await
                        .map(|_| ())
                        .map_err(|e| e.to_string()),
                    Err(error) => Err(error),
                };
                tally.record(&window, started, outcome);
            }
            tally
        });
    }
    finish("wallet-rpc", connections, window, workers).await
}

async fn finish(
    scenario: &str,
    connections: usize,
    window: Window,
    mut workers: JoinSet<Tally>,
) -> Report {
    let mut total = Tally::new();
    while let Some(joined) = workers.join_next().await {
        match joined {
            Ok(tally) => total.merge(tally),
            Err(error) => {
                total.errors += 1;
                total.samples.push(format!("worker panicked: {error}"));
            }
        }
    }
    // Measured time: from the end of warm-up until the last worker finished its last operation.
    let elapsed = Instant::now().saturating_duration_since(window.measure_from);
    Report::new(
        scenario,
        connections,
        elapsed,
        &total.histogram,
        total.errors,
        total.samples,
    )
}
