//! `athlas campaign …`: the campaign commands, how a campaign seat plays,
//! and their dispatch.

use std::{path::PathBuf, time::Duration};

use anyhow::Context;
use athlas_protocol::CreateCampaign;
use clap::{Args, Subcommand};
use serde_json::json;

use super::{read_script, ServerArg};
use crate::{
    campaign::{self, Headless, Journey, Mode},
    games::GameKind,
    net::{Lobby, ServerAddr},
    script::{Check, ScriptConfig},
    session::SavedCampaign,
};

/// `athlas campaign …`.
#[derive(Debug, Subcommand)]
pub enum CampaignCommand {
    /// Create a campaign (you take seat 0, the host), choose your Origin and
    /// print the join code for your friends.
    New {
        /// The game (one played in campaigns).
        #[arg(value_parser = GameKind::parse_campaign, default_value_t = GameKind::Divinity)]
        game: GameKind,
        #[command(flatten)]
        server: ServerArg,
        /// Players in the party (Divinity: 1 to 4).
        #[arg(long, default_value_t = 2)]
        seats: u32,
        /// Your Origin (ifan, sebille, red_prince, fane, lohse, beast, vali,
        /// tanguistal, farzanah, cassian); or later with `athlas campaign choose`.
        #[arg(long)]
        origin: Option<String>,
        /// The party's leader (a seat): only it takes the party's decisions
        /// and starts each next location. Without one, any seat does.
        #[arg(long)]
        leader: Option<u8>,
        /// A live campaign: a turn timer (correspondence otherwise).
        #[arg(long)]
        live: bool,
        /// Seconds an Origin has for its combat turn before the server ends
        /// it (implies --live; without it a live campaign uses the
        /// server's response timer).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=86_400))]
        turn_timer: Option<u64>,
        /// Keep the campaign out of public lists: friends join with the code.
        #[arg(long)]
        private: bool,
        /// Variant Honor Mode: a forced restart restarts the whole campaign.
        #[arg(long)]
        honor_mode: bool,
        /// Variant Solo Mode: one person plays two Origins (needs --seats 2).
        #[arg(long)]
        solo: bool,
        /// Variant Unrestricted Talents: talents ignore level limits.
        #[arg(long)]
        unrestricted_talents: bool,
        #[command(flatten)]
        play: PlayArgs,
    },
    /// Join a campaign with its join code (the next free seat).
    Join {
        code: String,
        #[command(flatten)]
        server: ServerArg,
        /// Your Origin; or later with `athlas campaign choose`.
        #[arg(long)]
        origin: Option<String>,
        #[command(flatten)]
        play: PlayArgs,
    },
    /// Make a seat's choice before a match: its Origin (before the first
    /// location), or the party's leader (`none`: any seat decides).
    Choose {
        campaign_id: String,
        #[command(flatten)]
        seat: SeatArgs,
        /// The Origin this seat plays.
        #[arg(long, required_unless_present = "leader", conflicts_with = "leader")]
        origin: Option<String>,
        /// The party's leader: a seat number, or `none`.
        #[arg(long, value_parser = parse_leader)]
        leader: Option<Leader>,
    },
    /// List the campaigns of the seats saved here, with where each stands.
    List {
        /// Only the campaigns on this server.
        #[arg(long)]
        server: Option<String>,
    },
    /// Where a campaign stands: stage, seats, the match on, past matches.
    Status {
        campaign_id: String,
        #[command(flatten)]
        seat: SeatArgs,
    },
    /// Start the campaign's next match (the leader, or any seat without one).
    Next {
        campaign_id: String,
        #[command(flatten)]
        seat: SeatArgs,
    },
    /// Come back to a campaign: join its current match (starting the next
    /// one when the party is between two and this seat may), and play.
    Resume {
        campaign_id: String,
        #[command(flatten)]
        seat: SeatArgs,
        #[command(flatten)]
        play: PlayArgs,
    },
}

