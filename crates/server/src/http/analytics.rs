//! `POST /api/v1/analytics_events`: logged, never failing the client.

use axum::Json;
use symbolon_protocol::session::{AnalyticsEventRequest, SuccessResponse};

use crate::web::raw_body::RawBody;

/// Logs the event name (payloads are not logged) and always answers `{success: true}`.
pub async fn record_event(RawBody(body): RawBody) -> Json<SuccessResponse> {
    match serde_json::from_slice::<AnalyticsEventRequest>(&body) {
        Ok(event) => tracing::debug!(event = %event.event_name, "analytics event"),
        Err(_) => tracing::debug!("unreadable analytics event ignored"),
    }
    Json(SuccessResponse { success: true })
}
