//! Campaigns from the command line: create, join, choose, look up, start
//! the next match, and play a campaign seat match after match.
//!
//! A campaign seat's token is valid for every match of the campaign: `hello`
//! with it puts the seat in the campaign's current match. So playing is a
//! loop: ask the lobby where the party stands (`GET /api/campaigns/{id}`),
//! start the next match when the campaign is between two and this seat may
//! (`POST …/next`; the server says `not_leader` otherwise, and this seat
//! waits for the one who may), connect, play the match to its end, and go
//! round again for as many matches as asked.
//!
//! Tokens travel only in the `Authorization` header and live only in the
//! seat's file (see [`crate::session`]): nothing here prints one.

use std::time::Duration;

use anyhow::Context;
use athlas_protocol::{code, CampaignMatch, CampaignStatus};
use serde_json::Value;

use crate::{
    bot::Bot,
    net::{Backoff, Identity, Link, Lobby, NetError},
    script::{self, ScriptConfig, ScriptLine},
    session::SavedCampaign,
};

/// How a seat plays its matches.
pub enum Mode {
    /// The terminal UI (see [`open_divinity_ui`]).
    Ui,
    /// No UI: script lines, then a bot if any; frames as JSON lines on stdout.
    Headless(Box<Headless>),
}

/// A seat played without the UI.
pub struct Headless {
    /// Played once, in the first match.
    pub lines: Vec<ScriptLine>,
    /// Kept across matches (its random stream and action count go on).
    pub bot: Option<Bot>,
    pub cfg: ScriptConfig,
    /// Stop with an error after a match in which an error frame came.
    pub fail_on_error: bool,
}

/// How a seat goes through its campaign.
pub struct Journey {
    pub lobby: Lobby,
    pub seat: SavedCampaign,
    pub mode: Mode,
    /// Matches to play before stopping (at least 1).
    pub steps: u32,
    /// How often to ask the lobby while waiting for the party.
    pub poll: Duration,
    /// Where the seat's file is kept up to date (its `last_seq`).
    pub dir: std::path::PathBuf,
}

/// Where a seat stands before it can play: what the lobby says it should do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// A match is on: say hello into it.
    Play(String),
    /// Between matches: this seat may try to start the next one.
    StartNext,
    /// This seat has a choice to make first (Divinity: its Origin).
    MustChoose,
    /// Others are choosing, joining, or the leader must start the next match.
    Wait(String),
    /// The campaign has ended.
    Over,
}

/// What a seat should do, from the campaign's status.
pub fn next_step(s: &CampaignStatus, seat: u8) -> Next {
    match s.stage.as_str() {
        "playing" => match &s.current {
            Some(m) => Next::Play(m.match_id.clone()),
            None => Next::Wait("the match is being created".into()),
        },
        "between" => Next::StartNext,
        "over" => Next::Over,
        _ if s.choosing.contains(&seat) => Next::MustChoose,
        _ => {
            let free = s.seats.iter().filter(|x| !x.taken).count();
            let choosing: Vec<String> = s.choosing.iter().map(u8::to_string).collect();
            Next::Wait(match (free, choosing.is_empty()) {
                (0, false) => format!("seats {} still to choose", choosing.join(", ")),
                (n, true) => format!("{n} seat(s) still to join"),
                (n, false) => format!("{n} seat(s) still to join; seats {} still to choose", choosing.join(", ")),
            })
        }
    }
}

/// A few lines on where the party stands, for `athlas campaign status/list`.
pub fn describe(s: &CampaignStatus) -> String {
    let mut out = format!("campaign {}  {}  stage {}", s.campaign_id, s.game, s.stage);
    if let Some(you) = s.you {
        out.push_str(&format!("  (you: seat {you})"));
    }
    for seat in &s.seats {
        let mut line = format!("\n  seat {}: ", seat.seat);
        line.push_str(seat.label.as_deref().unwrap_or(if seat.taken { "not chosen yet" } else { "free" }));
        if seat.connected {
            line.push_str(", connected");
        }
        if let Some(by) = seat.controlled_by {
            line.push_str(&format!(", played by seat {by}"));
        }
        out.push_str(&line);
    }
    if !s.choosing.is_empty() {
        let seats: Vec<String> = s.choosing.iter().map(u8::to_string).collect();
        out.push_str(&format!("\n  still to choose: seats {}", seats.join(", ")));
    }
    if let Some(m) = &s.current {
        out.push_str(&format!("\n  now: match {} ({} actions) {}", m.match_id, m.seq, standing(m)));
    }
    for (i, m) in s.matches.iter().enumerate() {
        let outcome = m.outcome.as_ref().map_or_else(|| m.status.clone(), ToString::to_string);
        out.push_str(&format!("\n  match {}: {} {}", i + 1, m.match_id, outcome));
    }
    if let Some(ms) = s.turn_timer_ms {
        out.push_str(&format!("\n  live: {} s a turn", ms / 1000));
    }
    out
}

