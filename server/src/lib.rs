//! The Athlas server: HTTP lobby, WebSocket connections, rooms as actors,
//! and the event-sourced store.
//!
//! The path of one action: a connection ([`connection`]) parses an `act`
//! frame and sends it to its room ([`room`]); the room asks the engine,
//! hands the accepted action to the writer task ([`writer`], group commit to
//! the [`store`]), and only once it is durable acks it and pushes each
//! connection its own update.
//!
//! **Architecture Invariant:** every acknowledged action is in the store; a
//! room's memory is only a cache of `replay(options, seed, log)`.

pub mod audit;
pub mod buffer;
pub mod campaign;
pub mod config;
pub mod connection;
pub mod door;
pub mod fold;
pub mod games;
pub mod health;
pub mod hosted;
pub mod hub;
pub mod limits;
pub mod lobby;
pub mod metrics;
pub mod name;
pub mod process;
pub mod push;
pub mod refusal;
pub mod relay;
pub mod rematch;
pub mod replay;
pub mod request;
pub mod room;
pub mod secret;
pub mod socket;
pub mod store;
pub mod subscription;
pub mod table;
pub mod transfer;
pub mod upgrade;
pub mod web;
pub mod writer;

use std::{future::Future, sync::Arc, time::Duration};

use axum::{routing::get, Router};
use tokio::net::TcpListener;

pub use config::Config;
pub use games::{HostedGame, Registry, RulesetGame};
pub use hub::Hub;
pub use store::Store;

/// The whole HTTP surface: lobby, `/ws`, health, the web client. Shared by `main` and tests.
pub fn app(hub: Arc<Hub>) -> Router {
    Router::new()
        .merge(lobby::router())
        .merge(campaign::router())
        .merge(replay::router())
        .merge(rematch::router())
        .merge(transfer::router())
        .merge(subscription::router())
        .route("/ws", get(socket::upgrade))
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(health::ready))
        .route("/metrics", get(health::metrics))
        .route("/static/{version}/{*path}", get(web::asset))
        .route("/sw.js", get(web::service_worker))
        .fallback(web::fallback)
        .layer(axum::middleware::from_fn(refuse_large_bodies))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(hub)
}

/// What the server answers while its store opens (start-up waiting for its
/// database, `--db-wait-secs`): `/healthz` 200, `/readyz` and everything
/// else 503 `not_ready` with why (the last attempt's error).
pub fn starting_app(why: tokio::sync::watch::Receiver<String>) -> Router {
    use axum::{http::StatusCode, response::IntoResponse, Json};
    let not_ready = move || {
        let message = why.borrow().clone();
        async move {
            let body = refusal::Refusal::new(refusal::Code::NotReady, message).body();
            (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response()
        }
    };
    Router::new().route("/healthz", get(|| async { "ok" })).fallback(not_ready)
}

/// The largest HTTP request body read (lobby bodies are a few KiB).
pub const MAX_BODY_BYTES: usize = 1 << 20;

/// A body announced longer than [`MAX_BODY_BYTES`] is refused before any of
/// it is read; one sent without a length is cut off at the limit as it
/// arrives (`DefaultBodyLimit`).
async fn refuse_large_bodies(req: axum::extract::Request, next: axum::middleware::Next) -> axum::response::Response {
    use axum::response::IntoResponse;
    let announced =
        req.headers().get(axum::http::header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if announced.is_some_and(|n| n > MAX_BODY_BYTES as u64) {
        let e = refusal::Refusal::new(
            refusal::Code::TooLarge,
            format!("request bodies are limited to {MAX_BODY_BYTES} bytes"),
        );
        return e.into_response();
    }
    next.run(req).await
}

/// The door of `hub`'s server: its per-address table, its settings.
pub fn door_of(hub: &Hub) -> door::Door {
    door::Door {
        peers: hub.peers.clone(),
        header_timeout: Duration::from_secs(hub.config.header_timeout_secs),
        trusted: hub.config.trusted_proxies.clone().into(),
        metrics: hub.metrics.clone(),
    }
}

/// Serve until `signal` resolves, then shut down gracefully: stop accepting,
/// close every connection with a `shutting_down` error, flush, close the store.
///
/// # Errors
/// When the listener fails.
pub async fn serve(
    listener: TcpListener,
    hub: Arc<Hub>,
    signal: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let on_signal = {
        let hub = hub.clone();
        async move {
            signal.await;
            tracing::info!("shutting down");
            hub.begin_shutdown();
        }
    };
    let grace = Duration::from_secs(hub.config.shutdown_grace_secs);
    door::serve(listener, app(hub.clone()), door_of(&hub), on_signal, grace).await?;
    hub.shutdown(Duration::from_secs(hub.config.shutdown_grace_secs)).await;
    Ok(())
}
