//! A host app's back end on the `/v1` API: `Authorization: Basic base64(app_id:app_secret)` and
//! `privy-app-id`, as the vendor's server SDK sends them. No `Origin`: servers call it, outside
//! CORS.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::HEADER_APP_ID;

use crate::api_secrets::SecretRefusal;
use crate::db::apps::AppRecord;
use crate::error::AppError;
use crate::state::AppState;
use crate::web::app_context::header;
use crate::web::client_ip::ClientIp;

/// The message of a missing, malformed, wrong or revoked secret (one answer for all, so a guess
/// learns nothing).
pub const INVALID_SECRET: &str = "Invalid app ID or app secret";

/// The message of a `privy-app-id` that is missing or not the Basic user.
pub const APP_ID_MISMATCH: &str = "privy-app-id must be the app id of the Basic authorization";

/// The app whose secret the request carried, checked.
#[derive(Debug, Clone)]
pub struct BackEnd {
    /// The app.
    pub app: AppRecord,
}

/// `(user, password)` of a Basic `Authorization`.
fn basic_credentials(headers: &HeaderMap) -> Option<(String, String)> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, encoded) = value.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = String::from_utf8(STANDARD.decode(encoded.trim()).ok()?).ok()?;
    let (user, password) = decoded.split_once(':')?;
    Some((user.to_string(), password.to_string()))
}

fn invalid_secret() -> AppError {
    AppError::new(ServerErrorCode::InvalidCredentials, INVALID_SECRET)
}

impl FromRequestParts<AppState> for BackEnd {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        // Checked already by the idempotency middleware, which left it here (extensions never
        // come from the wire): one secret check per request.
        if let Some(checked) = parts.extensions.get::<BackEnd>() {
            return Ok(checked.clone());
        }
        let (app_id, secret) = basic_credentials(&parts.headers).ok_or_else(invalid_secret)?;
        if header(&parts.headers, HEADER_APP_ID).map(str::trim) != Some(app_id.as_str()) {
            return Err(AppError::new(
                ServerErrorCode::MissingOrInvalidPrivyAppId,
                APP_ID_MISMATCH,
            ));
        }
        let now = state.clock.now();
        let budget_key = format!("{app_id}|{}", ClientIp::of(parts, state).network_key());
        let budget = (&state.ip_limits.secret_checks, budget_key.as_str());
        let checked = state
            .secret_checker
            .check(&state.db, &app_id, &secret, now, budget)
            .await;
        match checked {
            Ok(_) => {}
            Err(SecretRefusal::Limited(retry)) => return Err(AppError::rate_limited(retry.0)),
            Err(SecretRefusal::Db(error)) => return Err(error.into()),
            Err(refused) => {
                tracing::info!(app = %app_id, %refused, "app secret refused");
                return Err(invalid_secret());
            }
        }
        // A secret row outlives nothing: its app exists (the foreign key cascades).
        let app = state
            .db
            .find_app(&app_id)
            .await?
            .ok_or_else(invalid_secret)?;
        Ok(Self { app })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn with_authorization(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Ok(value) = HeaderValue::from_str(value) {
            headers.insert(header::AUTHORIZATION, value);
        }
        headers
    }

    #[test]
    fn basic_credentials_split_at_the_first_colon() {
        let encoded = STANDARD.encode("app:sk_a:b");
        assert_eq!(
            basic_credentials(&with_authorization(&format!("Basic {encoded}"))),
            Some(("app".into(), "sk_a:b".into()))
        );
        assert_eq!(
            basic_credentials(&with_authorization(&format!("basic  {encoded}"))),
            Some(("app".into(), "sk_a:b".into()))
        );
        for refused in [
            format!("Bearer {encoded}"),
            "Basic !!!".into(),
            format!("Basic {}", STANDARD.encode("no-colon")),
        ] {
            assert_eq!(basic_credentials(&with_authorization(&refused)), None);
        }
        assert_eq!(basic_credentials(&HeaderMap::new()), None);
    }
}
