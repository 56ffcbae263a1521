//! `athlas-server`: configuration, logging, migrations, serve.

use std::io::Write as _;

use anyhow::Context;
use athlas_server::{
    audit::{self, Which},
    config::{Command, LogFormat},
    Config, Hub, Registry, Store,
};
use clap::Parser;
use tracing_subscriber::EnvFilter;

/// mimalloc rather than glibc's malloc: a room allocates and frees on every
/// action (views, frames, trial copies of the state), and glibc's malloc and
/// free were a tenth of the server's CPU under load (docs/PERFORMANCE.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let config = Config::parse();
    if let Err(why) = config.check() {
        eprintln!("athlas-server: {why}");
        std::process::exit(2);
    }
    if config.healthcheck {
        std::process::exit(probe_ready(config.listen).await);
    }
    if let Some(Command::Audit { match_id, all: _, quiet }) = &config.command {
        let which = match_id.map_or(Which::All, Which::One);
        std::process::exit(run_audit(&config, which, *quiet).await?);
    }
    // ATHLAS_LOG_LEVEL / --log-level; validated when parsed.
    let filter = EnvFilter::new(&config.log_level);
    if config.log_format == LogFormat::Json {
        tracing_subscriber::fmt().json().with_env_filter(filter).init();
    } else {
        let ansi = std::io::IsTerminal::is_terminal(&std::io::stdout());
        tracing_subscriber::fmt().with_ansi(ansi).with_env_filter(filter).init();
    }
    if let Some((before, after)) = athlas_server::process::raise_open_files() {
        if after as usize <= config.max_connections {
            tracing::warn!(
                open_files = after,
                max_connections = config.max_connections,
                "the open-files limit is below --max-connections: raise it (docs/OPERATIONS.md)"
            );
        } else if after > before {
            tracing::debug!(from = before, to = after, "open-files limit raised to the hard limit");
        }
    }
    let listener =
        tokio::net::TcpListener::bind(config.listen).await.with_context(|| format!("binding {}", config.listen))?;
    let mut config = config;
    if config.public_url.is_none() {
        // Where this node is reached, now that the port is known (`:0`).
        let mut at = listener.local_addr()?;
        if at.ip().is_unspecified() {
            at.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
        }
        config.public_url = Some(format!("ws://{at}/ws"));
    }
    // While the store opens (and start-up waits for its database) the same
    // socket answers /readyz with 503, on a second handle of it.
    let listener = listener.into_std()?;
    let waiting = tokio::net::TcpListener::from_std(listener.try_clone()?)?;
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let store = open_store(&config, waiting).await?;
    let hub = Hub::with_store(config, Registry::standard(), store);
    tracing::info!(addr = %listener.local_addr()?, store = hub.store.backend_name(), "listening");
    athlas_server::serve(listener, hub, shutdown_signal()).await.context("serving")?;
    Ok(())
}

/// Open the store, waiting for its database at most `--db-wait-secs` with
/// a logged line per attempt, while `waiting` answers 503 `not_ready`.
async fn open_store(config: &Config, waiting: tokio::net::TcpListener) -> anyhow::Result<Store> {
    use std::time::Duration;
    let (why, why_rx) = tokio::sync::watch::channel("the store is opening".to_owned());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let door = athlas_server::door::Door {
        peers: athlas_server::limits::Peers::new(config.peer_limits()),
        header_timeout: Duration::from_secs(config.header_timeout_secs),
        trusted: config.trusted_proxies.clone().into(),
        metrics: Default::default(),
    };
    let addr = waiting.local_addr()?;
    let answering = tokio::spawn(athlas_server::door::serve(
        waiting,
        athlas_server::starting_app(why_rx),
        door,
        async move {
            let _ = stopped.await;
        },
        Duration::from_secs(1),
    ));
    let wait = Duration::from_secs(config.db_wait_secs);
    let store = Store::open_waiting(config.database_url.as_deref(), &config.data_dir, wait, |attempt, e, next| {
        tracing::warn!(%addr, attempt, error = %e, retry_in_ms = next.as_millis() as u64, wait_secs = wait.as_secs(),
            "waiting for the database");
        why.send_replace(format!("waiting for the database (attempt {attempt}): {e}"));
    })
    .await;
    let _ = stop.send(());
    let _ = answering.await;
    match store {
        Ok(store) => Ok(store),
        Err(e @ athlas_server::store::StoreError::Unreachable { transient: true, .. }) if wait > Duration::ZERO => {
            Err(anyhow::Error::new(e)
                .context(format!("opening the store: gave up after waiting {} s (--db-wait-secs)", wait.as_secs())))
        }
        Err(e) => Err(anyhow::Error::new(e).context("opening the store")),
    }
}

/// `athlas-server audit`: one line per match (only the bad ones when
/// `quiet`), then the totals; exit code 1 when any match diverged.
async fn run_audit(config: &Config, which: Which, quiet: bool) -> anyhow::Result<i32> {
    let store = Store::open(config.database_url.as_deref(), &config.data_dir).await.context("opening the store")?;
    let report = audit::audit(&store, &Registry::standard(), which).await.context("reading the store")?;
    // Written, not printed: a reader that stops early (`| head`) ends the
    // listing, not the process with a panic.
    let mut out = std::io::stdout().lock();
    let (line, diverged) = audit::summary(&report);
    let _ = report
        .iter()
        .filter(|m| !quiet || !matches!(m.verdict, audit::Verdict::Ok { .. }))
        .try_for_each(|m| writeln!(out, "{m}"))
        .and_then(|()| writeln!(out, "{line}"));
    store.close().await;
    Ok(i32::from(diverged))
}

/// `--healthcheck`: 0 when `/readyz` on this machine answers 200.
async fn probe_ready(listen: std::net::SocketAddr) -> i32 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut addr = listen;
    if addr.ip().is_unspecified() {
        addr.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
    }
    let probe = async {
        let mut s = tokio::net::TcpStream::connect(addr).await?;
        s.write_all(format!("GET /readyz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes()).await?;
        let mut head = [0u8; 12];
        s.read_exact(&mut head).await?;
        Ok::<bool, std::io::Error>(head.starts_with(b"HTTP/1.1 200"))
    };
    match tokio::time::timeout(std::time::Duration::from_secs(3), probe).await {
        Ok(Ok(true)) => 0,
        Ok(Ok(false)) => {
            eprintln!("{addr}: /readyz is not 200");
            1
        }
        Ok(Err(e)) => {
            eprintln!("{addr}: {e}");
            1
        }
        Err(_) => {
            eprintln!("{addr}: no answer in 3 s");
            1
        }
    }
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