/// Which saved campaign seat a command speaks for.
#[derive(Debug, Clone, Args)]
pub struct SeatArgs {
    /// The seat, when several seats of the campaign are saved here.
    #[arg(long)]
    pub seat: Option<u8>,
    /// The server, when the campaign is saved for several; also a new
    /// address of the same server.
    #[arg(long)]
    pub server: Option<String>,
}

/// `--leader N|none`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leader(pub Option<u8>);

fn parse_leader(s: &str) -> Result<Leader, String> {
    if s.eq_ignore_ascii_case("none") {
        return Ok(Leader(None));
    }
    s.parse::<u8>().map(|n| Leader(Some(n))).map_err(|_| format!("{s:?} is not a seat number or `none`"))
}

/// How a campaign seat plays once a match is on.
#[derive(Debug, Clone, Args)]
pub struct PlayArgs {
    /// Only create/join (and choose) and print; do not wait for the party or play.
    #[arg(long, conflicts_with_all = ["bot", "script"])]
    pub no_ui: bool,
    /// No UI: play random legal actions (frames as JSON lines on stdout).
    #[arg(long)]
    pub bot: bool,
    /// No UI: send the actions of this file as JSON lines (`-`: stdin), then
    /// the bot's if --bot.
    #[arg(long, value_name = "FILE")]
    pub script: Option<PathBuf>,
    /// The bot's seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Milliseconds between two actions (0: no pause).
    #[arg(long, default_value_t = crate::script::DEFAULT_PACE.as_millis() as u64)]
    pub pace_ms: u64,
    /// With --bot: stop after this many of the bot's own actions.
    #[arg(long, default_value_t = 100_000)]
    pub max_actions: u64,
    /// With --bot/--script: matches (locations) to play before stopping,
    /// starting each next one when this seat may.
    #[arg(long, default_value_t = 1)]
    pub campaign_steps: u32,
    /// Milliseconds between two looks at the campaign while waiting for the party.
    #[arg(long, default_value_t = 1000)]
    pub poll_ms: u64,
    /// Exit with status 1 if any error frame was received.
    #[arg(long)]
    pub fail_on_error: bool,
    /// Milliseconds to keep printing frames after a match's end.
    #[arg(long, default_value_t = 500)]
    pub linger_ms: u64,
}

impl PlayArgs {
    pub(super) fn headless(&self) -> bool {
        self.bot || self.script.is_some()
    }

    /// How to play: the UI, or headless with the script and bot asked for.
    fn mode(&self, game: Option<GameKind>) -> anyhow::Result<Mode> {
        let Some(game) = game.filter(|_| self.headless()) else {
            return Ok(Mode::Ui);
        };
        let lines = match &self.script {
            None => Vec::new(),
            Some(p) => read_script(p, Check::Game(game))?,
        };
        let bot = self.bot.then(|| {
            let mut bot = game.bot(self.seed);
            bot.max_actions = self.max_actions;
            bot
        });
        let cfg = ScriptConfig {
            linger: Duration::from_millis(self.linger_ms),
            pace: (self.pace_ms > 0).then(|| Duration::from_millis(self.pace_ms)),
            ..ScriptConfig::default()
        };
        Ok(Mode::Headless(Box::new(Headless { lines, bot, cfg, fail_on_error: self.fail_on_error })))
    }
}

/// The options of `athlas campaign new`: the game's variants that were
/// asked for, and the server's own `live`, `private` and `turn_timer_ms`
/// (from seconds; a timer makes the campaign live).
pub(super) fn campaign_options(
    leader: Option<u8>,
    live: bool,
    private: bool,
    turn_timer_secs: Option<u64>,
    variants: &[(&str, bool)],
) -> serde_json::Value {
    let mut options = json!({"live": live || turn_timer_secs.is_some(), "private": private});
    if let Some(secs) = turn_timer_secs {
        options["turn_timer_ms"] = (secs * 1000).into();
    }
    for (name, on) in variants {
        if *on {
            options[*name] = true.into();
        }
    }
    if let Some(l) = leader {
        options["leader"] = l.into();
    }
    options
}

