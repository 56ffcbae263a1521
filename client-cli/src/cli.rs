//! The command line: one enum of commands, each dispatched to its module.

use std::{path::PathBuf, time::Duration};

use anyhow::Context;
use clap::{Args, Parser, Subcommand};

mod campaigns;

#[cfg(test)]
use campaigns::campaign_options;
use campaigns::run_campaign;
pub use campaigns::{CampaignCommand, Leader, PlayArgs, SeatArgs};

use crate::{
    games::GameKind,
    net::{Backoff, Identity, Link, Lobby, ServerAddr},
    script::{self, Check, ScriptConfig},
    session::Saved,
    tui::{self, App},
};

#[derive(Debug, Parser)]
#[command(name = "athlas", version, about = "Terminal client for Athlas: play, watch, script, verify")]
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub scripted: Scripted,
}

/// The server, for every command.
#[derive(Debug, Clone, Args)]
pub struct ServerArg {
    /// The server: http://HOST:PORT (or HOST:PORT).
    #[arg(long, env = "ATHLAS_SERVER", default_value = "127.0.0.1:8080")]
    pub server: String,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create a match (you take seat 0), print its join code, and play.
    Create {
        /// The game (one whose matches stand alone).
        #[arg(value_parser = GameKind::parse_match, default_value_t = GameKind::Duel)]
        game: GameKind,
        #[command(flatten)]
        server: ServerArg,
        /// Each player's summoning points (the book recommends 250).
        #[arg(long, default_value_t = 250)]
        points: u32,
        /// A live match (timed response windows) instead of correspondence.
        #[arg(long)]
        live: bool,
        /// Keep the match out of `athlas list`: only players given the join
        /// code can join it (anyone with its id can still watch).
        #[arg(long)]
        private: bool,
        /// Print the match and exit instead of opening the UI.
        #[arg(long)]
        no_ui: bool,
        /// Your name at the table (1 to 24 letters, digits, spaces and
        /// common punctuation), shown to your opponent and spectators.
        #[arg(long)]
        name: Option<String>,
    },
    /// Join a match with its join code, and play.
    Join {
        code: String,
        #[command(flatten)]
        server: ServerArg,
        #[arg(long)]
        no_ui: bool,
        /// Your name at the table, as for `create`.
        #[arg(long)]
        name: Option<String>,
    },
    /// Check a finished match without trusting the server: fetch its
    /// published log, replay it with this build's engine, and check every
    /// state hash, each seat's commitment and the outcome. Exits non-zero
    /// on any mismatch.
    Verify {
        match_id: String,
        #[command(flatten)]
        server: ServerArg,
    },
    /// Watch a match as a spectator.
    Watch {
        match_id: String,
        #[command(flatten)]
        server: ServerArg,
    },
    /// Come back to a match with the saved seat token and last seq; with no
    /// match, list the seats saved here.
    Resume {
        match_id: Option<String>,
        /// Which seat, when several seats of the match are saved here (two
        /// players sharing one directory).
        #[arg(long)]
        seat: Option<u8>,
        /// The server, when the match is saved for several; also a new
        /// address of the same server.
        #[arg(long)]
        server: Option<String>,
    },
    /// List open matches.
    List {
        #[command(flatten)]
        server: ServerArg,
    },
    /// Campaigns: a party playing a run of matches (Divinity: one location
    /// a match), with one seat token per player for all of them.
    Campaign {
        #[command(subcommand)]
        command: CampaignCommand,
    },
}

/// Read a script file (`-`: stdin), checked as `check`.
fn read_script(p: &std::path::Path, check: Check) -> anyhow::Result<Vec<script::ScriptLine>> {
    if p.as_os_str() == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)?;
        return script::parse_script(&text, check).map_err(|e| anyhow::anyhow!("stdin: {e}"));
    }
    let text = std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
    script::parse_script(&text, check).map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))
}

