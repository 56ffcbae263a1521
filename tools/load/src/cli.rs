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
}
