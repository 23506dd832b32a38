//! `GET /api/v1/apps/{app_id}`: the app's public configuration.

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use symbolon_protocol::ServerErrorCode;
use symbolon_protocol::app::AppConfigResponse;
use symbolon_protocol::constants::HEADER_APP_ID;

use crate::error::AppError;
use crate::server_api::apps::app_config;
use crate::state::AppState;
use crate::web::app_context::{AppContext, header};
use crate::web::path_param::PathParam;

/// The configuration of the app in the path. A `privy-app-id` header, when sent, must name it.
pub async fn get_app(
    State(state): State<AppState>,
    PathParam(app_id): PathParam<String>,
    headers: HeaderMap,
) -> Result<Json<AppConfigResponse>, AppError> {
    if let Some(header_id) = header(&headers, HEADER_APP_ID)
        && header_id != app_id
    {
        return Err(AppError::new(
            ServerErrorCode::MissingOrInvalidPrivyAppId,
            "App id does not match the path",
        ));
    }
    let ctx = AppContext::resolve(&state, Some(&app_id), &headers).await?;
    Ok(Json(app_config(
        &state.app_secrets,
        &ctx.app,
        state.tokens.keys().verification_pem(),
    )))
}