/// `athlas --script FILE` / `athlas --bot`: no UI, frames as JSON lines on stdout.
#[derive(Debug, Args)]
pub struct Scripted {
    /// JSON lines of actions (or `act` frames) to send; `-` reads stdin.
    #[arg(long, value_name = "FILE")]
    pub script: Option<PathBuf>,
    /// Play random legal actions until the game ends (after the script, if any).
    #[arg(long)]
    pub bot: bool,
    /// The bot's seed (the same seed plays the same way from the same views).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    #[arg(long, env = "ATHLAS_SERVER", default_value = "127.0.0.1:8080")]
    pub server: String,
    /// Play the seat of this token.
    #[arg(long, conflicts_with_all = ["create", "join"])]
    pub token: Option<String>,
    /// Create a duel and play seat 0 (the first line printed is {"type":"created",..}).
    #[arg(long, conflicts_with = "join")]
    pub create: bool,
    /// Join with this code (the first line printed is {"type":"joined",..}).
    #[arg(long, value_name = "CODE")]
    pub join: Option<String>,
    /// Summoning points, with --create (the duel; other games ignore it).
    #[arg(long, default_value_t = 250)]
    pub points: u32,
    /// A live match, with --create.
    #[arg(long)]
    pub live: bool,
    /// Milliseconds between two actions (the default keeps a bot well inside
    /// the server's default rate limit of 20 actions a second; 0: no pause).
    #[arg(long, default_value_t = crate::script::DEFAULT_PACE.as_millis() as u64)]
    pub pace_ms: u64,
    /// With --bot: resign after this many of the bot's own actions, so a game
    /// between two random bots always ends (random play rarely wins).
    #[arg(long, default_value_t = 400)]
    pub max_actions: u64,
    /// Send each line at once instead of waiting for this seat's turn.
    #[arg(long)]
    pub no_wait: bool,
    /// Send lines as they are, without checking them as actions of --game.
    #[arg(long)]
    pub raw: bool,
    /// The game of --token's seat: its script lines are checked as its
    /// actions, and the bot plays it (a campaign seat token works too).
    #[arg(long, value_parser = GameKind::parse, default_value_t = GameKind::Duel)]
    pub game: GameKind,
    /// Milliseconds to keep printing frames after the last line.
    #[arg(long, default_value_t = 500)]
    pub linger_ms: u64,
    /// Exit with status 1 if any error frame was received.
    #[arg(long)]
    pub fail_on_error: bool,
}

