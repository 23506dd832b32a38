//! The OpenAPI 3.1 document of every route, served at `GET /api/v1/openapi.json`, built from the
//! capabilities' route tables ([`super::routes`]; how to add a route: `crate::web::routes`).
//! Request and response schemas come from the wire types' `utoipa::ToSchema` derives (protocol
//! feature `openapi`).

use std::sync::OnceLock;

use axum::Json;
use serde_json::{Map, Value, json};
use symbolon_protocol::constants::{HEADER_APP_ID, HEADER_CLIENT_ID, HEADER_IDEMPOTENCY_KEY};
use symbolon_protocol::{ErrorResponse, ServerErrorCode};
use utoipa::ToSchema;

use crate::web::routes::Access::{
    App, AppOrigin, AppSecret, BackChannel, Frame, Public, User as Bearer, UserOrigin,
};
use crate::web::routes::{Body, Route, Schemas, Verb, json};

/// `GET /health`.
#[derive(Debug, Clone, serde::Serialize, ToSchema)]
pub struct HealthResponse {
    /// Always `ok`.
    pub status: String,
}

/// `GET /api/v1/openapi.json`.
pub async fn serve() -> Json<Value> {
    Json(document().clone())
}

/// The document, built once.
pub fn document() -> &'static Value {
    static DOCUMENT: OnceLock<Value> = OnceLock::new();
    DOCUMENT.get_or_init(build)
}

/// The error statuses `route` can answer, each with an [`ErrorResponse`] body.
///
/// Every route: 405 (another method on its path), 408 and 503 (body and request deadlines),
/// 500. A body: 400 (`invalid_data`), 413 (over the size limit, still `invalid_data`). App routes: 400 (`privy-app-id`, `privy-client-id`),
/// 403 (`Origin`). Bearer routes: 401. Then the route's own list.
pub fn error_statuses(route: &Route) -> Vec<u16> {
    let mut statuses = vec![405, 408, 500, 503];
    if route.request.is_some() {
        statuses.extend([400, 413]);
    }
    match route.access {
        Public | BackChannel => {}
        App | AppOrigin => statuses.extend([400, 403]),
        Bearer | UserOrigin | Frame => statuses.extend([400, 401, 403]),
        // A keyed POST may find its key's first request still running (409).
        AppSecret if route.verb == Verb::Post => statuses.extend([400, 401, 409, 429]),
        AppSecret => statuses.extend([400, 401, 429]),
    }
    statuses.extend(route.errors);
    statuses.sort_unstable();
    statuses.dedup();
    statuses
}

fn header_param(name: &str, required: bool, description: &str) -> Value {
    json!({
        "name": name,
        "in": "header",
        "required": required,
        "description": description,
        "schema": { "type": "string" },
    })
}

fn path_params(path: &str) -> Vec<Value> {
    path.split('/')
        .filter_map(|s| s.strip_prefix('{')?.strip_suffix('}'))
        .map(|name| json!({ "name": name, "in": "path", "required": true, "schema": { "type": "string" } }))
        .collect()
}

fn parameters(route: &Route) -> Vec<Value> {
    let mut params = path_params(route.path);
    let app_id = |required| {
        header_param(
            HEADER_APP_ID,
            required,
            "The app id (25 characters); for the wallet frame, defaults to the token's audience",
        )
    };
    let client_id = header_param(
        HEADER_CLIENT_ID,
        false,
        "A client id of the app; sent only when the host set one",
    );
    let origin = |required| {
        header_param(
            "Origin",
            required,
            "The calling page's origin; must be one of the app's allowed origins",
        )
    };
    match route.access {
        Public | BackChannel => {}
        App | Bearer => params.extend([app_id(true), client_id, origin(false)]),
        AppSecret => {
            params.push(app_id(true));
            if route.verb == Verb::Post {
                params.push(header_param(
                    HEADER_IDEMPOTENCY_KEY,
                    false,
                    "Runs the request once per key for 24 h; a repeat gets the first answer",
                ));
            }
        }
        AppOrigin | UserOrigin => params.extend([app_id(true), client_id, origin(true)]),
        Frame => params.extend([
            app_id(false),
            client_id,
            header_param("Origin", true, "The server's own origin (the wallet frame)"),
        ]),
    }
    params
}

fn json_content(schema: Value) -> Value {
    json!({ "application/json": { "schema": schema } })
}

