//! `GET /api/v1/apps/{app_id}/jwks.json`: the keys that verify this app's tokens.

use axum::Json;
use axum::extract::State;
use symbolon_protocol::ServerErrorCode;

use super::error::AppError;
use super::path_param::PathParam;
use crate::state::AppState;
use crate::tokens::JwksResponse;

/// The JWKS. Public, so no app header or origin is needed; the path must name an app.
pub async fn get_jwks(
    State(state): State<AppState>,
    PathParam(app_id): PathParam<String>,
) -> Result<Json<JwksResponse>, AppError> {
    if state.db.find_app(&app_id).await?.is_none() {
        return Err(AppError::new(
            ServerErrorCode::MissingOrInvalidPrivyAppId,
            "Invalid app id",
        ));
    }
    Ok(Json(state.tokens.keys().jwks().clone()))
}