/// A match's standing in words: Divinity's location, round, phase, whose
/// turn and whom the game waits for; any other game's as its JSON.
fn standing(m: &CampaignMatch) -> String {
    let s = &m.standing;
    let Some(location) = s.get("location").and_then(Value::as_str) else {
        return if s.is_null() { String::new() } else { s.to_string() };
    };
    let name = athlas_engine::divinity::content::Catalogue::standard()
        .locations
        .get(location)
        .map_or(location, |l| l.name.as_str());
    let mut parts = vec![name.to_owned()];
    if let Some(level) = s.get("level").and_then(Value::as_u64) {
        parts.push(format!("level {level}"));
    }
    if let Some(round) = s.get("round").and_then(Value::as_u64) {
        let kind = s.get("round_kind").and_then(Value::as_str).map(|k| format!(" ({k})")).unwrap_or_default();
        parts.push(format!("round {round}{kind}"));
    }
    if let Some(phase) = s.get("phase").and_then(Value::as_str) {
        parts.push(phase.replace('_', " "));
    }
    if let Some(active) = s.get("active").and_then(Value::as_u64) {
        parts.push(format!("seat {active}'s turn"));
    }
    let waiting: Vec<String> =
        s.get("waiting").and_then(Value::as_array).into_iter().flatten().map(ToString::to_string).collect();
    if !waiting.is_empty() {
        parts.push(format!("waiting for seats {}", waiting.join(", ")));
    }
    parts.join(" · ")
}

/// Whether a refused `next` is part of the party's normal flow: this seat
/// is not the leader (it waits for the one who is), or another seat started
/// the match between our look and our request.
fn expected_refusal(e: &NetError) -> bool {
    matches!(e.code(), Some(code::NOT_LEADER | code::NOT_READY_FOR_NEXT))
}

impl Journey {
    /// Play this seat's matches.
    ///
    /// # Errors
    /// The lobby does not answer, refuses the token, this seat must choose
    /// first, or the play itself fails.
    pub async fn run(mut self) -> anyhow::Result<()> {
        let mut played = 0u32;
        let mut said = String::new();
        let mut tried_next = false;
        // A match already played to its end is never played again.
        let mut last_played: Option<String> = None;
        while played < self.steps.max(1) {
            let status = self
                .lobby
                .campaign(&self.seat.campaign_id, Some(&self.seat.token))
                .await
                .with_context(|| format!("looking up campaign {}", self.seat.campaign_id))?;
            let step = next_step(&status, self.seat.seat);
            match step {
                Next::Over => {
                    eprintln!("athlas: campaign {} is over", status.campaign_id);
                    return Ok(());
                }
                Next::MustChoose => anyhow::bail!(
                    "seat {} must choose first: athlas campaign choose {} --seat {} --origin ORIGIN",
                    self.seat.seat,
                    self.seat.campaign_id,
                    self.seat.seat
                ),
                Next::StartNext if !tried_next => {
                    tried_next = true;
                    match self.lobby.next_match(&self.seat.campaign_id, &self.seat.token).await {
                        Ok(m) => eprintln!("athlas: started the next match {}", m.match_id),
                        Err(e) if expected_refusal(&e) => {}
                        Err(e) => return Err(anyhow::Error::new(e).context("starting the next match")),
                    }
                    continue;
                }
                Next::StartNext => self.wait(&mut said, "the leader to start the next match").await,
                Next::Wait(why) => self.wait(&mut said, &why).await,
                Next::Play(match_id) if last_played.as_ref() == Some(&match_id) => {
                    self.wait(&mut said, "the campaign to record the match's end").await;
                }
                Next::Play(match_id) => {
                    tried_next = false;
                    said.clear();
                    self.play(&match_id).await?;
                    last_played = Some(match_id);
                    played += 1;
                }
            }
        }
        Ok(())
    }

    async fn wait(&self, said: &mut String, why: &str) {
        if said != why {
            eprintln!("athlas: waiting for {why}");
            *said = why.to_owned();
        }
        tokio::time::sleep(self.poll).await;
    }

