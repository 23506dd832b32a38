//! `POST /api/v1/analytics_events`: logged, never failing the client.

use axum::Json;
use axum::body::Bytes;
use symbolon_protocol::session::{AnalyticsEventRequest, SuccessResponse};

/// Logs the event name (payloads are not logged) and always answers `{success: true}`.
pub async fn record_event(body: Bytes) -> Json<SuccessResponse> {
    match serde_json::from_slice::<AnalyticsEventRequest>(&body) {
        Ok(event) => tracing::debug!(event = %event.event_name, "analytics event"),
        Err(_) => tracing::debug!("unreadable analytics event ignored"),
    }
    Json(SuccessResponse { success: true })
}