/// Run a parsed command line.
///
/// # Errors
/// Whatever stops the command, in words.
pub async fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Some(Command::Create { game, server, points, live, private, no_ui, name }) => {
            let addr = ServerAddr::parse(&server.server)?;
            let lobby = Lobby::new(addr.clone());
            // `private` travels with the options, like `live`; the server takes it out.
            let mut options = game.match_options(points);
            if private {
                options["private"] = true.into();
            }
            let c =
                lobby.create_named(game.name(), options, live, name.as_deref()).await.context("creating the match")?;
            let saved = Saved {
                server: addr.http(),
                match_id: c.match_id.clone(),
                seat: Some(c.seat),
                token: Some(c.token.clone()),
                join_code: Some(c.join_code.clone()),
                last_seq: None,
            };
            let path = saved.save().context("saving the seat token")?;
            println!(
                "match {}\njoin code {}  (the opponent runs: athlas join {})\nseat {} token saved in {}\nto come back later: {}",
                c.match_id,
                c.join_code,
                c.join_code,
                c.seat,
                path.display(),
                saved.resume_command()
            );
            if no_ui {
                return Ok(());
            }
            play(addr, Identity::Seat { token: c.token }, None, Some(saved), Some(c.join_code)).await
        }
        Some(Command::Join { code, server, no_ui, name }) => {
            let addr = ServerAddr::parse(&server.server)?;
            let j = match Lobby::new(addr.clone()).join_named(&code, name.as_deref()).await {
                Ok(j) => j,
                Err(e) if e.code() == Some("match_full") => {
                    anyhow::bail!("{}", full_match_help(&addr, &code))
                }
                Err(e) => return Err(anyhow::Error::new(e).context("joining the match")),
            };
            let saved = Saved {
                server: addr.http(),
                match_id: j.match_id.clone(),
                seat: Some(j.seat),
                token: Some(j.token.clone()),
                join_code: Some(code.trim().to_owned()),
                last_seq: None,
            };
            let path = saved.save().context("saving the seat token")?;
            println!(
                "match {}\nseat {} token saved in {}\nto come back later: {}",
                j.match_id,
                j.seat,
                path.display(),
                saved.resume_command()
            );
            if no_ui {
                return Ok(());
            }
            play(addr, Identity::Seat { token: j.token }, None, Some(saved), None).await
        }
        Some(Command::Verify { match_id, server }) => {
            let addr = ServerAddr::parse(&server.server)?;
            let log = Lobby::new(addr.clone())
                .match_log(&match_id)
                .await
                .map_err(|e| anyhow::anyhow!("fetching the log of {match_id} from {}: {e}", addr.http()))?;
            match crate::games::verify(&log) {
                Ok(checked) => {
                    println!("{checked}");
                    println!("verified");
                    Ok(())
                }
                Err(why) => anyhow::bail!("NOT verified: {why}"),
            }
        }
        Some(Command::Watch { match_id, server }) => {
            let addr = ServerAddr::parse(&server.server)?;
            // Ask the lobby first: an unknown id is an answer, not a wait.
            match Lobby::new(addr.clone()).get_match(&match_id).await {
                Ok(_) => {}
                Err(crate::net::NetError::Refused { status: 400 | 404, message, .. }) => {
                    anyhow::bail!("{message} on {} (`athlas list` shows the open matches)", addr.http())
                }
                Err(e) => return Err(anyhow::Error::new(e).context("looking up the match")),
            }
            play(addr, Identity::Spectator { match_id }, None, None, None).await
        }
        Some(Command::Resume { match_id: None, .. }) => {
            let all = Saved::all_in(&crate::session::dir())?;
            if all.is_empty() {
                println!("no seats saved in {}", crate::session::dir().display());
            }
            for s in all {
                println!("{}", s.resume_command());
            }
            Ok(())
        }
        Some(Command::Resume { match_id: Some(match_id), seat, server }) => {
            // A saved seat on exactly this server first; else the match's
            // only saved seat, reached at the new address given.
            let wanted = server.as_deref().map(ServerAddr::parse).transpose()?;
            let dir = crate::session::dir();
            let saved = match wanted.as_ref().map(|a| Saved::find_in(&dir, &match_id, Some(&a.http()), seat)) {
                Some(Ok(s)) => s,
                _ => Saved::find_in(&dir, &match_id, None, seat)?,
            };
            let addr = match wanted {
                Some(a) => a,
                None => ServerAddr::parse(&saved.server)?,
            };
            let identity = match &saved.token {
                Some(t) => Identity::Seat { token: t.clone() },
                None => Identity::Spectator { match_id: saved.match_id.clone() },
            };
            let (last, code) = (saved.last_seq, saved.join_code.clone());
            play(addr, identity, last, Some(saved), code).await
        }
        Some(Command::List { server }) => {
            let addr = ServerAddr::parse(&server.server)?;
            let list = Lobby::new(addr).open_matches().await?;
            if list.matches.is_empty() {
                println!("no open matches");
            }
            for m in list.matches {
                println!(
                    "{}  {}  seats {}/{}  {}  join code {}",
                    m.match_id,
                    m.game,
                    m.seats_taken.len(),
                    m.seats,
                    if m.live { "live" } else { "correspondence" },
                    m.join_code.unwrap_or_default()
                );
            }
            Ok(())
        }
        Some(Command::Campaign { command }) => run_campaign(command).await,
        None => scripted(cli.scripted).await,
    }
}

/// What to tell a player whose `join` found the match full: the seats of it
/// saved here and how to come back to them.
fn full_match_help(addr: &ServerAddr, code: &str) -> String {
    let seats = Saved::by_join_code_in(&crate::session::dir(), &addr.http(), code).unwrap_or_default();
    if seats.is_empty() {
        return format!(
            "every seat of match {code} is taken. If one is yours, run `athlas resume` where you \
             joined it (in that directory, or with the same ATHLAS_STATE_DIR) to list your saved seats."
        );
    }
    let lines: Vec<String> =
        seats.iter().map(|s| format!("  seat {}: {}", s.seat.unwrap_or(0), s.resume_command())).collect();
    format!(
        "every seat of match {} is taken; the seats saved here come back with:\n{}",
        seats[0].match_id,
        lines.join("\n")
    )
}

/// Open the UI on a link.
async fn play(
    addr: ServerAddr,
    identity: Identity,
    last_seq: Option<u64>,
    saved: Option<Saved>,
    join_code: Option<String>,
) -> anyhow::Result<()> {
    let match_id = match (&identity, &saved) {
        (Identity::Spectator { match_id }, _) => match_id.clone(),
        (_, Some(s)) => s.match_id.clone(),
        _ => String::new(),
    };
    let link = Link::spawn(addr.ws_for(&match_id), identity, last_seq, Backoff::default());
    let app = App::new(match_id, join_code);
    let mut saved = saved;
    tui::run(link, app, saved.as_mut().map(|s| s as &mut dyn crate::session::SeatFile)).await
}

