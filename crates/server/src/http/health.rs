//! `GET /health`.

use axum::Json;
use serde_json::{Value, json};

/// Always `{"status":"ok"}` while the process serves requests.
pub async fn health() -> Json<Value> {
    Json(json!({ "status": "ok" }))
}
