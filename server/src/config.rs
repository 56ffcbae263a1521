//! Server configuration: flags, each with an environment variable.

use std::{net::SocketAddr, path::PathBuf, time::Duration};

use clap::builder::TypedValueParser as _;

use crate::room::RoomConfig;

/// Everything an operator can set. `athlas-server --help` lists it; every
/// flag has an environment variable, and a bad value stops start-up with a
/// message naming the flag.
#[derive(Debug, Clone, clap::Parser)]
#[command(
    name = "athlas-server",
    version,
    about = "Authoritative WebSocket server for tactical board games",
    after_help = "Every setting can also come from the environment variable shown with it. \
                  Health: GET /healthz (alive), GET /readyz (store ready), GET /metrics (Prometheus)."
)]
pub struct Config {
    /// Address and port to listen on (HTTP lobby, /ws, health, metrics).
    #[arg(long, env = "ATHLAS_LISTEN", default_value = "0.0.0.0:8080")]
    pub listen: SocketAddr,
    /// Store: postgres://user:pass@host:port/db, or sqlite://path. Unset:
    /// the SQLite file `athlas.db` under the data directory.
    #[arg(long, env = "DATABASE_URL", value_parser = parse_database_url, global = true)]
    pub database_url: Option<String>,
    /// Where the default SQLite database lives (created if missing).
    #[arg(long, env = "ATHLAS_DATA_DIR", default_value = "./data", global = true)]
    pub data_dir: PathBuf,
    /// Seconds start-up waits for a Postgres that refuses or does not
    /// answer yet, retrying with logged attempts, while /readyz says 503
    /// (0: do not wait). Wrong credentials or a missing database stop
    /// start-up at once.
    #[arg(long, env = "ATHLAS_DB_WAIT_SECS", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(0..=86_400))]
    pub db_wait_secs: u64,
    /// Log format: `pretty` (text) or `json` (one JSON object per line).
    #[arg(long, env = "ATHLAS_LOG_FORMAT", value_enum, default_value_t = LogFormat::Pretty)]
    pub log_format: LogFormat,
    /// Log level or filter, e.g. `info`, `debug`, `athlas_server=debug,info`.
    #[arg(long, env = "ATHLAS_LOG_LEVEL", default_value = "info", value_parser = parse_log_level)]
    pub log_level: String,
    /// Largest WebSocket text frame accepted, in bytes (1024 to 16777216);
    /// larger ones are refused with an error frame.
    #[arg(long, env = "ATHLAS_MAX_FRAME_BYTES", default_value_t = athlas_protocol::MAX_FRAME_BYTES,
          value_parser = clap::value_parser!(u32).range(1024..=16 * 1024 * 1024).map(|v| v as usize))]
    pub max_frame_bytes: usize,
    /// Frames per second one connection may send on average (> 0).
    #[arg(long, env = "ATHLAS_RATE_PER_SEC", default_value_t = 20.0, value_parser = parse_positive)]
    pub rate_per_sec: f64,
    /// Frames one connection may send in a burst (>= 1).
    #[arg(long, env = "ATHLAS_RATE_BURST", default_value_t = 40.0, value_parser = parse_burst)]
    pub rate_burst: f64,
    /// Most WebSocket connections open at once; more get 503.
    #[arg(long, env = "ATHLAS_MAX_CONNECTIONS", default_value_t = 10_000,
          value_parser = clap::value_parser!(u32).range(1..).map(|v| v as usize))]
    pub max_connections: usize,
    /// Most WebSocket connections open at once from one address (an IPv4
    /// address or an IPv6 /64); more get 429 (0: no limit).
    #[arg(long, env = "ATHLAS_MAX_CONNECTIONS_PER_IP", default_value_t = 100)]
    pub max_connections_per_ip: usize,
    /// Connections from one address not yet upgraded to a WebSocket (HTTP
    /// requests under way, kept alive between two); past it a new one is
    /// closed at once, before it is read (0: no limit).
    #[arg(long, env = "ATHLAS_MAX_PENDING_PER_IP", default_value_t = 100)]
    pub max_pending_per_ip: usize,
    /// Seconds a connection has to send a whole request's headers, and may
    /// stay idle between two requests, before it is closed (1 to 3600).
    #[arg(long, env = "ATHLAS_HEADER_TIMEOUT_SECS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub header_timeout_secs: u64,
    /// A proxy (an address or a CIDR block, repeatable or comma-separated)
    /// whose X-Forwarded-For (else Forwarded) names the client the
    /// per-address limits count; off by default: headers from anyone else
    /// are never read.
    #[arg(long = "trusted-proxy", env = "ATHLAS_TRUSTED_PROXIES", value_delimiter = ',', value_parser = parse_net)]
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// Lobby requests that create or join a match or campaign, per minute
    /// from one address (also the burst); more get 429 `rate_limited` (0: no limit).
    #[arg(long, env = "ATHLAS_LOBBY_PER_MIN", default_value_t = 60)]
    pub lobby_per_min: u32,
    /// Wrong join codes and tokens per minute from one address (also the
    /// burst); past that, joins and hellos from it get `rate_limited`
    /// until it earns a new try (0: no limit).
    #[arg(long, env = "ATHLAS_AUTH_FAILURES_PER_MIN", default_value_t = 10)]
    pub auth_failures_per_min: u32,
    /// Seconds a new WebSocket connection has to take a seat (`hello`) or
    /// watch (`watch`) before it is closed (1 to 3600).
    #[arg(long, env = "ATHLAS_HELLO_TIMEOUT_SECS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub hello_timeout_secs: u64,
    /// Seconds a frame may wait for a client that stops reading before its
    /// connection is closed (1 to 3600).
    #[arg(long, env = "ATHLAS_WRITE_TIMEOUT_SECS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub write_timeout_secs: u64,
    /// Browser origins allowed to open /ws, comma-separated (`*`: any).
    /// Empty: any. Clients that send no Origin (native ones) are always let in.
    #[arg(long, env = "ATHLAS_ALLOWED_ORIGINS", value_delimiter = ',', value_parser = parse_origin)]
    pub allowed_origins: Vec<String>,
    /// Seconds a live match's DI response window stays open before the
    /// timer acts (1 to 86400). Correspondence matches have no timer.
    #[arg(long, env = "ATHLAS_RESPONSE_TIMER_SECS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub response_timer_secs: u64,
    /// Most summoning points a duel hosted here may give each player
    /// (>= 1). The book lets players agree on more than the 500 it
    /// recommends (L259-271); this is the server's cap, refused with
    /// `summoning_points_over_cap`.
    #[arg(long, env = "ATHLAS_MAX_SUMMONING_POINTS", default_value_t = 500,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_summoning_points: u32,
    /// Seconds a room with no connection stays in memory before it unloads (>= 1).
    #[arg(long, env = "ATHLAS_IDLE_UNLOAD_SECS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_unload_secs: u64,
    /// Seconds a player must have been away before the host or the party's
    /// leader may hand that player's seat to another (0: at once).
    #[arg(long, env = "ATHLAS_HAND_ABSENT_SECS", default_value_t = 60)]
    pub hand_absent_secs: u64,
    /// A snapshot of a match's state is stored every this many actions (0: never).
    #[arg(long, env = "ATHLAS_SNAPSHOT_EVERY", default_value_t = 50)]
    pub snapshot_every: u64,
    /// Milliseconds the store's writer may wait to gather other rooms'
    /// actions into one commit, when actions arrive at least that often
    /// from other rooms and few are queued (0 to 50; 0: never wait). It
    /// trades that much ack latency for fewer commits at human pace.
    #[arg(long, env = "ATHLAS_COMMIT_DELAY_MS", default_value_t = 2,
          value_parser = clap::value_parser!(u64).range(0..=50))]
    pub commit_delay_ms: u64,
    /// On SIGTERM or Ctrl-C: seconds to wait for connections and rooms to
    /// finish before closing the store anyway.
    #[arg(long, env = "ATHLAS_SHUTDOWN_GRACE_SECS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(0..=3600))]
    pub shutdown_grace_secs: u64,
    /// Web Push: the contact a push service may use to reach this
    /// server's operator (the VAPID `sub`, a `mailto:` or `https:` URL).
    #[arg(long, env = "ATHLAS_PUSH_SUBJECT", default_value = "mailto:push@athlas.invalid", value_parser = parse_push_subject)]
    pub push_subject: String,
    /// Web Push to `http:` endpoints too (a local test receiver); off:
    /// push services are HTTPS, and only `https:` subscriptions are kept.
    #[arg(long, env = "ATHLAS_PUSH_ALLOW_HTTP")]
    pub push_allow_http: bool,
    /// Cluster mode: several nodes share one Postgres store, each room is
    /// played by the node holding its lease, and a node that lost a lease
    /// can never write to that room again (docs/CLUSTER.md). Needs a
    /// Postgres --database-url.
    #[arg(long, env = "ATHLAS_CLUSTER")]
    pub cluster: bool,
    /// This node's name in the cluster (unique per node; default: a random one).
    #[arg(long, env = "ATHLAS_NODE_ID")]
    pub node_id: Option<String>,
    /// The WebSocket URL at which players reach this node (cluster mode:
    /// the other nodes send a match's players here while this node plays
    /// it). Default: ws://<the address listened on>/ws.
    #[arg(long, env = "ATHLAS_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// The WebSocket URL at which the other nodes reach this node, to relay
    /// to it the sockets of the matches it plays (cluster mode: e.g. its
    /// name on the nodes' network behind a front). Default: --public-url.
    #[arg(long, env = "ATHLAS_PEER_URL")]
    pub peer_url: Option<String>,
    /// Milliseconds a room's lease lasts without renewal: how long a table
    /// waits when its node dies before another may take it over (>= 500).
    #[arg(long, env = "ATHLAS_LEASE_MS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(500..))]
    pub lease_ms: u64,
    /// Milliseconds between two renewals of a room's lease (at most a
    /// third of --lease-ms, so a slow renewal or two do not lose it).
    #[arg(long, env = "ATHLAS_LEASE_RENEW_MS", default_value_t = 3_000, value_parser = clap::value_parser!(u64).range(100..))]
    pub lease_renew_ms: u64,
    /// Do not serve: probe GET /readyz on the --listen port and exit 0 when
    /// ready, 1 otherwise (for container healthchecks; the image has no curl).
    #[arg(long)]
    pub healthcheck: bool,
    /// A task other than serving.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// `athlas-server <command>`: tasks on the store instead of serving.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum Command {
    /// Replay stored match logs from their seeds and check each record's
    /// state hash; report per match, and the first diverging record of any
    /// that differs. Exits 1 on any divergence. Uses the same store flags
    /// (--database-url, --data-dir) as serving.
    #[command(group(clap::ArgGroup::new("which").required(true).args(["match_id", "all"])))]
    Audit {
        /// One match, by id.
        #[arg(long = "match", value_name = "ID")]
        match_id: Option<uuid::Uuid>,
        /// Every match in the store.
        #[arg(long)]
        all: bool,
        /// Print only the matches that diverged or were skipped, and the totals.
        #[arg(long)]
        quiet: bool,
    },
}