async fn scripted(s: Scripted) -> anyhow::Result<()> {
    if s.script.is_none() && !s.bot {
        anyhow::bail!("nothing to do: give a command (athlas --help), or --script FILE / --bot");
    }
    let check = if s.raw { Check::Nothing } else { Check::Game(s.game) };
    let lines = match &s.script {
        None => Vec::new(),
        Some(p) => read_script(p, check)?,
    };
    if s.game.campaign() && (s.create || s.join.is_some()) {
        anyhow::bail!("--create and --join make matches; a {} seat comes from `athlas campaign new/join` (then --token or `athlas campaign resume ID --bot`)", s.game);
    }
    let addr = ServerAddr::parse(&s.server)?;
    let lobby = Lobby::new(addr.clone());
    let mut stdout = std::io::stdout();
    let token = if let Some(t) = s.token {
        t
    } else if s.create {
        let c =
            lobby.create(s.game.name(), s.game.match_options(s.points), s.live).await.context("creating the match")?;
        let mut line = serde_json::to_value(&c)?;
        line["type"] = "created".into();
        println!("{line}");
        c.token
    } else if let Some(code) = &s.join {
        let j = lobby.join(code).await.context("joining the match")?;
        let mut line = serde_json::to_value(&j)?;
        line["type"] = "joined".into();
        println!("{line}");
        j.token
    } else {
        anyhow::bail!("--script and --bot need a seat: --token T, --create or --join CODE");
    };
    let link = Link::spawn(addr.ws(), Identity::Seat { token }, None, Backoff::default());
    let bot = match s.bot {
        false => None,
        true => {
            let mut bot = s.game.bot(s.seed);
            bot.max_actions = s.max_actions;
            Some(bot)
        }
    };
    let cfg = ScriptConfig {
        wait_turn: !s.no_wait,
        linger: Duration::from_millis(s.linger_ms),
        pace: (s.pace_ms > 0).then(|| Duration::from_millis(s.pace_ms)),
        ..ScriptConfig::default()
    };
    let outcome = script::run(link, lines, bot, &mut stdout, cfg).await?;
    if s.fail_on_error && outcome.errors > 0 {
        anyhow::bail!("{} error frame(s) received", outcome.errors);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_command_line_parses() {
        Cli::command_check();
        let c = Cli::try_parse_from(["athlas", "create", "duel", "--points", "300", "--live"]).unwrap();
        assert!(matches!(c.command, Some(Command::Create { points: 300, live: true, private: false, .. })));
        let c = Cli::try_parse_from(["athlas", "create", "--private"]).unwrap();
        assert!(matches!(c.command, Some(Command::Create { private: true, .. })));
        let c = Cli::try_parse_from(["athlas", "resume", "M", "--seat", "1"]).unwrap();
        assert!(matches!(c.command, Some(Command::Resume { seat: Some(1), .. })));
        let c = Cli::try_parse_from(["athlas", "--bot", "--join", "X"]).unwrap();
        assert_eq!(c.scripted.pace_ms, 100, "bots pace themselves by default");
        let c = Cli::try_parse_from(["athlas", "--script", "f.jsonl", "--join", "ABCD"]).unwrap();
        assert_eq!(c.scripted.join.as_deref(), Some("ABCD"));
        assert!(Cli::try_parse_from(["athlas", "--bot", "--create", "--join", "X"]).is_err());
    }

    fn campaign(args: &[&str]) -> CampaignCommand {
        let argv = [&["athlas", "campaign"][..], args].concat();
        match Cli::try_parse_from(argv).unwrap_or_else(|e| panic!("{args:?}: {e}")).command {
            Some(Command::Campaign { command }) => command,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_campaign_commands_parse() {
        let new = campaign(&[
            "new",
            "divinity",
            "--seats",
            "3",
            "--origin",
            "ifan",
            "--leader",
            "1",
            "--live",
            "--private",
            "--honor-mode",
            "--unrestricted-talents",
        ]);
        let CampaignCommand::New {
            seats: 3,
            origin: Some(o),
            leader: Some(1),
            live: true,
            private: true,
            honor_mode: true,
            solo: false,
            unrestricted_talents: true,
            play,
            ..
        } = new
        else {
            panic!("{new:?}")
        };
        assert_eq!(o, "ifan");
        assert!(!play.headless() && play.campaign_steps == 1);
        assert!(matches!(
            campaign(&["new", "--solo", "--seats", "2"]),
            CampaignCommand::New { solo: true, seats: 2, .. }
        ));
        let join = campaign(&["join", "ABCD", "--origin", "sebille", "--bot", "--seed", "3", "--campaign-steps", "2"]);
        let CampaignCommand::Join { code, origin: Some(o), play, .. } = join else { panic!("{join:?}") };
        assert_eq!(
            (code.as_str(), o.as_str(), play.bot, play.seed, play.campaign_steps),
            ("ABCD", "sebille", true, 3, 2)
        );
        assert!(matches!(
            campaign(&["choose", "C", "--origin", "fane", "--seat", "2"]),
            CampaignCommand::Choose { origin: Some(_), leader: None, seat: SeatArgs { seat: Some(2), .. }, .. }
        ));
        assert!(matches!(
            campaign(&["choose", "C", "--leader", "none"]),
            CampaignCommand::Choose { leader: Some(Leader(None)), .. }
        ));
        assert!(matches!(
            campaign(&["choose", "C", "--leader", "2"]),
            CampaignCommand::Choose { leader: Some(Leader(Some(2))), .. }
        ));
        for bad in [
            &["choose", "C"][..],
            &["choose", "C", "--leader", "two"],
            &["choose", "C", "--origin", "x", "--leader", "1"],
        ] {
            assert!(Cli::try_parse_from([&["athlas", "campaign"][..], bad].concat()).is_err(), "{bad:?}");
        }
        assert!(matches!(campaign(&["list"]), CampaignCommand::List { server: None }));
        assert!(matches!(campaign(&["status", "C"]), CampaignCommand::Status { .. }));
        assert!(matches!(campaign(&["next", "C", "--seat", "0"]), CampaignCommand::Next { .. }));
        let resume = campaign(&["resume", "C", "--seat", "1", "--script", "moves.jsonl", "--pace-ms", "0"]);
        let CampaignCommand::Resume { seat, play, .. } = resume else { panic!("{resume:?}") };
        assert_eq!((seat.seat, play.pace_ms), (Some(1), 0));
        assert!(play.headless());
        assert!(Cli::try_parse_from(["athlas", "campaign", "resume", "C", "--bot", "--no-ui"]).is_err());
        let c = Cli::try_parse_from(["athlas", "--bot", "--game", "divinity", "--token", "T"]).unwrap();
        assert_eq!(c.scripted.game, "divinity");
    }

    #[test]
    fn every_campaign_command_has_help() {
        let cmd = <Cli as clap::CommandFactory>::command();
        let campaign = cmd.find_subcommand("campaign").expect("a campaign command");
        assert!(campaign.get_about().is_some());
        for sub in ["new", "join", "choose", "list", "status", "next", "resume"] {
            let sub = campaign.find_subcommand(sub).unwrap_or_else(|| panic!("no campaign {sub}"));
            assert!(sub.get_about().is_some(), "campaign {} has no help", sub.get_name());
            for arg in sub.get_arguments().filter(|a| a.get_long().is_some() && a.get_id() != "help") {
                assert!(arg.get_help().is_some(), "campaign {} --{} has no help", sub.get_name(), arg.get_id());
            }
        }
    }

    #[test]
    fn campaign_options_carry_only_what_was_asked() {
        let o = campaign_options(None, false, false, None, &[("solo", false), ("honor_mode", true)]);
        assert_eq!(o, json!({"live": false, "private": false, "honor_mode": true}));
        let o = campaign_options(Some(2), true, true, None, &[]);
        assert_eq!(o, json!({"live": true, "private": true, "leader": 2}));
        let o = campaign_options(None, false, false, Some(90), &[]);
        assert_eq!(o, json!({"live": true, "private": false, "turn_timer_ms": 90_000}), "a timer makes it live");
        let c = Cli::try_parse_from(["athlas", "campaign", "new", "divinity", "--turn-timer", "0"]);
        assert!(c.is_err(), "a zero timer is refused");
    }

    impl Cli {
        fn command_check() {
            <Cli as clap::CommandFactory>::command().debug_assert();
        }
    }
}
