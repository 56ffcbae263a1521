//! `athlas-server`: configuration, logging, migrations, serve.

use anyhow::Context;
use athlas_server::{config::LogFormat, Config, Hub, Registry};
use clap::Parser;
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let config = Config::parse();
    // ATHLAS_LOG_LEVEL / --log-level; validated when parsed.
    let filter = EnvFilter::new(&config.log_level);
    if config.log_format == LogFormat::Json {
        tracing_subscriber::fmt().json().with_env_filter(filter).init();
    } else {
        let ansi = std::io::IsTerminal::is_terminal(&std::io::stdout());
        tracing_subscriber::fmt().with_ansi(ansi).with_env_filter(filter).init();
    }
    let listener =
        tokio::net::TcpListener::bind(config.listen).await.with_context(|| format!("binding {}", config.listen))?;
    let hub = Hub::open(config, Registry::standard()).await.context("opening the store")?;
    tracing::info!(addr = %listener.local_addr()?, store = hub.store.backend_name(), "listening");
    athlas_server::serve(listener, hub, shutdown_signal()).await.context("serving")?;
    Ok(())
}

/// Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
