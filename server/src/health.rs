//! Health and load, for operators and balancers: `/readyz` (may this
//! server take players now) and `/metrics` (Prometheus text). `/healthz`,
//! which needs nothing, is answered in [`crate::app`].

use std::sync::Arc;

use axum::{extract::State, http::StatusCode, Json};
use serde_json::{json, Value};

use crate::{
    hub::Hub,
    refusal::{Code, Refusal},
};

/// `/readyz`: 200 when the store answers and is migrated; 503 otherwise
/// (and while shutting down, so a balancer stops sending new players).
pub async fn ready(State(hub): State<Arc<Hub>>) -> (StatusCode, Json<Value>) {
    if hub.is_shutting_down() {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!(Refusal::new(Code::ShuttingDown, "the server is shutting down").body())),
        );
    }
    match hub.store.ready().await {
        Ok(()) => (StatusCode::OK, Json(json!({"status": "ready", "store": hub.store.backend_name()}))),
        Err(e) => {
            tracing::warn!(error = %e, "not ready");
            (StatusCode::SERVICE_UNAVAILABLE, Json(json!(Refusal::new(Code::NotReady, e.to_string()).body())))
        }
    }
}

/// `/metrics`: Prometheus text format.
pub async fn metrics(
    State(hub): State<Arc<Hub>>,
) -> Result<([(axum::http::HeaderName, &'static str); 1], String), Refusal> {
    let gauges = crate::metrics::Gauges {
        connections: hub.open_connections(),
        rooms: hub.rooms.live(),
        matches: hub.store.count_matches().await?,
    };
    Ok(([(axum::http::header::CONTENT_TYPE, "text/plain; version=0.0.4")], hub.metrics.render(&gauges)))
}
