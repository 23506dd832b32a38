//! `GET /api/v1/apps/{app_id}/jwks.json`: the keys that verify this app's tokens.

use axum::Json;
use axum::extract::State;
use symbolon_protocol::ServerErrorCode;

use crate::error::AppError;
use crate::state::AppState;
use crate::tokens::JwksResponse;
use crate::web::path_param::PathParam;

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
