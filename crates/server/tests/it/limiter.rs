//! The database-kept rate limiter (`SYMBOLON_RATE_LIMIT_STORE=database`) on both backends: the same
//! budget as the in-memory one, shared by every instance over the database, exact under concurrency.

use std::sync::Arc;

use serde_json::json;
use symbolon_server::config::LimiterStore;
use symbolon_server::rate_limit::{DatabaseLimiter, Limiter, RetryAfter};
use tokio::task::JoinSet;

use crate::common::{Backend, TestApp, unique_email};

type TestResult = Result<(), Box<dyn std::error::Error + Send + Sync>>;

backend_tests!(
    a_shared_budget_bursts_then_refills_across_instances,
    concurrent_checks_pass_exactly_the_budget,
    concurrent_requests_pass_exactly_the_configured_budget,
);

async fn a_shared_budget_bursts_then_refills_across_instances(backend: Backend) {
    let t = TestApp::start(backend).await;
    // Two instances' limiters over one database: 6 at once, then one every 10 s.
    let first = DatabaseLimiter::new(t.state.db.clone(), "email", 6, 60);
    let second = DatabaseLimiter::new(t.state.db.clone(), "email", 6, 60);
    for n in 0..6 {
        let limiter = if n % 2 == 0 { &first } else { &second };
        assert_eq!(limiter.hit("net", 1_000).await, Ok(()));
    }
    assert_eq!(first.hit("net", 1_000).await, Err(RetryAfter(10)));
    assert_eq!(second.hit("net", 1_000).await, Err(RetryAfter(10)));
    assert_eq!(second.hit("other", 1_000).await, Ok(()));
    // Another budget's rows are its own.
    let sms = DatabaseLimiter::new(t.state.db.clone(), "sms", 1, 60);
    assert_eq!(sms.hit("net", 1_000).await, Ok(()));
    assert_eq!(first.hit("net", 1_004).await, Err(RetryAfter(6)));
    assert_eq!(second.hit("net", 1_010).await, Ok(()));
    assert_eq!(first.hit("net", 1_010).await, Err(RetryAfter(10)));
    // A quiet minute gives the whole burst back; the sweep then forgets the whole budgets.
    for _ in 0..6 {
        assert_eq!(first.hit("net", 1_080).await, Ok(()));
    }
    assert!(first.hit("net", 1_080).await.is_err());
    assert!(t.state.db.sweep_expired(1_200).await.expect("sweep") >= 3);
    assert_eq!(first.hit("net", 1_200).await, Ok(()));
    // A zero budget refuses without touching the database.
    let closed = DatabaseLimiter::new(t.state.db.clone(), "closed", 0, 60);
    assert_eq!(closed.hit("net", 1_000).await, Err(RetryAfter(60)));
}

async fn concurrent_checks_pass_exactly_the_budget(backend: Backend) {
    let t = TestApp::start(backend).await;
    let limiter = Arc::new(DatabaseLimiter::new(t.state.db.clone(), "wallet", 7, 600));
    let mut checks = JoinSet::new();
    for _ in 0..30 {
        let limiter = Arc::clone(&limiter);
        checks.spawn(async move { limiter.hit("one network", 5_000).await.is_ok() });
    }
    let mut passed = 0;
    while let Some(ok) = checks.join_next().await {
        passed += usize::from(ok.expect("check task"));
    }
    assert_eq!(passed, 7);
}

async fn concurrent_requests_pass_exactly_the_configured_budget(backend: Backend) {
    concurrent_requests(backend)
        .await
        .expect("concurrent requests");
}

async fn concurrent_requests(backend: Backend) -> TestResult {
    let t = Arc::new(
        TestApp::start_with(backend, |c| {
            c.rate_limit.store = LimiterStore::Database;
            c.rate_limit.ip_per_window = 3;
        })
        .await,
    );
    let mut requests = JoinSet::new();
    for _ in 0..10 {
        let t = Arc::clone(&t);
        requests.spawn(async move {
            let body = json!({ "email": unique_email() });
            t.post("/api/v1/passwordless/init", body)
                .send()
                .await
                .status
        });
    }
    let mut statuses = Vec::new();
    while let Some(status) = requests.join_next().await {
        statuses.push(status?.as_u16());
    }
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
    Ok(())
}
