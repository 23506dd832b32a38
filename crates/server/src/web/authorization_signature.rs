//! Authorization signatures on `/v1` requests (docs/policies.md "Owners"): [`Signed`] reads a
//! request as its signatures sign it — the body as sent (the signature covers it byte for byte
//! after canonicalisation, so it is kept as JSON, not as the handler's type), the full URL from the
//! configured public URL (never from `Host`), the `privy-*` headers and the signatures. What a
//! signature signs and how it is checked lives in the signer crate, which checks the same
//! signatures before it signs for a delegated wallet.

use std::collections::BTreeMap;

use axum::extract::{FromRequest, Request};
use serde::de::DeserializeOwned;
use serde_json::Value;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::{HEADER_APP_ID, HEADER_IDEMPOTENCY_KEY};
pub use symbolon_signer::authorization::{
    AuthorizationError, HEADER_EXPIRY, HEADER_SIGNATURE, Owner, SignedRequest, parse_public_key,
    split_signatures,
};

use crate::error::AppError;
use crate::state::AppState;
use crate::web::app_context::header;
use crate::web::raw_body::RawBody;

impl From<AuthorizationError> for AppError {
    fn from(error: AuthorizationError) -> Self {
        match error {
            AuthorizationError::Expiry(message) => AppError::invalid_data(message),
            AuthorizationError::Signatures(message) => {
                AppError::new(ServerErrorCode::InvalidCredentials, message)
            }
            error @ AuthorizationError::Canonical(_) => AppError::internal(&error),
        }
    }
}

/// A `/v1` request whose body is `T`, kept with what its authorization signatures sign.
#[derive(Debug)]
pub struct Signed<T> {
    /// The body as the handler's type.
    pub body: T,
    /// The request as signed.
    pub request: SignedRequest,
}

impl<T: DeserializeOwned> FromRequest<AppState> for Signed<T> {
    type Rejection = AppError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        let (parts, body) = request.into_parts();
        let RawBody(bytes) =
            RawBody::from_request(Request::from_parts(parts.clone(), body), state).await?;
        let value: Value = if bytes.iter().all(u8::is_ascii_whitespace) {
            Value::Object(serde_json::Map::new())
        } else {
            serde_json::from_slice(&bytes)
                .map_err(|e| AppError::invalid_data(format!("The body is not JSON: {e}")))?
        };
        let typed: T = serde_json::from_value(value.clone())
            .map_err(|e| AppError::invalid_data(format!("Invalid request body: {e}")))?;
        let mut headers = BTreeMap::new();
        for name in [HEADER_APP_ID, HEADER_IDEMPOTENCY_KEY, HEADER_EXPIRY] {
            if let Some(value) = header(&parts.headers, name) {
                headers.insert(name.to_string(), value.to_string());
            }
        }
        let signatures = header(&parts.headers, HEADER_SIGNATURE)
            .map(split_signatures)
            .unwrap_or_default();
        let base = state.config.public_url.trim_end_matches('/');
        let url = match parts.uri.query() {
            Some(query) => format!("{base}{}?{query}", parts.uri.path()),
            None => format!("{base}{}", parts.uri.path()),
        };
        Ok(Self {
            body: typed,
            request: SignedRequest {
                method: parts.method.as_str().to_string(),
                url,
                body: value,
                headers,
                signatures,
            },
        })
    }
}
