//! The OpenAPI document (`GET /api/v1/openapi.json`): it covers every route the router mounts,
//! every route it lists is mounted, and it is a well-formed OpenAPI 3.1 document whose `$ref`s
//! all resolve.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::collections::BTreeSet;

use axum::http::{Method, StatusCode};
use common::{Backend, TestApp};
use serde_json::Value;
use symbolon_server::http::{openapi, routes};
use symbolon_server::web::routes::Access;

/// Routes are mounted only through `web::routes::Mount`, which panics on a route missing from
/// its capability's table: building the router (below) is the check. No source file but `Mount`
/// itself calls the router's own mounting methods, so this stays the only way in.
#[test]
fn the_router_mounts_routes_only_through_the_documented_tables() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut pending = vec![root.clone()];
    let mut checked = 0;
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") || path.ends_with("web/routes.rs") {
                continue;
            }
            let source = std::fs::read_to_string(&path).unwrap();
            // Production code only (unit tests build small routers of their own).
            let source = source.split("#[cfg(test)]").next().unwrap_or_default();
            checked += 1;
            for bypass in [".route(", ".route_service(", ".nest(", ".nest_service("] {
                assert!(
                    !source.contains(bypass),
                    "{} calls `{bypass}`: mount routes with web::routes::Mount so they are documented",
                    path.display()
                );
            }
        }
    }
    assert!(checked > 50, "only {checked} files read");
}

/// Every documented route answers from its handler: not the JSON 404 fallback, not 405.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_documented_route_is_mounted_and_every_mounted_route_documented() {
    // The test harness's HTTP client needs the process's rustls provider.
    let _ = rustls::crypto::ring::default_provider().install_default();
    // `app()` (inside `start`) panics if a mounted route is missing from its table.
    let t = TestApp::start(Backend::Sqlite).await;
    for route in routes() {
        let path = route
            .path
            .replace("{app_id}", &t.app_id)
            .replace("{address}", "0x0000000000000000000000000000000000000001")
            .replace("{file}", "missing.js");
        let method = route.verb.method();
        let reply = t.request(method.clone(), &path).raw_body("{}").send().await;
        let fallback = reply.status == StatusCode::NOT_FOUND && reply.body["code"] == "not_found";
        assert!(
            !fallback && reply.status != StatusCode::METHOD_NOT_ALLOWED,
            "{method} {path} is documented but not mounted: {} {}",
            reply.status,
            reply.text
        );
    }
    let reply = t.get("/api/v1/openapi.json").send().await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(&reply.body, openapi::document());
}

/// The document's paths and methods are exactly the routes of the tables.
#[test]
fn the_document_lists_exactly_the_routes() {
    let doc = openapi::document();
    let mut listed = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            listed.insert((method.clone(), path.clone()));
        }
    }
    let table: BTreeSet<_> = routes()
        .map(|r| (r.verb.as_str().to_string(), r.path.to_string()))
        .collect();
    assert_eq!(listed, table);
    assert_eq!(table.len(), routes().count(), "a route is listed twice");
}

/// OpenAPI 3.1 well-formedness: utoipa's model reads it back unchanged, every `$ref` resolves,
/// every path parameter is declared, every operation documents 200 and `ErrorResponse` errors.
#[test]
fn the_document_is_valid_openapi_3_1() {
    let doc = openapi::document();
    assert_eq!(doc["openapi"], "3.1.0");
    let model: utoipa::openapi::OpenApi = serde_json::from_value(doc.clone()).expect("parses");
    let back = serde_json::to_value(&model).unwrap();
    assert_eq!(back["paths"], doc["paths"], "paths survive a round trip");
    assert_eq!(
        back["components"]["schemas"], doc["components"]["schemas"],
        "schemas survive a round trip"
    );

    let mut refs = Vec::new();
    collect_refs(doc, &mut refs);
    assert!(!refs.is_empty());
    for target in refs {
        let pointer = target.strip_prefix('#').expect("local $ref");
        assert!(doc.pointer(pointer).is_some(), "unresolved $ref {target}");
    }

    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let declared: BTreeSet<&str> = op["parameters"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|p| p["in"] == "path")
                .map(|p| p["name"].as_str().unwrap())
                .collect();
            let in_path: BTreeSet<&str> = path
                .split('/')
                .filter_map(|s| s.strip_prefix('{')?.strip_suffix('}'))
                .collect();
            assert_eq!(declared, in_path, "{method} {path}");
            let responses = op["responses"].as_object().unwrap();
            let success = ["200", "204", "302"]
                .iter()
                .any(|status| responses.contains_key(*status));
            assert!(success, "{method} {path}");
            for status in ["405", "500"] {
                let schema = &responses[status]["content"]["application/json"]["schema"];
                assert_eq!(
                    schema["$ref"], "#/components/schemas/ErrorResponse",
                    "{method} {path} {status}"
                );
            }
        }
    }
}

fn collect_refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                match (key.as_str(), v) {
                    ("$ref", Value::String(target)) => out.push(target.clone()),
                    _ => collect_refs(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, out)),
        _ => {}
    }
}

/// Answers the fuzzer cannot produce (it sends UTF-8 and small bodies) still have the documented
/// JSON error shape: a path parameter that is not UTF-8, a body over the size limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undecodable_paths_and_oversize_bodies_answer_wire_errors() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let t = TestApp::start(Backend::Sqlite).await;
    for path in [
        "/api/v1/apps/%FF",
        "/api/v1/apps/%FF/jwks.json",
        "/apps/%FF/embedded-wallets",
        "/embedded-wallets/assets/%FF",
    ] {
        t.get(path).send().await.assert_error(400, "invalid_data");
    }
    let big = format!("\"{}\"", "a".repeat(3 << 20));
    for path in ["/api/v1/analytics_events", "/api/v1/passwordless/init"] {
        t.request(Method::POST, path)
            .raw_body(&big)
            .send()
            .await
            .assert_error(413, "invalid_data");
    }
}

/// Route policy lives in the route tables: no handler picks a rate-limit budget, checks that a
/// login method is enabled, or requires an `Origin` itself (the rows' `limited`, `gated` and
/// `Access` do, enforced by the extractors).
#[test]
fn route_policy_is_declared_in_the_tables_not_in_handlers() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut pending = vec![root.join("methods"), root.join("mfa"), root.join("wallets")];
    pending.extend(["sessions", "users", "provider_app"].map(|d| root.join(d)));
    let mut checked = 0;
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            let source = std::fs::read_to_string(&path).unwrap();
            let source = source.split("#[cfg(test)]").next().unwrap_or_default();
            checked += 1;
            for by_hand in ["ip_limits.", "require_method(", "require_origin()"] {
                assert!(
                    !source.contains(by_hand),
                    "{} calls `{by_hand}`: declare it in the route's table row",
                    path.display()
                );
            }
        }
    }
    assert!(checked > 40, "only {checked} files read");
    // The rows say it: every login start anyone may call (no session) is gated and limited.
    for route in routes() {
        if route.path.ends_with("/init")
            && route.method.is_some()
            && route.access == Access::AppOrigin
        {
            assert!(
                route.budget.is_some(),
                "{} starts a login unlimited",
                route.path
            );
        }
    }
    assert!(routes().filter(|r| r.method.is_some()).count() >= 25);
}
