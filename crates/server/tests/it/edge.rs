//! The HTTP edge in-process: CORS preflights for every header the spec's client sends, origins
//! compared the way browsers send them, and the client address behind trusted proxies.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use axum::Router;
use axum::http::{Method, StatusCode};
use axum::routing::get;
use common::{Backend, CLIENT_ID, ORIGIN, TestApp, fresh_database, remove_database_file};
use serde_json::json;
use symbolon_server::db::Db;
use symbolon_server::db::apps::AppRecord;
use symbolon_server::http::routes;
use symbolon_server::web::client_ip::ClientIp;
use symbolon_server::web::routes::{Access, Body};

backend_tests!(
    every_host_route_preflight_allows_the_spec_clients_headers,
    origins_match_regardless_of_case_and_default_port,
    origins_stored_before_normalisation_are_rewritten,
    unknown_client_ids_are_refused,
    proxy_headers_count_only_from_trusted_proxies,
);

/// Every request header the spec's published client sends cross-origin (wire notes), with the
/// retry counter it adds to every request.
const CLIENT_HEADERS: [&str; 9] = [
    "privy-app-id",
    "privy-client-id",
    "privy-client",
    "privy-ca-id",
    "privy-retry-attempt",
    "privy-idempotency-key",
    "x-native-app-identifier",
    "authorization",
    "content-type",
];

/// Every route host pages call (the CORS-covered half of the router): every documented route but
/// the wallet frame's API calls, the back channels (cross-app token and user info), the `/v1` API
/// of host back ends (app secrets never belong in a page) and the pages a
/// browser navigates to (the wallet frame and cross-app pages, their assets, the OAuth callback).
fn host_routes(app_id: &str) -> Vec<(Method, String)> {
    routes()
        .filter(|r| {
            !matches!(
                r.access,
                Access::Frame | Access::BackChannel | Access::AppSecret
            ) && !matches!(r.response, Body::Html | Body::Asset | Body::Redirect)
        })
        .map(|r| {
            let method = Method::from_bytes(r.verb.as_str().to_uppercase().as_bytes()).unwrap();
            (method, r.path.replace("{app_id}", app_id))
        })
        .collect()
}

async fn every_host_route_preflight_allows_the_spec_clients_headers(backend: Backend) {
    let t = TestApp::start(backend).await;
    for (method, path) in host_routes(&t.app_id) {
        let reply = t
            .request(Method::OPTIONS, &path)
            .without("privy-app-id")
            .without("content-type")
            .header("access-control-request-method", method.as_str())
            .header("access-control-request-headers", &CLIENT_HEADERS.join(","))
            .send()
            .await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "{method} {path}: {}",
            reply.text
        );
        assert_eq!(
            reply.header("access-control-allow-origin"),
            Some(ORIGIN),
            "{path}"
        );
        assert_eq!(
            reply.header("access-control-allow-credentials"),
            Some("true"),
            "{path}"
        );
        let allowed: Vec<String> = reply
            .header("access-control-allow-headers")
            .unwrap_or_default()
            .split(',')
            .map(|h| h.trim().to_ascii_lowercase())
            .collect();
        for name in CLIENT_HEADERS {
            assert!(
                allowed.iter().any(|h| h == name),
                "{method} {path}: preflight does not allow {name} (allowed: {allowed:?})"
            );
        }
        let methods = reply
            .header("access-control-allow-methods")
            .unwrap_or_default();
        assert!(methods.contains(method.as_str()), "{path}: {methods}");
    }
}

/// An app whose origins were entered the way an operator might type them.
async fn app_with_origins(t: &TestApp, origins: &[&str]) -> String {
    let id = symbolon_server::random::random_id(25).unwrap();
    let record = AppRecord {
        id: id.clone(),
        name: "Typed origins".into(),
        allowed_origins: origins.iter().map(|o| o.to_string()).collect(),
        client_ids: vec![CLIENT_ID.into()],
        disable_plus_emails: false,
        require_users_accept_terms: false,
        settings: Default::default(),
    };
    t.state
        .db
        .upsert_app(&record, t.state.clock.now())
        .await
        .unwrap();
    id
}

async fn origins_match_regardless_of_case_and_default_port(backend: Backend) {
    let t = TestApp::start(backend).await;
    let id = app_with_origins(
        &t,
        &["http://LOCALHOST:5173", "https://Shop.Example.com:443/"],
    )
    .await;
    let stored = t.state.db.find_app(&id).await.unwrap().unwrap();
    let mut origins = stored.allowed_origins.clone();
    origins.sort();
    assert_eq!(
        origins,
        ["http://localhost:5173", "https://shop.example.com"]
    );
    // What browsers send: lowercase, no default port.
    for browser in ["http://localhost:5173", "https://shop.example.com"] {
        let preflight = t
            .request(Method::OPTIONS, &format!("/api/v1/apps/{id}"))
            .without("privy-app-id")
            .header("origin", browser)
            .header("access-control-request-method", "GET")
            .header("access-control-request-headers", "privy-app-id")
            .send()
            .await;
        assert_eq!(
            preflight.header("access-control-allow-origin"),
            Some(browser)
        );
        let reply = t
            .get(&format!("/api/v1/apps/{id}"))
            .header("privy-app-id", &id)
            .header("origin", browser)
            .send()
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{browser}: {}", reply.text);
        assert_eq!(reply.header("access-control-allow-origin"), Some(browser));
        // A login call (origin-checked) is accepted too.
        let init = t
            .post(
                "/api/v1/passwordless/init",
                json!({ "email": common::unique_email() }),
            )
            .header("privy-app-id", &id)
            .header("origin", browser)
            .send()
            .await;
        assert_eq!(init.status, StatusCode::OK, "{browser}: {}", init.text);
    }
    // The wallet frame's allowed-origins list comes from the same normalised list.
    let frame = t
        .get(&format!("/apps/{id}/embedded-wallets?caid=x"))
        .send()
        .await;
    let csp = frame
        .header("content-security-policy")
        .unwrap_or_default()
        .to_string();
    assert!(
        csp.contains("http://localhost:5173") && csp.contains("https://shop.example.com"),
        "{csp}"
    );
    // Other origins stay refused.
    t.get(&format!("/api/v1/apps/{id}"))
        .header("privy-app-id", &id)
        .header("origin", "https://shop.example.com:8443")
        .send()
        .await
        .assert_error(403, "invalid_origin");
}

