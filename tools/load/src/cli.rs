//! The command line of `athlas-load`: the flags `athlas load` had.

use std::time::Duration;

use athlas_client::net::ServerAddr;
use clap::Parser;

use crate::load::{self, LoadConfig, LoadGame};

/// Load-test a local server: N matches (or Divinity parties) played by
/// bots for S seconds.
#[derive(Debug, Parser)]
#[command(name = "athlas-load", version, about = "Load-test a local Athlas server: matches or parties played by bots")]
pub struct LoadArgs {
    /// The server: http://HOST:PORT (or HOST:PORT), on this machine.
    #[arg(long, env = "ATHLAS_SERVER", default_value = "127.0.0.1:8080")]
    pub server: String,
    /// The game: `duel` (two-seat matches), `divinity` (campaigns of
    /// three bot seats: create, two joins, Origins, location after
    /// location), `clans` (clan battles one against one) or `clans-2v2`
    /// (two against two, four seats).
    #[arg(long, value_parser = parse_game, default_value = "duel")]
    pub game: LoadGame,
    /// Matches (duel) or parties (divinity) played at once.
    #[arg(long, visible_alias = "parties", default_value_t = 10)]
    pub matches: usize,
    /// Seconds to run.
    #[arg(long, default_value_t = 10)]
    pub duration: u64,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    #[arg(long, default_value_t = 250)]
    pub points: u32,
    /// A duel bot resigns after this many of its own actions (Divinity
    /// bots play each location to its end).
    #[arg(long, default_value_t = 500)]
    pub max_actions: u64,
    /// Also hold this many idle duels (both seats connected, no action)
    /// and print the server memory per idle match.
    #[arg(long, default_value_t = 0)]
    pub idle_matches: usize,
    /// Also hold this many idle spectator connections (over the idle
    /// duels) and print the server memory per connection; the open-file
    /// limit is raised to its hard limit. `--matches 0` holds only idle ones.
    #[arg(long, default_value_t = 0)]
    pub idle: usize,
    /// Each bot waits this long before each action, as a person thinks
    /// (0: as fast as the server answers).
    #[arg(long, default_value_t = 0)]
    pub think_ms: u64,
    /// Soak: around the bots, seats drop their connection and come
    /// back, leave for a few seconds, spectators come and go checking
    /// their updates have no gap, and misbehaving clients (garbage,
    /// oversized frames, wrong tokens, no hello, a reader that stops,
    /// half-sent requests) must each get their documented answer; the
    /// server's memory and open files are sampled and must stay flat.
    /// Run the server with `--lobby-per-min 0 --max-connections-per-ip 0 --max-pending-per-ip 0`.
    #[arg(long)]
    pub soak: bool,
    /// With --soak: seconds between two readings of the server's /metrics.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    pub sample_secs: u64,
    /// A crowd at human pace (duels): `--matches` duels kept going for the
    /// run, each seat thinking `--think` before each action, `--spectators`
    /// watching them, the sockets opened from `--source-addrs`; the seats
    /// and spectators come in at `--ramp` a second, then `--duration`
    /// seconds are measured. Prints the server's memory per live seat,
    /// per spectator and per connection.
    #[arg(long, conflicts_with_all = ["soak", "idle", "idle_matches", "think_ms"])]
    pub crowd: bool,
    /// With --crowd: each seat's think time before each action, drawn
    /// anew each time from MIN-MAX (`2s-5s`, `500ms-2s`) or fixed (`3s`).
    #[arg(long, requires = "crowd", value_parser = parse_think, default_value = "2s-5s")]
    pub think: (Duration, Duration),
    /// With --crowd: spectators, spread over the matches (each follows
    /// its match's slot to the next match).
    #[arg(long, requires = "crowd", default_value_t = 0)]
    pub spectators: usize,
    /// With --crowd: local addresses to open the sockets from, in turn:
    /// a range `127.0.0.2-127.0.0.9` or a list `127.0.0.2,127.0.0.3`. One
    /// address has about 28,000 ephemeral ports toward one server port.
    #[arg(long, requires = "crowd", value_parser = parse_sources, default_value = "")]
    pub source_addrs: Sources,
    /// With --crowd: connections opened per second while the crowd comes in.
    #[arg(long, requires = "crowd", default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    pub ramp: u32,
}

/// `--source-addrs`, parsed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Sources(pub Vec<std::net::IpAddr>);

/// `--think`: `MIN-MAX` or one duration, each `2s`, `500ms` or seconds.
fn parse_think(s: &str) -> Result<(Duration, Duration), String> {
    let one = |d: &str| -> Result<Duration, String> {
        let d = d.trim();
        let bad = || format!("{d:?}: a duration is like 2s, 500ms or 3");
        if let Some(ms) = d.strip_suffix("ms") {
            ms.parse().map(Duration::from_millis).map_err(|_| bad())
        } else {
            d.strip_suffix('s')
                .unwrap_or(d)
                .parse::<f64>()
                .ok()
                .filter(|s| (0.0..=60.0).contains(s))
                .map(Duration::from_secs_f64)
                .ok_or_else(bad)
        }
    };
    let (lo, hi) = match s.split_once('-') {
        Some((a, b)) => (one(a)?, one(b)?),
        None => (one(s)?, one(s)?),
    };
    if lo > hi || hi > Duration::from_secs(60) {
        return Err(format!("{s:?}: MIN-MAX with MIN at most MAX and MAX at most 60 s"));
    }
    Ok((lo, hi))
}

