//! `privy-idempotency-key` on the `/v1` API: a `POST` repeated with the same key within 24 hours
//! gets the first answer again instead of running twice, so a back end may retry a create after a
//! timeout without making two users. The same key with another request is refused; a key whose
//! first request is still running answers `409`, which the vendor's SDK retries.

use axum::body::{Body, to_bytes};
use axum::extract::{FromRequestParts, Request, State};
use axum::http::{HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::HEADER_IDEMPOTENCY_KEY;

use crate::db::idempotency::Claim;
use crate::digest::{hex, sha256_hex};
use crate::error::{AppError, Status};
use crate::state::AppState;
use crate::web::app_context::header;
use crate::web::back_end::BackEnd;

/// Largest request or answer body kept for a key.
const MAX_BODY_BYTES: usize = 1024 * 1024;

/// Longest key accepted.
const MAX_KEY_LENGTH: usize = 256;

/// The refusal of a key used before with another request.
pub const KEY_REUSED: &str = "This idempotency key was used with another request";

/// The answer while the key's first request runs.
pub const KEY_IN_FLIGHT: &str =
    "A request with this idempotency key is still running; retry shortly";

/// Header set on a replayed answer.
pub const REPLAYED_HEADER: &str = "privy-idempotency-replayed";

/// The middleware: passes through everything but a keyed `POST` under `/v1/`.
pub async fn idempotency(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let keyed = request.method() == Method::POST
        && request.uri().path().starts_with("/v1/")
        && request.headers().contains_key(HEADER_IDEMPOTENCY_KEY);
    if !keyed {
        return next.run(request).await;
    }
    match keyed_call(&state, request, next).await {
        Ok(response) | Err(response) => response,
    }
}

async fn keyed_call(state: &AppState, request: Request, next: Next) -> Result<Response, Response> {
    let key = header(request.headers(), HEADER_IDEMPOTENCY_KEY)
        .map(str::trim)
        .filter(|k| !k.is_empty() && k.len() <= MAX_KEY_LENGTH)
        .ok_or_else(|| {
            AppError::invalid_data("privy-idempotency-key must be 1 to 256 characters")
                .into_response()
        })?
        .to_string();
    let (mut parts, body) = request.into_parts();
    // Only the app's own back end may claim or replay its keys.
    let back_end = BackEnd::from_request_parts(&mut parts, state)
        .await
        .map_err(IntoResponse::into_response)?;
    let bytes = to_bytes(body, MAX_BODY_BYTES).await.map_err(|_| {
        AppError::invalid_data("Request body too large")
            .with_status(Status::PayloadTooLarge)
            .into_response()
    })?;
    let mut hasher = Sha256::new();
    for part in [
        parts.method.as_str().as_bytes(),
        parts.uri.to_string().as_bytes(),
        &bytes,
    ] {
        hasher.update((part.len() as u64).to_be_bytes());
        hasher.update(part);
    }
    let request_hash = hex(&hasher.finalize());
    parts.extensions.insert(back_end.clone());
    let (app_id, key_hash) = (back_end.app.id.as_str(), sha256_hex(key.as_bytes()));
    let db = &state.db;
    let claim = db
        .claim_idempotency_key(app_id, &key_hash, &request_hash, state.clock.now())
        .await
        .map_err(|e| AppError::from(e).into_response())?;
    match claim {
        Claim::Taken {
            request_hash: first,
            ..
        } if first != request_hash => Err(AppError::invalid_data(KEY_REUSED).into_response()),
        Claim::Taken { answer: None, .. } => {
            Err(AppError::new(ServerErrorCode::ResourceConflict, KEY_IN_FLIGHT).into_response())
        }
        Claim::Taken {
            answer: Some((status, body)),
            ..
        } => Ok(replay(status, body)),
        Claim::Claimed => {
            let response = next
                .run(Request::from_parts(parts, Body::from(bytes)))
                .await;
            let (head, body) = response.into_parts();
            let bytes = match to_bytes(body, MAX_BODY_BYTES).await {
                Ok(bytes) => bytes,
                Err(error) => {
                    let _ = db.release_idempotency_key(app_id, &key_hash).await;
                    return Err(AppError::internal(&error).into_response());
                }
            };
            let text = String::from_utf8_lossy(&bytes).into_owned();
            // A failure on the server's side is not an answer: the key is freed so a retry runs.
            let kept = if head.status.is_server_error() {
                db.release_idempotency_key(app_id, &key_hash).await
            } else {
                db.finish_idempotency_key(app_id, &key_hash, head.status.as_u16(), &text)
                    .await
            };
            if let Err(error) = kept {
                tracing::warn!(%error, app = %app_id, "idempotency key not recorded");
            }
            Ok(Response::from_parts(head, Body::from(bytes)))
        }
    }
}

/// The first request's answer, again.
fn replay(status: u16, body: String) -> Response {
    let status = axum::http::StatusCode::from_u16(status).unwrap_or(axum::http::StatusCode::OK);
    let mut response = (status, body).into_response();
    let headers = response.headers_mut();
    if status != axum::http::StatusCode::NO_CONTENT {
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
    }
    headers.insert(REPLAYED_HEADER, HeaderValue::from_static("true"));
    response
}
