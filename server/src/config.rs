//! Server configuration: flags, each with an environment variable.

use std::{net::SocketAddr, path::PathBuf, time::Duration};

use crate::room::RoomConfig;

/// Everything an operator can set. `athlas-server --help` lists it.
#[derive(Debug, Clone, clap::Parser)]
#[command(name = "athlas-server", version, about = "Authoritative WebSocket server for tactical board games")]
pub struct Config {
    /// Address to listen on (HTTP lobby and /ws). Port 8080 by default.
    #[arg(long, env = "ATHLAS_LISTEN", default_value = "0.0.0.0:8080")]
    pub listen: SocketAddr,
    /// Postgres (postgres://...) or SQLite (sqlite://...) URL. Unset: SQLite
    /// file `athlas.db` under the data directory.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,
    /// Where the default SQLite database lives (created if missing).
    #[arg(long, env = "ATHLAS_DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,
    /// Largest WebSocket text frame accepted, in bytes; larger ones are
    /// refused with an error frame.
    #[arg(long, env = "ATHLAS_MAX_FRAME_BYTES", default_value_t = athlas_protocol::MAX_FRAME_BYTES)]
    pub max_frame_bytes: usize,
    /// Frames per second a connection may send on average.
    #[arg(long, env = "ATHLAS_RATE_PER_SEC", default_value_t = 20.0)]
    pub rate_per_sec: f64,
    /// Frames a connection may send in a burst.
    #[arg(long, env = "ATHLAS_RATE_BURST", default_value_t = 40.0)]
    pub rate_burst: f64,
    /// Seconds a live match's response window stays open before the timer acts.
    #[arg(long, env = "ATHLAS_RESPONSE_TIMER_SECS", default_value_t = 30)]
    pub response_timer_secs: u64,
    /// Seconds a room with no connection stays in memory before it unloads.
    #[arg(long, env = "ATHLAS_IDLE_UNLOAD_SECS", default_value_t = 300)]
    pub idle_unload_secs: u64,
    /// A snapshot of the state is stored every this many actions (0: never).
    #[arg(long, env = "ATHLAS_SNAPSHOT_EVERY", default_value_t = 50)]
    pub snapshot_every: u64,
    /// Log as JSON lines instead of text.
    #[arg(long, env = "ATHLAS_LOG_JSON")]
    pub log_json: bool,
}

impl Default for Config {
    /// The documented defaults, without reading the environment.
    fn default() -> Self {
        Config {
            listen: ([0, 0, 0, 0], 8080).into(),
            database_url: None,
            data_dir: PathBuf::from("./data"),
            max_frame_bytes: athlas_protocol::MAX_FRAME_BYTES,
            rate_per_sec: 20.0,
            rate_burst: 40.0,
            response_timer_secs: 30,
            idle_unload_secs: 300,
            snapshot_every: 50,
            log_json: false,
        }
    }
}

impl Config {
    pub fn room(&self) -> RoomConfig {
        RoomConfig {
            response_timer: Duration::from_secs(self.response_timer_secs),
            idle_unload: Duration::from_secs(self.idle_unload_secs),
            snapshot_every: self.snapshot_every,
        }
    }
}