fn reason(status: u16) -> &'static str {
    match status {
        400 => "Malformed request, header or parameter",
        401 => "Missing, invalid or expired token or credentials",
        403 => "Origin, app or policy refused",
        404 => "Not found",
        405 => "Method not allowed",
        408 => "The request body was not received in time",
        409 => "A concurrent change conflicted; retry",
        413 => "Request body too large",
        415 => "Unsupported content type",
        422 => "Refused for this account",
        429 => "Rate limited; see Retry-After",
        500 => "Internal error",
        502 => "A third party (the OAuth provider) failed or timed out",
        503 => "The request took too long",
        _ => "Error",
    }
}

fn operation(route: &Route, schemas: &mut Schemas) -> Value {
    let error_ref = json::<ErrorResponse>(schemas);
    let mut responses = Map::new();
    let success = match route.response {
        Body::Json(schema) => {
            json!({ "description": "Success", "content": json_content(schema(schemas)) })
        }
        Body::AnyJson => {
            json!({ "description": "Success", "content": json_content(json!({ "type": "object" })) })
        }
        Body::Html => {
            json!({ "description": "The page", "content": { "text/html": { "schema": { "type": "string" } } } })
        }
        Body::Redirect => json!({
            "description": "Redirect to the page that started the flow",
            "headers": { "Location": { "description": "The page, with the privy_oauth_* parameters", "schema": { "type": "string" } } },
        }),
        Body::Empty => json!({ "description": "Done; no body" }),
        Body::Asset => json!({
            "description": "The asset",
            "content": Map::from_iter(ASSET_TYPES.iter().map(|t| ((*t).to_string(), json!({ "schema": { "type": "string" } })))),
        }),
    };
    let success_status = match route.response {
        Body::Redirect => "302",
        Body::Empty => "204",
        _ => "200",
    };
    responses.insert(success_status.into(), success);
    for status in error_statuses(route) {
        let mut content = json_content(error_ref.clone());
        // The frame page and assets answer their own errors as text; timeouts and wrong methods
        // are JSON everywhere.
        let text = match route.response {
            Body::Html if matches!(status, 400 | 404 | 500 | 503) => Some("text/html"),
            Body::Asset if matches!(status, 400 | 404) => Some("text/plain"),
            _ => None,
        };
        if let (Some(text), Some(map)) = (text, content.as_object_mut()) {
            map.insert(text.into(), json!({ "schema": { "type": "string" } }));
        }
        let mut response = json!({ "description": reason(status), "content": content });
        if status == 429 {
            response["headers"] = json!({
                "Retry-After": { "description": "Seconds to wait", "schema": { "type": "integer" } }
            });
        }
        responses.insert(status.to_string(), response);
    }
    let mut op = json!({
        "operationId": operation_id(route),
        "summary": route.summary,
        "parameters": parameters(route),
        "responses": responses,
    });
    if let Some(request) = route.request {
        let required = route.path != "/api/v1/sessions/logout";
        op["requestBody"] =
            json!({ "required": required, "content": json_content(request(schemas)) });
    }
    if matches!(route.access, Bearer | UserOrigin | Frame) {
        op["security"] = json!([{ "bearer": [] }]);
    }
    if matches!(route.access, AppSecret) {
        op["security"] = json!([{ "appSecret": [] }]);
    }
    op
}

/// Content types of the frame's assets (`wallet_frame::content_type`).
const ASSET_TYPES: &[&str] = &[
    "text/javascript",
    "application/wasm",
    "text/css",
    "application/json",
    "image/svg+xml",
    "image/png",
    "font/woff2",
    "application/octet-stream",
];

fn operation_id(route: &Route) -> String {
    let mut id = route.verb.as_str().to_string();
    for part in route.path.split('/').filter(|p| !p.is_empty()) {
        id.push('_');
        id.extend(
            part.chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }),
        );
    }
    id
}

fn build() -> Value {
    let mut schemas = Schemas::new();
    let mut paths = Map::new();
    for route in super::routes() {
        let op = operation(route, &mut schemas);
        let item = paths
            .entry(route.path.to_string())
            .or_insert_with(|| json!({}));
        item[route.verb.as_str()] = op;
    }
    // Every code, even those no schema above names.
    let _ = json::<ServerErrorCode>(&mut schemas);
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Symbolon",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Login and embedded-wallet server. Errors are `{error, code}` (ErrorResponse).",
        },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "bearer": { "type": "http", "scheme": "bearer", "bearerFormat": "JWT" },
                "appSecret": {
                    "type": "http",
                    "scheme": "basic",
                    "description": "The app id and an app secret (`symbolon apps secret create`)",
                },
            },
        },
    })
}