async fn origins_stored_before_normalisation_are_rewritten(backend: Backend) {
    let url = fresh_database(backend).await;
    let db = Db::connect(&url).await.unwrap();
    // The schema as it was before migration 5, with origins as older versions stored them.
    let before = symbolon_server::db::migrations::migrator(Some(5));
    before.run(db.writer()).await.unwrap();
    let id = "cm00000000000000000legacy";
    sqlx::query(
        "INSERT INTO apps (id, name, disable_plus_emails, require_users_accept_terms, created_at)
         VALUES ($1, 'Legacy', 0, 0, 0)",
    )
    .bind(id)
    .execute(db.writer())
    .await
    .unwrap();
    for origin in [
        "http://LOCALHOST:5173",
        "http://localhost:5173",
        "https://X.com:443",
        "http://y.com:80",
        "http://z.com:8080",
    ] {
        sqlx::query("INSERT INTO app_origins (app_id, origin) VALUES ($1, $2)")
            .bind(id)
            .bind(origin)
            .execute(db.writer())
            .await
            .unwrap();
    }
    db.migrate().await.unwrap();
    let mut origins = db.find_app(id).await.unwrap().unwrap().allowed_origins;
    origins.sort();
    assert_eq!(
        origins,
        [
            "http://localhost:5173",
            "http://y.com",
            "http://z.com:8080",
            "https://x.com"
        ]
    );
    assert!(db.origin_allowed_by_any_app("https://x.com").await.unwrap());
    db.close().await;
    remove_database_file(&url);
}

async fn unknown_client_ids_are_refused(backend: Backend) {
    let t = TestApp::start(backend).await;
    let path = format!("/api/v1/apps/{}", t.app_id);
    let ok = t
        .get(&path)
        .header("privy-client-id", CLIENT_ID)
        .send()
        .await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.text);
    let empty = t.get(&path).header("privy-client-id", "").send().await;
    assert_eq!(empty.status, StatusCode::OK, "{}", empty.text);
    t.get(&path)
        .header("privy-client-id", "someone-else")
        .send()
        .await
        .assert_error(400, "missing_or_invalid_privy_client_id");
}

async fn proxy_headers_count_only_from_trusted_proxies(backend: Backend) {
    let t = TestApp::start_with(backend, |config| {
        config.http.trusted_proxies =
            symbolon_server::config::parse_proxy_list("10.0.0.0/8").unwrap();
    })
    .await;
    let router: Router = Router::new()
        .route(
            "/ip",
            get(|ip: ClientIp| async move {
                axum::Json(json!({ "key": ip.ip().to_string(), "net": ip.network_key() }))
            }),
        )
        .with_state(t.state.clone());
    let key = |peer: &'static str, forwarded: Option<&'static str>| {
        let router = router.clone();
        let t = &t;
        async move {
            let mut call = t.get("/ip").via(&router).client_ip(peer);
            if let Some(value) = forwarded {
                call = call.header("x-forwarded-for", value);
            }
            let body = call.send().await.body;
            let (ip, net) = (body["key"].as_str().unwrap(), body["net"].as_str().unwrap());
            // The limits' key is the client's network (IPv4 /24, IPv6 /64).
            if ip.contains(':') {
                net.to_string()
            } else {
                ip.to_string()
            }
        }
    };
    // Behind the proxy, two clients are two keys (not the proxy's one).
    assert_eq!(key("10.0.0.1", Some("198.51.100.1")).await, "198.51.100.1");
    assert_eq!(key("10.0.0.1", Some("198.51.100.2")).await, "198.51.100.2");
    // A client writing its own X-Forwarded-For through the proxy still gets its own address.
    assert_eq!(
        key("10.0.0.1", Some("1.2.3.4, 198.51.100.3")).await,
        "198.51.100.3"
    );
    // Straight from the internet, the header is the client's own claim and ignored.
    assert_eq!(
        key("203.0.113.5", Some("198.51.100.1")).await,
        "203.0.113.5"
    );
    // IPv6 clients are grouped by /64 (and IPv4 ones by /24: tests/it/codes.rs).
    assert_eq!(
        key("10.0.0.1", Some("2001:db8:aa:bb:1::1")).await,
        "2001:db8:aa:bb::/64"
    );
}
