//! The caller of the share endpoints: the wallet frame, on the server's own origin, with the
//! owner's access token.
//!
//! Host pages are refused even with a valid token (`invalid_origin`), so page script cannot
//! fetch shares; these routes also sit outside the CORS layer, so no host origin may read them.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::constants::HEADER_APP_ID;
use symbolon_protocol::session::AccessTokenClaims;

use super::app_context::{check_client_id, header};
use super::auth::{bearer, verify_session_token};
use super::client_ip::ClientIp;
use crate::db::apps::AppRecord;
use crate::db::users::UserRecord;
use crate::error::AppError;
use crate::state::AppState;

/// A verified request from the wallet frame.
#[derive(Debug, Clone)]
pub struct FrameCaller {
    /// The app the token was issued for.
    pub app: AppRecord,
    /// The verified claims.
    pub claims: AccessTokenClaims,
    /// The signed-in user.
    pub user: UserRecord,
    /// The client's address (behind trusted proxies, the forwarded one), for limits and the
    /// audit log.
    pub client_ip: ClientIp,
}

/// Refuses requests whose `Origin` is not the server's own (the frame's).
pub fn require_frame_origin(state: &AppState, parts: &Parts) -> Result<(), AppError> {
    match header(&parts.headers, "origin") {
        None => Err(AppError::new(
            ServerErrorCode::MissingOrigin,
            "Missing Origin header",
        )),
        Some(origin) if origin == state.config.public_origin() => Ok(()),
        Some(_) => Err(AppError::new(
            ServerErrorCode::InvalidOrigin,
            "Wallet requests must come from the wallet frame",
        )),
    }
}

/// The `aud` of a token, unverified: only picks the app to verify the token against (the full
/// verification then checks `aud` equals that app).
fn unverified_audience(token: &str) -> Option<String> {
    let payload = URL_SAFE_NO_PAD.decode(token.split('.').nth(1)?).ok()?;
    let claims: serde_json::Value = serde_json::from_slice(&payload).ok()?;
    claims.get("aud")?.as_str().map(str::to_string)
}

impl FromRequestParts<AppState> for FrameCaller {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        require_frame_origin(state, parts)?;
        let token = bearer(&parts.headers)
            .ok_or_else(|| AppError::invalid_token("Missing access token"))?;
        // The frame may name its app in `privy-app-id`; otherwise the token's audience does.
        let named = header(&parts.headers, HEADER_APP_ID).filter(|id| !id.trim().is_empty());
        let app_id = match named {
            Some(id) => id.trim().to_string(),
            None => unverified_audience(token)
                .ok_or_else(|| AppError::invalid_token("Invalid access token"))?,
        };
        let app = state
            .db
            .find_app(&app_id)
            .await?
            .ok_or_else(|| match named {
                Some(_) => AppError::new(
                    ServerErrorCode::MissingOrInvalidPrivyAppId,
                    "Invalid app id",
                ),
                None => AppError::invalid_token("Invalid access token"),
            })?;
        check_client_id(&app, &parts.headers)?;
        let claims = verify_session_token(state, token, &app.id).await?;
        let user = state
            .db
            .find_user(&app.id, &claims.sub)
            .await?
            .ok_or_else(|| AppError::invalid_token("User no longer exists"))?;
        let client_ip = ClientIp::of(parts, state);
        Ok(Self {
            app,
            claims,
            user,
            client_ip,
        })
    }
}