/// `--source-addrs`: `A-B` (IPv4, every address from A to B) or `A,B,...`.
fn parse_sources(s: &str) -> Result<Sources, String> {
    use std::net::{IpAddr, Ipv4Addr};
    let ip = |a: &str| a.trim().parse::<IpAddr>().map_err(|e| format!("{a:?}: {e}"));
    if s.trim().is_empty() {
        return Ok(Sources::default());
    }
    if let Some((a, b)) = s.split_once('-') {
        let (IpAddr::V4(a), IpAddr::V4(b)) = (ip(a)?, ip(b)?) else {
            return Err("a range of source addresses is IPv4: A-B".into());
        };
        let (a, b) = (u32::from(a), u32::from(b));
        if a > b || b - a >= 1024 {
            return Err(format!("{s:?}: A-B with A before B, at most 1024 addresses"));
        }
        return Ok(Sources((a..=b).map(|n| IpAddr::V4(Ipv4Addr::from(n))).collect()));
    }
    s.split(',').map(ip).collect::<Result<_, _>>().map(Sources)
}

/// `--game`: the games the load generator plays.
fn parse_game(s: &str) -> Result<LoadGame, String> {
    match s {
        "duel" => Ok(LoadGame::Duel),
        "divinity" => Ok(LoadGame::Divinity),
        "clans" => Ok(LoadGame::Clans { seats: 2 }),
        "clans-2v2" => Ok(LoadGame::Clans { seats: 4 }),
        other => Err(format!("{other:?}: the load generator plays duel, divinity, clans or clans-2v2")),
    }
}

/// Run a parsed command line.
///
/// # Errors
/// Whatever stops the run, in words; a failed soak is an error.
pub async fn run(args: LoadArgs) -> anyhow::Result<()> {
    let LoadArgs {
        server,
        game,
        matches,
        duration,
        seed,
        points,
        max_actions,
        idle_matches,
        idle,
        think_ms,
        soak,
        sample_secs,
        crowd,
        think,
        spectators,
        source_addrs,
        ramp,
    } = args;
    let cfg = LoadConfig {
        addr: ServerAddr::parse(&server)?,
        game,
        matches,
        duration: Duration::from_secs(duration),
        seed,
        points,
        max_actions,
        idle_matches,
        idle,
        think: Duration::from_millis(think_ms),
        soak: soak.then(|| Duration::from_secs(sample_secs)),
    };
    if crowd {
        let c = load::crowd::Crowd { think, spectators, sources: source_addrs.0, ramp };
        eprintln!(
            "athlas-load: a crowd of {matches} duels and {spectators} spectators against {}, {duration} s measured",
            cfg.addr.http()
        );
        let (report, crowd) = load::crowd::run(cfg, c).await?;
        println!("{report}\n{crowd}");
        return Ok(());
    }
    let what = if game == LoadGame::Divinity { "parties" } else { "matches" };
    eprintln!("athlas-load: {matches} {what} for {duration} s against {}", cfg.addr.http());
    let report = load::run(cfg).await?;
    println!("{report}");
    // A soak's growing memory or an unanswered misbehaving client
    // is a failed run, for scripts as for people.
    if report.soak.is_some() && report.total_errors() > 0 {
        let problems: Vec<&String> = report
            .errors
            .keys()
            .filter(|k| k.starts_with("soak_") || k.starts_with("unanswered_") || *k == "spectator_gap")
            .collect();
        anyhow::ensure!(problems.is_empty(), "the soak failed: {problems:?}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_parses() {
        <LoadArgs as clap::CommandFactory>::command().debug_assert();
        let c = LoadArgs::try_parse_from(["athlas-load", "--matches", "4", "--duration", "2"]).unwrap();
        assert!(matches!(c, LoadArgs { matches: 4, duration: 2, game: LoadGame::Duel, .. }));
        let c = LoadArgs::try_parse_from(["athlas-load", "--game", "divinity", "--parties", "5", "--duration", "3"])
            .unwrap();
        assert!(matches!(c, LoadArgs { matches: 5, duration: 3, game: LoadGame::Divinity, .. }));
        let c = LoadArgs::try_parse_from(["athlas-load", "--game", "clans-2v2"]).unwrap();
        assert!(matches!(c, LoadArgs { game: LoadGame::Clans { seats: 4 }, .. }));
        assert!(LoadArgs::try_parse_from(["athlas-load", "--game", "chess"]).is_err());
    }

    #[test]
    fn a_crowd_parses() {
        let c = LoadArgs::try_parse_from([
            "athlas-load",
            "--crowd",
            "--matches",
            "30000",
            "--think",
            "2s-5s",
            "--spectators",
            "40000",
            "--source-addrs",
            "127.0.0.2-127.0.0.9",
        ])
        .unwrap();
        assert!(c.crowd);
        assert_eq!(c.think, (Duration::from_secs(2), Duration::from_secs(5)));
        assert_eq!(c.source_addrs.0.len(), 8);
        assert_eq!(c.source_addrs.0[7], "127.0.0.9".parse::<std::net::IpAddr>().unwrap());
        assert_eq!(parse_think("500ms-1.5s"), Ok((Duration::from_millis(500), Duration::from_millis(1500))));
        assert_eq!(parse_think("3"), Ok((Duration::from_secs(3), Duration::from_secs(3))));
        assert!(parse_think("5s-2s").is_err());
        assert!(parse_think("2s-90s").is_err());
        assert_eq!(parse_sources("127.0.0.2,::1").unwrap().0.len(), 2);
        assert!(parse_sources("127.0.0.9-127.0.0.2").is_err());
        // Crowd flags need --crowd; a crowd is not a soak.
        assert!(LoadArgs::try_parse_from(["athlas-load", "--spectators", "5"]).is_err());
        assert!(LoadArgs::try_parse_from(["athlas-load", "--crowd", "--soak"]).is_err());
    }
}