/// The saved seat a campaign command speaks for, and the lobby to reach:
/// on exactly the server given first, else the campaign's only saved seat
/// reached at the new address given.
fn campaign_seat(campaign_id: &str, args: &SeatArgs) -> anyhow::Result<(Lobby, SavedCampaign)> {
    let wanted = args.server.as_deref().map(ServerAddr::parse).transpose()?;
    let dir = crate::session::dir();
    let saved = match wanted.as_ref().map(|a| SavedCampaign::find_in(&dir, campaign_id, Some(&a.http()), args.seat)) {
        Some(Ok(s)) => s,
        _ => SavedCampaign::find_in(&dir, campaign_id, None, args.seat).map_err(anyhow::Error::msg)?,
    };
    let addr = match wanted {
        Some(a) => a,
        None => ServerAddr::parse(&saved.server)?,
    };
    Ok((Lobby::new(addr), saved))
}

/// Save a new campaign seat and say so: words for a person, or one JSON
/// line (`campaign_created`/`campaign_joined`, without the token) before
/// the frames of a headless run.
fn announce_seat(saved: &SavedCampaign, kind: &str, headless: bool) -> anyhow::Result<()> {
    let path = saved.save().context("saving the seat token")?;
    if headless {
        let line = json!({"type": kind, "campaign_id": saved.campaign_id, "seat": saved.seat,
                          "join_code": saved.join_code, "saved": path});
        println!("{line}");
        return Ok(());
    }
    println!("campaign {}", saved.campaign_id);
    if let Some(code) = &saved.join_code {
        println!("join code {code}  (each friend runs: athlas campaign join {code} --origin ORIGIN)");
    }
    println!("seat {} token saved in {}\nto come back later: {}", saved.seat, path.display(), saved.resume_command());
    Ok(())
}

/// After `new`/`join`: choose the Origin if given, then play unless told not to.
async fn take_seat(lobby: Lobby, saved: SavedCampaign, origin: Option<String>, play: PlayArgs) -> anyhow::Result<()> {
    if let Some(origin) = origin {
        let status = lobby
            .choose(&saved.campaign_id, &saved.token, json!({ "origin": origin }))
            .await
            .with_context(|| format!("choosing {origin}"))?;
        if !play.headless() {
            println!("{}", campaign::describe(&status));
        }
    }
    if play.no_ui {
        return Ok(());
    }
    journey(lobby, saved, &play).await?.run().await
}

/// A campaign seat's journey; headless, it plays the campaign's game,
/// which the campaign's status names.
async fn journey(lobby: Lobby, seat: SavedCampaign, play: &PlayArgs) -> anyhow::Result<Journey> {
    let game = match play.headless() {
        false => None,
        true => {
            let status =
                lobby.campaign(&seat.campaign_id, Some(&seat.token)).await.context("looking up the campaign")?;
            Some(GameKind::parse(&status.game).map_err(anyhow::Error::msg)?)
        }
    };
    Ok(Journey {
        lobby,
        seat,
        mode: play.mode(game)?,
        steps: play.campaign_steps,
        poll: Duration::from_millis(play.poll_ms.max(10)),
        dir: crate::session::dir(),
    })
}