    /// Play one match of the campaign to its end.
    async fn play(&mut self, match_id: &str) -> anyhow::Result<()> {
        let last_seq = self.seat.last_seq_in(match_id);
        let identity = Identity::Seat { token: self.seat.token.clone() };
        let link = Link::spawn(self.lobby.addr.ws_for(match_id), identity, last_seq, Backoff::default());
        match &mut self.mode {
            Mode::Ui => {
                self.seat = open_divinity_ui(link, self.seat.clone(), match_id, &self.dir).await?;
                Ok(())
            }
            Mode::Headless(h) => {
                let Headless { lines, bot, cfg, fail_on_error } = h.as_mut();
                let mut stdout = std::io::stdout();
                // A script is played once, in the first match.
                let lines = std::mem::take(lines);
                let outcome = script::run_with(link, lines, bot.as_mut(), &mut stdout, *cfg).await?;
                self.seat.current_match = Some(match_id.to_owned());
                self.seat.last_seq = outcome.last_seq;
                self.seat.save_in(&self.dir).context("saving the seat's last seq")?;
                if *fail_on_error && outcome.errors > 0 {
                    anyhow::bail!("{} error frame(s) received", outcome.errors);
                }
                if !outcome.finished {
                    // A spent bot or a script that ran out: stop here.
                    self.steps = 0;
                }
                Ok(())
            }
        }
    }
}

/// Play match `match_id` in the terminal UI (which picks the Divinity
/// screen from the welcome's game), keeping the seat's file in `dir` up to
/// date with the last seq seen; returns the seat as last saved.
///
/// # Errors
/// The terminal cannot be put in raw mode (not a terminal?).
pub async fn open_divinity_ui(
    link: Link,
    seat: SavedCampaign,
    match_id: &str,
    dir: &std::path::Path,
) -> anyhow::Result<SavedCampaign> {
    let app = crate::tui::App::new(match_id.to_owned(), seat.join_code.clone());
    let mut file = crate::session::CampaignSeatFile { seat, dir: dir.to_owned(), match_id: match_id.to_owned() };
    crate::tui::run(link, app, Some(&mut file)).await?;
    Ok(file.seat)
}

#[cfg(test)]
mod tests {
    use super::*;
    use athlas_protocol::CampaignSeatStatus;
    use serde_json::json;

    fn status(stage: &str, taken: &[bool], choosing: &[u8]) -> CampaignStatus {
        CampaignStatus {
            campaign_id: "c-1".into(),
            game: "divinity".into(),
            rules_version: 2,
            stage: stage.into(),
            seats: taken
                .iter()
                .enumerate()
                .map(|(i, &t)| CampaignSeatStatus {
                    seat: i as u8,
                    taken: t,
                    connected: false,
                    label: None,
                    controlled_by: None,
                })
                .collect(),
            you: None,
            choosing: choosing.to_vec(),
            current: None,
            matches: vec![],
            saved: json!(null),
            turn_timer_ms: None,
        }
    }

    #[test]
    fn each_stage_says_what_a_seat_does() {
        assert_eq!(next_step(&status("choosing", &[true, true, false], &[0, 1]), 0), Next::MustChoose);
        assert_eq!(
            next_step(&status("choosing", &[true, true, false], &[1]), 0),
            Next::Wait("1 seat(s) still to join; seats 1 still to choose".into())
        );
        assert_eq!(
            next_step(&status("choosing", &[true, false], &[]), 0),
            Next::Wait("1 seat(s) still to join".into())
        );
        assert_eq!(
            next_step(&status("choosing", &[true, true], &[1]), 0),
            Next::Wait("seats 1 still to choose".into())
        );
        assert_eq!(next_step(&status("between", &[true], &[]), 0), Next::StartNext);
        assert_eq!(next_step(&status("over", &[true], &[]), 0), Next::Over);
        let mut on = status("playing", &[true], &[]);
        assert!(matches!(next_step(&on, 0), Next::Wait(_)), "playing with no match yet: wait");
        on.current = Some(CampaignMatch {
            match_id: "m-2".into(),
            status: "active".into(),
            seq: 4,
            standing: json!({"location":"tutorial","round":1}),
            outcome: None,
        });
        assert_eq!(next_step(&on, 0), Next::Play("m-2".into()));
    }

