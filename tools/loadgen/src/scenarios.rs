//! The two load scenarios. Each worker is one connection with its own work: a refresh chain (request n uses the
//! refresh token from response n−1, which is why a generic HTTP load tool cannot do this) or a login loop.

use std::sync::Arc;
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