pub(super) async fn run_campaign(command: CampaignCommand) -> anyhow::Result<()> {
    match command {
        CampaignCommand::New {
            game,
            server,
            seats,
            origin,
            leader,
            live,
            turn_timer,
            private,
            honor_mode,
            solo,
            unrestricted_talents,
            play,
        } => {
            let addr = ServerAddr::parse(&server.server)?;
            let lobby = Lobby::new(addr.clone());
            let variants = [("honor_mode", honor_mode), ("solo", solo), ("unrestricted_talents", unrestricted_talents)];
            let options = campaign_options(leader, live, private, turn_timer, &variants);
            let body = CreateCampaign { game: game.name().to_owned(), seats: Some(seats), options };
            let c = lobby.create_campaign(&body).await.context("creating the campaign")?;
            let saved = SavedCampaign {
                server: addr.http(),
                campaign_id: c.campaign_id,
                seat: c.seat,
                token: c.token,
                join_code: c.join_code,
                current_match: None,
                last_seq: None,
            };
            announce_seat(&saved, "campaign_created", play.headless())?;
            take_seat(lobby, saved, origin, play).await
        }
        CampaignCommand::Join { code, server, origin, play } => {
            let addr = ServerAddr::parse(&server.server)?;
            let lobby = Lobby::new(addr.clone());
            let j = lobby.join_campaign(&code).await.map_err(|e| match e.code() {
                Some("match_full") => anyhow::anyhow!(
                    "every seat of campaign {} is taken; if one is yours, `athlas campaign list` where you joined \
                     shows how to resume it",
                    code.trim()
                ),
                _ => anyhow::Error::new(e).context("joining the campaign"),
            })?;
            let saved = SavedCampaign {
                server: addr.http(),
                campaign_id: j.campaign_id,
                seat: j.seat,
                token: j.token,
                join_code: Some(code.trim().to_owned()),
                current_match: None,
                last_seq: None,
            };
            announce_seat(&saved, "campaign_joined", play.headless())?;
            take_seat(lobby, saved, origin, play).await
        }
        CampaignCommand::Choose { campaign_id, seat, origin, leader } => {
            let (lobby, saved) = campaign_seat(&campaign_id, &seat)?;
            let choice = match (origin, leader) {
                (Some(o), _) => json!({ "origin": o }),
                (None, Some(Leader(l))) => json!({ "leader": l }),
                (None, None) => anyhow::bail!("choose what: --origin ORIGIN or --leader N|none"),
            };
            let status = lobby.choose(&saved.campaign_id, &saved.token, choice).await.context("choosing")?;
            println!("{}", campaign::describe(&status));
            Ok(())
        }
        CampaignCommand::List { server } => {
            let only = server.as_deref().map(ServerAddr::parse).transpose()?.map(|a| a.http());
            let dir = crate::session::dir();
            let mut saved = SavedCampaign::all_in(&dir)?;
            saved.retain(|s| only.as_ref().is_none_or(|o| &s.server == o));
            if saved.is_empty() {
                println!("no campaign seats saved in {}", dir.display());
                return Ok(());
            }
            let mut servers: Vec<String> = saved.iter().map(|s| s.server.clone()).collect();
            servers.dedup();
            for server in servers {
                let here: Vec<&SavedCampaign> = saved.iter().filter(|s| s.server == server).collect();
                let tokens = here.iter().map(|s| s.token.clone()).collect();
                let lobby = Lobby::new(ServerAddr::parse(&server)?);
                let statuses = match lobby.my_campaigns(tokens).await {
                    Ok(s) => s,
                    Err(e) => {
                        println!("{server}: {e}");
                        continue;
                    }
                };
                for s in &here {
                    let found = statuses.iter().find(|st| st.campaign_id == s.campaign_id && st.you == Some(s.seat));
                    match found {
                        Some(st) => println!("{}\n  {}", campaign::describe(st), s.resume_command()),
                        None => println!("campaign {} seat {}: not on {server} any more", s.campaign_id, s.seat),
                    }
                }
            }
            Ok(())
        }
        CampaignCommand::Status { campaign_id, seat } => {
            let (lobby, saved) = campaign_seat(&campaign_id, &seat)?;
            let status = lobby.campaign(&saved.campaign_id, Some(&saved.token)).await?;
            println!("{}", campaign::describe(&status));
            Ok(())
        }
        CampaignCommand::Next { campaign_id, seat } => {
            let (lobby, saved) = campaign_seat(&campaign_id, &seat)?;
            let m = lobby.next_match(&saved.campaign_id, &saved.token).await.context("starting the next match")?;
            println!("match {} started; to play it: {}", m.match_id, saved.resume_command());
            Ok(())
        }
        CampaignCommand::Resume { campaign_id, seat, play } => {
            let (lobby, saved) = campaign_seat(&campaign_id, &seat)?;
            if play.no_ui {
                let status = lobby.campaign(&saved.campaign_id, Some(&saved.token)).await?;
                println!("{}", campaign::describe(&status));
                return Ok(());
            }
            journey(lobby, saved, &play).await?.run().await
        }
    }
}