    #[test]
    fn the_description_names_seats_matches_and_no_token() {
        let mut s = status("playing", &[true, true, false], &[]);
        s.you = Some(1);
        s.seats[0].label = Some("ifan".into());
        s.seats[0].connected = true;
        s.seats[1].controlled_by = Some(0);
        s.matches = vec![CampaignMatch {
            match_id: "m-1".into(),
            status: "finished".into(),
            seq: 300,
            standing: json!(null),
            outcome: Some(json!({"result":"party_won"})),
        }];
        let text = describe(&s);
        assert!(text.starts_with("campaign c-1  divinity  stage playing  (you: seat 1)"), "{text}");
        assert!(text.contains("seat 0: ifan, connected"), "{text}");
        assert!(text.contains("seat 1: not chosen yet, played by seat 0"), "{text}");
        assert!(text.contains("seat 2: free"), "{text}");
        assert!(text.contains(r#"match 1: m-1 {"result":"party_won"}"#), "{text}");
        s.current = Some(CampaignMatch {
            match_id: "m-2".into(),
            status: "active".into(),
            seq: 41,
            standing: json!({"location":"tutorial","level":1,"round":3,"round_kind":"combat","phase":"combat",
                             "active":2,"waiting":[2],"outcome":null}),
            outcome: None,
        });
        let text = describe(&s);
        assert!(
            text.contains("now: match m-2 (41 actions) The Merryweather · level 1 · round 3 (combat) · combat · seat 2's turn · waiting for seats 2"),
            "{text}"
        );
    }

    #[test]
    fn a_refused_next_waits_unless_something_is_wrong() {
        let refused = |c: &str| NetError::Refused { status: 409, code: c.into(), message: String::new() };
        assert!(expected_refusal(&refused("not_leader")));
        assert!(expected_refusal(&refused("not_ready_for_next")));
        assert!(!expected_refusal(&refused("bad_token")));
    }

    /// A campaign server in miniature on one loopback port: the lobby's
    /// `GET /api/campaigns/c-1` and `POST …/next`, and `/ws` where each
    /// match lasts one `end_turn`. It records what it was asked.
    mod fake {
        use std::sync::{Arc, Mutex};

        use futures_util::{SinkExt, StreamExt};
        use serde_json::{json, Value};
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        use tokio::net::{TcpListener, TcpStream};
        use tokio_tungstenite::tungstenite::Message;

        #[derive(Default)]
        pub struct Party {
            /// Matches created so far; the last is current.
            pub matches: Vec<String>,
            /// The current match has ended.
            pub ended: bool,
            /// Request lines (HTTP) and `hello`s (WS), in order.
            pub log: Vec<String>,
            /// Every `Authorization` header received.
            pub auth: Vec<String>,
        }

        pub async fn start() -> (String, Arc<Mutex<Party>>) {
            let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap().to_string();
            let party = Arc::new(Mutex::new(Party { matches: vec!["m-1".into()], ..Party::default() }));
            let shared = party.clone();
            tokio::spawn(async move {
                while let Ok((sock, _)) = listener.accept().await {
                    tokio::spawn(serve(sock, shared.clone()));
                }
            });
            (addr, party)
        }

        fn status(p: &Party) -> Value {
            let current = p.matches.last().unwrap();
            let stage = if p.ended { "between" } else { "playing" };
            let matches: Vec<Value> =
                p.matches.iter().map(|m| json!({"match_id": m, "status": "active", "seq": 0})).collect();
            let mut s = json!({"campaign_id":"c-1","game":"divinity","rules_version":2,"stage":stage,
                "seats":[{"seat":0,"taken":true,"connected":false}],"you":0,"matches":matches,"saved":null});
            if !p.ended {
                s["current"] = json!({"match_id": current, "status": "active", "seq": 0});
            }
            s
        }

        async fn serve(mut sock: TcpStream, party: Arc<Mutex<Party>>) {
            let mut head = [0u8; 2048];
            let n = sock.peek(&mut head).await.unwrap_or(0);
            let text = String::from_utf8_lossy(&head[..n]).to_string();
            if text.starts_with("GET /ws") {
                return play(sock, party).await;
            }
            let mut buf = vec![0u8; 4096];
            let n = sock.read(&mut buf).await.unwrap_or(0);
            let req = String::from_utf8_lossy(&buf[..n]).to_string();
            let line = req.lines().next().unwrap_or("").to_owned();
            let (code, body) = {
                let mut p = party.lock().unwrap();
                p.log.push(line.clone());
                if let Some(a) = req.lines().find(|l| l.to_ascii_lowercase().starts_with("authorization:")) {
                    p.auth.push(a.split_once(':').unwrap().1.trim().to_owned());
                }
                if line.starts_with("POST /api/campaigns/c-1/next") && p.ended {
                    let id = format!("m-{}", p.matches.len() + 1);
                    p.matches.push(id.clone());
                    p.ended = false;
                    ("201 Created", json!({"campaign_id":"c-1","match_id":id}))
                } else if line.starts_with("POST /api/campaigns/c-1/next") {
                    ("409 Conflict", json!({"code":"not_ready_for_next","message":"a match is on"}))
                } else {
                    ("200 OK", status(&p))
                }
            };
            let body = body.to_string();
            let resp = format!(
                "HTTP/1.1 {code}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = sock.write_all(resp.as_bytes()).await;
        }

        async fn play(sock: TcpStream, party: Arc<Mutex<Party>>) {
            let mut ws = tokio_tungstenite::accept_async(sock).await.unwrap();
            let Some(Ok(Message::Text(hello))) = ws.next().await else { return };
            let (match_id, ended) = {
                let mut p = party.lock().unwrap();
                let current = p.matches.last().unwrap().clone();
                p.log.push(format!("hello {current}"));
                (current, p.ended)
            };
            let hello: Value = serde_json::from_str(hello.as_str()).unwrap();
            assert_eq!(hello["token"], "tok-0");
            let waiting = json!({"status":"waiting","seats":[0]});
            let welcome = json!({"type":"welcome","protocol":1,"match_id":match_id,"game":"divinity","seat":0,"seq":0,
                "status": if ended { json!({"status":"finished","result":"party_won"}) } else { waiting },
                "view":{"phase":{"phase":"combat"}},"campaign_id":"c-1",
                "legal":[{"seat":0,"actions":[{"type":"end_turn"}]}]});
            ws.send(Message::text(welcome.to_string())).await.unwrap();
            while let Some(Ok(Message::Text(t))) = ws.next().await {
                let act: Value = serde_json::from_str(t.as_str()).unwrap();
                assert_eq!(act["action"], json!({"type":"end_turn"}));
                party.lock().unwrap().ended = true;
                let ack = json!({"type":"ack","id":act["id"],"seq":1});
                let update = json!({"type":"update","seq":1,"seat":0,"events":[],
                    "status":{"status":"finished","result":"party_won"},"view":{"phase":{"phase":"finished"}}});
                ws.send(Message::text(ack.to_string())).await.unwrap();
                ws.send(Message::text(update.to_string())).await.unwrap();
            }
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_bot_seat_plays_a_match_starts_the_next_and_plays_it_too() {
        let (addr, party) = fake::start().await;
        let dir = std::env::temp_dir().join(format!("athlas-journey-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let lobby = Lobby::new(crate::net::ServerAddr::parse(&addr).unwrap());
        let seat = SavedCampaign {
            server: lobby.addr.http(),
            campaign_id: "c-1".into(),
            seat: 0,
            token: "tok-0".into(),
            join_code: None,
            current_match: None,
            last_seq: None,
        };
        seat.save_in(&dir).unwrap();
        let cfg = ScriptConfig { linger: Duration::from_millis(50), ..ScriptConfig::default() };
        let mode =
            Mode::Headless(Box::new(Headless { lines: vec![], bot: Some(Bot::divinity(1)), cfg, fail_on_error: true }));
        let journey = Journey { lobby, seat, mode, steps: 2, poll: Duration::from_millis(20), dir: dir.clone() };
        tokio::time::timeout(Duration::from_secs(60), journey.run()).await.expect("the journey ends").unwrap();
        let p = party.lock().unwrap();
        assert_eq!(
            p.log,
            [
                "GET /api/campaigns/c-1 HTTP/1.1",
                "hello m-1",
                "GET /api/campaigns/c-1 HTTP/1.1",
                "POST /api/campaigns/c-1/next HTTP/1.1",
                "GET /api/campaigns/c-1 HTTP/1.1",
                "hello m-2",
            ]
        );
        assert!(p.auth.len() == 4 && p.auth.iter().all(|a| a == "Bearer tok-0"), "{:?}", p.auth);
        let saved = SavedCampaign::find_in(&dir, "c-1", None, Some(0)).unwrap();
        assert_eq!((saved.current_match.as_deref(), saved.last_seq), (Some("m-2"), Some(1)));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