/// How log lines look.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable text (coloured on a terminal).
    Pretty,
    /// One JSON object per line, for log collectors.
    Json,
}

fn parse_database_url(s: &str) -> Result<String, String> {
    let ok = ["postgres://", "postgresql://", "sqlite:"].iter().any(|p| s.starts_with(p));
    if ok {
        Ok(s.to_owned())
    } else {
        Err("expected postgres://user:pass@host:port/db or sqlite://path".into())
    }
}

fn parse_log_level(s: &str) -> Result<String, String> {
    tracing_subscriber::EnvFilter::try_new(s).map(|_| s.to_owned()).map_err(|e| format!("not a log filter: {e}"))
}

fn parse_positive(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err("expected a number greater than 0".into()),
    }
}

fn parse_burst(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 1.0 => Ok(v),
        _ => Err("expected a number of at least 1".into()),
    }
}

fn parse_net(s: &str) -> Result<ipnet::IpNet, String> {
    let s = s.trim();
    s.parse::<ipnet::IpNet>()
        .or_else(|_| s.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
        .map(|n| n.trunc())
        .map_err(|_| format!("{s:?} is not an address or a CIDR block like 10.0.0.0/8"))
}

fn parse_origin(s: &str) -> Result<String, String> {
    let s = s.trim();
    if s == "*" || s.starts_with("http://") || s.starts_with("https://") {
        Ok(s.trim_end_matches('/').to_owned())
    } else {
        Err(format!("{s:?} is not an origin like https://example.com"))
    }
}

fn parse_push_subject(s: &str) -> Result<String, String> {
    let s = s.trim();
    if (s.starts_with("mailto:") && s.contains('@')) || s.starts_with("https://") {
        Ok(s.to_owned())
    } else {
        Err(format!("{s:?} is not a contact like mailto:ops@example.com or https://example.com/contact"))
    }
}

impl Default for Config {
    /// The documented defaults, without reading the environment.
    fn default() -> Self {
        Config {
            listen: ([0, 0, 0, 0], 8080).into(),
            database_url: None,
            data_dir: PathBuf::from("./data"),
            db_wait_secs: 60,
            log_format: LogFormat::Pretty,
            log_level: "info".into(),
            max_frame_bytes: athlas_protocol::MAX_FRAME_BYTES,
            rate_per_sec: 20.0,
            rate_burst: 40.0,
            max_connections: 10_000,
            max_connections_per_ip: 100,
            max_pending_per_ip: 100,
            header_timeout_secs: 10,
            trusted_proxies: Vec::new(),
            lobby_per_min: 60,
            auth_failures_per_min: 10,
            hello_timeout_secs: 10,
            write_timeout_secs: 10,
            allowed_origins: Vec::new(),
            response_timer_secs: 30,
            max_summoning_points: 500,
            idle_unload_secs: 300,
            hand_absent_secs: 60,
            snapshot_every: 50,
            commit_delay_ms: 2,
            shutdown_grace_secs: 10,
            push_subject: "mailto:push@athlas.invalid".into(),
            push_allow_http: false,
            healthcheck: false,
            command: None,
            cluster: false,
            node_id: None,
            public_url: None,
            peer_url: None,
            lease_ms: 10_000,
            lease_renew_ms: 3_000,
        }
    }
}

impl Config {
    pub fn peer_limits(&self) -> crate::limits::PeerLimits {
        crate::limits::PeerLimits {
            connections: self.max_connections_per_ip,
            pending: self.max_pending_per_ip,
            lobby_per_min: self.lobby_per_min,
            failures_per_min: self.auth_failures_per_min,
        }
    }

    pub fn room(&self) -> RoomConfig {
        RoomConfig {
            response_timer: Duration::from_secs(self.response_timer_secs),
            idle_unload: Duration::from_secs(self.idle_unload_secs),
            snapshot_every: self.snapshot_every,
            hand_absent: Duration::from_secs(self.hand_absent_secs),
            cluster: self.cluster.then(|| {
                let url = self.public_url.clone().unwrap_or_else(|| format!("ws://{}/ws", self.listen));
                crate::room::Cluster {
                    node: self.node_id.clone().unwrap_or_else(default_node_id).into(),
                    peer_url: self.peer_url.clone().unwrap_or_else(|| url.clone()).into(),
                    url: url.into(),
                    lease: Duration::from_millis(self.lease_ms),
                    renew: Duration::from_millis(self.lease_renew_ms),
                }
            }),
        }
    }

    /// Settings that cannot work together, in words.
    ///
    /// # Errors
    /// Cluster mode without a Postgres store, or a renewal interval too
    /// long for the lease.
    pub fn check(&self) -> Result<(), String> {
        if !self.cluster {
            return Ok(());
        }
        if !self.database_url.as_deref().is_some_and(|u| u.starts_with("postgres")) {
            return Err("--cluster needs a Postgres --database-url (DATABASE_URL): the nodes share its store".into());
        }
        if self.lease_renew_ms * 3 > self.lease_ms {
            return Err(format!(
                "--lease-renew-ms ({}) must be at most a third of --lease-ms ({})",
                self.lease_renew_ms, self.lease_ms
            ));
        }
        Ok(())
    }
}

/// A node's name when none is given: host and process, unique while it runs.
fn default_node_id() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "node".into());
    format!("{host}-{}", std::process::id())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn defaults_match_the_parser() {
        let parsed = Config::try_parse_from(["athlas-server"]).unwrap();
        let d = Config::default();
        assert_eq!(format!("{parsed:?}"), format!("{d:?}"));
    }

    #[test]
    fn bad_values_name_the_setting() {
        for (args, flag) in [
            (&["--listen", "nowhere"][..], "--listen"),
            (&["--database-url", "mysql://x"][..], "--database-url"),
            (&["--rate-per-sec", "0"][..], "--rate-per-sec"),
            (&["--max-frame-bytes", "10"][..], "--max-frame-bytes"),
            (&["--max-connections", "0"][..], "--max-connections"),
            (&["--hello-timeout-secs", "0"][..], "--hello-timeout-secs"),
            (&["--write-timeout-secs", "0"][..], "--write-timeout-secs"),
            (&["--lobby-per-min", "x"][..], "--lobby-per-min"),
            (&["--log-format", "xml"][..], "--log-format"),
            (&["--allowed-origins", "example.com"][..], "--allowed-origins"),
            (&["--trusted-proxy", "10.0.0.0/33"][..], "--trusted-proxy"),
            (&["--header-timeout-secs", "0"][..], "--header-timeout-secs"),
            (&["--db-wait-secs", "x"][..], "--db-wait-secs"),
            (&["--commit-delay-ms", "51"][..], "--commit-delay-ms"),
        ] {
            let e = Config::try_parse_from(std::iter::once("athlas-server").chain(args.iter().copied())).unwrap_err();
            assert!(e.to_string().contains(flag), "{args:?}: {e}");
        }
    }

    #[test]
    fn store_flags_are_read_after_audit_too() {
        let c = Config::try_parse_from(["athlas-server", "audit", "--all", "--database-url", "sqlite://x.db"]).unwrap();
        assert_eq!(c.database_url.as_deref(), Some("sqlite://x.db"));
        let c = Config::try_parse_from(["athlas-server", "audit", "--data-dir", "/srv/athlas", "--all"]).unwrap();
        assert_eq!(c.data_dir, PathBuf::from("/srv/athlas"));
    }

    #[test]
    fn trusted_proxies_are_addresses_or_blocks() {
        let c = Config::try_parse_from([
            "athlas-server",
            "--trusted-proxy",
            "10.0.0.0/8,127.0.0.1",
            "--trusted-proxy",
            "fd00::/8",
        ])
        .unwrap();
        let shown: Vec<String> = c.trusted_proxies.iter().map(ToString::to_string).collect();
        assert_eq!(shown, ["10.0.0.0/8", "127.0.0.1/32", "fd00::/8"]);
    }

    #[test]
    fn origins_are_a_comma_separated_list() {
        let c = Config::try_parse_from(["athlas-server", "--allowed-origins", "https://a.example,https://b.example/"])
            .unwrap();
        assert_eq!(c.allowed_origins, ["https://a.example", "https://b.example"]);
    }
}
