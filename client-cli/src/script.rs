//! Scripted and bot play: actions from JSON lines, every received frame
//! written to stdout as one JSON line. For bots and end-to-end tests.
//!
//! A script line is an action of the game (`{"type":"end_turn"}` in the duel,
//! `{"type":"choose_round","explore":true}` in Divinity), a full client
//! frame (`{"type":"act","id":9,"action":{..}}`, with `"seat":S` to act for
//! a seat handed to this one; `take_back`, `hand`, `ping`), blank, or a `#`
//! comment. Each `act` waits for its `ack` or `error` before the
//! next line goes; by default each line also waits until the game waits for
//! this seat (so two scripts, one per seat, interleave by themselves).

use std::{
    io::Write,
    time::{Duration, Instant},
};

use serde_json::Value;
use tokio::time::sleep_until;

use crate::{
    bot::Bot,
    games::GameKind,
    net::{Link, LinkEvent},
    player::{Observed, Player},
};

/// One meaningful line of a script.
#[derive(Debug, Clone, PartialEq)]
pub enum ScriptLine {
    /// A duel action, to be wrapped in an `act`.
    Action(Value),
    /// A client frame, sent as it is (an `act` gets an `id` if it has none).
    Frame(Value),
}

/// Frame types a script may send as they are (`take_back` and `hand` are
/// answered by an `ack` or `error` that the script prints, not waits for).
const FRAME_TYPES: [&str; 4] = ["act", "ping", "take_back", "hand"];

/// Which game's actions a script's lines are checked as before anything is
/// sent (the server checks them again; this names the line of a typo).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// Sent as they are (`--raw`).
    Nothing,
    /// Checked as this game's actions.
    Game(GameKind),
}

impl Check {
    /// The check for `game`, or none when `raw`.
    ///
    /// # Errors
    /// A game whose actions this client does not know.
    pub fn for_game(game: &str, raw: bool) -> Result<Check, String> {
        match raw {
            true => Ok(Check::Nothing),
            false => GameKind::parse(game).map(Check::Game).map_err(|e| format!("scripts are checked: {e} (--raw)")),
        }
    }
}

/// Parse one line. `Ok(None)` for blank lines and `#` comments.
///
/// # Errors
/// Not JSON, not an object with a `type`, or (unless [`Check::Nothing`]) an
/// action the game does not know, explained in words.
pub fn parse_line(line: &str, check: Check) -> Result<Option<ScriptLine>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let Some(kind) = v.get("type").and_then(Value::as_str) else {
        return Err("a line is a JSON object with a \"type\"".into());
    };
    if FRAME_TYPES.contains(&kind) {
        if kind == "act" {
            let Some(action) = v.get("action") else {
                return Err("an act frame needs an \"action\"".into());
            };
            check_action(action, check)?;
        }
        return Ok(Some(ScriptLine::Frame(v)));
    }
    check_action(&v, check)?;
    Ok(Some(ScriptLine::Action(v)))
}

fn check_action(v: &Value, check: Check) -> Result<(), String> {
    match check {
        Check::Nothing => Ok(()),
        Check::Game(game) => game.check_action(v),
    }
}

/// Parse a whole script, naming the line of the first mistake.
///
/// # Errors
/// The first line that does not parse, with its number (from 1).
pub fn parse_script(text: &str, check: Check) -> Result<Vec<ScriptLine>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match parse_line(line, check) {
            Ok(Some(l)) => out.push(l),
            Ok(None) => {}
            Err(e) => return Err(format!("line {}: {e}", i + 1)),
        }
    }
    Ok(out)
}

/// How a scripted run behaves.
#[derive(Debug, Clone, Copy)]
pub struct ScriptConfig {
    /// Before each line, wait until the game waits for this seat.
    pub wait_turn: bool,
    /// Stop waiting for the turn after this long and send anyway.
    pub turn_timeout: Duration,
    /// After the last line (or the end of the game), keep printing frames
    /// until none came for this long.
    pub linger: Duration,
    /// At least this long between two new actions, so a bot stays inside
    /// the server's per-connection rate limit instead of answering every
    /// ack at once and being told `rate_limited`. `None`: as fast as acks come.
    pub pace: Option<Duration>,
}

impl Default for ScriptConfig {
    fn default() -> Self {
        ScriptConfig {
            wait_turn: true,
            turn_timeout: Duration::from_secs(30),
            linger: Duration::from_millis(500),
            pace: None,
        }
    }
}

/// The pace of `athlas --bot`/`--script` unless told otherwise: 10 actions a
/// second, half the server's default sustained limit (20/s), fast enough to
/// watch and never throttled.
pub const DEFAULT_PACE: Duration = Duration::from_millis(100);

/// How a run ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    pub acked: u64,
    /// Error frames received.
    pub errors: u64,
    pub finished: bool,
    /// The `seq` of the last `welcome`/`update` seen, to resume from.
    pub last_seq: Option<u64>,
}

/// Play `lines` (then, with a bot, random legal actions until the game
/// ends), writing every received frame to `out`.
///
/// # Errors
/// The link gave up, the greeting was refused, or the bot cannot play.
pub async fn run(
    link: Link,
    lines: Vec<ScriptLine>,
    mut bot: Option<Bot>,
    out: &mut (dyn Write + Send),
    cfg: ScriptConfig,
) -> anyhow::Result<Outcome> {
    run_with(link, lines, bot.as_mut(), out, cfg).await
}

/// [`run`] with a bot kept by the caller (a campaign's bot plays on, with
/// the same random stream and action count, into the next match).
///
/// # Errors
/// As [`run`].
pub async fn run_with(
    mut link: Link,
    lines: Vec<ScriptLine>,
    mut bot: Option<&mut Bot>,
    out: &mut (dyn Write + Send),
    cfg: ScriptConfig,
) -> anyhow::Result<Outcome> {
    let mut p = Player::new();
    let mut result = Outcome::default();
    let mut next = 0usize;
    let mut reconnected = false;
    let mut turn_wait_since: Option<Instant> = None;
    let mut resend_at: Option<tokio::time::Instant> = None;
    let mut last_frame = Instant::now();
    // When the next new action may go (see `ScriptConfig::pace`).
    let mut next_send_at = tokio::time::Instant::now();
    loop {
        // Wait for something, then take everything already queued before deciding.
        let now = tokio::time::Instant::now();
        let tick = (now + Duration::from_millis(50)).min(next_send_at.max(now));
        let deadline = resend_at.unwrap_or(tick);
        let first = tokio::select! {
            ev = link.next() => Some(ev),
            () = sleep_until(deadline) => None,
        };
        let mut batch = Vec::new();
        match first {
            Some(None) => anyhow::bail!("the connection task ended"),
            Some(Some(ev)) => batch.push(ev),
            None => {}
        }
        while let Ok(ev) = link.events.try_recv() {
            batch.push(ev);
        }
        for ev in batch {
            match ev {
                LinkEvent::Frame(text) => {
                    last_frame = Instant::now();
                    writeln!(out, "{text}")?;
                    if let Some(b) = bot.as_mut() {
                        b.observe(&text);
                    }
                    match p.observe(&text) {
                        Observed::Acked { .. } => {
                            result.acked += 1;
                            if let Some(b) = bot.as_mut() {
                                b.accepted();
                            }
                        }
                        Observed::RateLimited => {
                            result.errors += 1;
                            resend_at = Some(tokio::time::Instant::now() + Duration::from_millis(100));
                        }
                        Observed::Rejected { id, code, message } => {
                            result.errors += 1;
                            if !p.welcomed && id.is_none() {
                                anyhow::bail!("the server refused: {code}: {message}");
                            }
                            if let Some(b) = bot.as_mut() {
                                b.refused(&code);
                                if b.stuck() {
                                    anyhow::bail!(
                                        "the server refused the bot {} times in a row; last: {code}: {message}",
                                        crate::bot::MAX_REFUSALS
                                    );
                                }
                            }
                        }
                        _ => {}
                    }
                }
                LinkEvent::Connected { attempt } if attempt > 1 => reconnected = true,
                LinkEvent::Connected { .. } => {}
                LinkEvent::Disconnected { reason, retry_in } => {
                    eprintln!("athlas: disconnected ({reason}); retrying in {retry_in:?}");
                }
                LinkEvent::GaveUp { reason } => anyhow::bail!("gave up reconnecting: {reason}"),
            }
        }
        out.flush()?;
        if !p.welcomed {
            continue;
        }
        if reconnected {
            reconnected = false;
            if p.in_flight.is_some() && !p.settle_after_reconnect() {
                resend_at = Some(tokio::time::Instant::now());
            }
        }
        if let Some(at) = resend_at {
            if tokio::time::Instant::now() >= at {
                resend_at = None;
                if let Some(i) = p.in_flight.as_mut() {
                    i.sent_at = Instant::now();
                    link.send(i.frame.clone());
                }
            }
            continue;
        }
        if p.in_flight.is_some() {
            continue;
        }
        result.finished = p.finished;
        result.last_seq = p.seq;
        if tokio::time::Instant::now() < next_send_at && !p.finished {
            continue;
        }
        if next < lines.len() {
            // Its own turn, or a seat handed to it with something listed.
            let listed = p.actionable().iter().any(|(_, actions)| !actions.is_empty());
            let ready = !cfg.wait_turn || p.finished || p.my_turn() || listed || {
                let since = *turn_wait_since.get_or_insert_with(Instant::now);
                since.elapsed() >= cfg.turn_timeout
            };
            if ready {
                turn_wait_since = None;
                let text = match &lines[next] {
                    ScriptLine::Action(a) => p.act(a),
                    ScriptLine::Frame(f) => p.frame(f.clone()),
                };
                next += 1;
                link.send(text);
                next_send_at = tokio::time::Instant::now() + cfg.pace.unwrap_or_default();
            }
            continue;
        }
        if let Some(b) = bot.as_mut() {
            if !p.finished && !b.spent() {
                if !b.acts_whenever_waited_for() && p.no_legal_lists() {
                    anyhow::bail!("the server lists no legal actions for this seat; the Divinity bot needs a server that does (issue 13)");
                }
                let my_turn = p.my_turn();
                match b.act(&mut p) {
                    Some(frame) => {
                        link.send(frame);
                        next_send_at = tokio::time::Instant::now() + cfg.pace.unwrap_or_default();
                    }
                    // A Divinity bot with nothing listed waits for the next frame.
                    None if my_turn && b.acts_whenever_waited_for() => {
                        anyhow::bail!("the bot has no action to take (an empty catalogue?)")
                    }
                    None => {}
                }
                continue;
            }
        }
        if last_frame.elapsed() >= cfg.linger {
            return Ok(result);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lines_are_actions_frames_or_nothing() {
        assert_eq!(parse_line("", Check::Game(GameKind::Duel)), Ok(None));
        assert_eq!(parse_line("  # a comment", Check::Game(GameKind::Duel)), Ok(None));
        assert_eq!(
            parse_line(r#"{"type":"end_turn"}"#, Check::Game(GameKind::Duel)),
            Ok(Some(ScriptLine::Action(json!({"type":"end_turn"}))))
        );
        assert_eq!(
            parse_line(r#"{"type":"act","id":3,"action":{"type":"move","to":[1,-1]}}"#, Check::Game(GameKind::Duel)),
            Ok(Some(ScriptLine::Frame(json!({"type":"act","id":3,"action":{"type":"move","to":[1,-1]}}))))
        );
        assert_eq!(
            parse_line(r#"{"type":"ping"}"#, Check::Game(GameKind::Duel)),
            Ok(Some(ScriptLine::Frame(json!({"type":"ping"}))))
        );
    }

    #[test]
    fn mistakes_are_named_with_their_line() {
        assert!(parse_line("{nope", Check::Game(GameKind::Duel)).unwrap_err().starts_with("not JSON"));
        assert!(parse_line("[1]", Check::Game(GameKind::Duel)).unwrap_err().contains("\"type\""));
        assert!(parse_line(r#"{"type":"fly"}"#, Check::Game(GameKind::Duel))
            .unwrap_err()
            .starts_with("not a duel action"));
        assert!(parse_line(r#"{"type":"fly"}"#, Check::Nothing).is_ok(), "unchecked lines go as they are");
        assert!(parse_line(r#"{"type":"act","id":1}"#, Check::Game(GameKind::Duel)).unwrap_err().contains("action"));
        let e = parse_script("# start\n{\"type\":\"pass\"}\n{\"type\":\"move\"}\n", Check::Game(GameKind::Duel))
            .unwrap_err();
        assert!(e.starts_with("line 3: not a duel action"), "{e}");
        assert_eq!(
            parse_script("{\"type\":\"pass\"}\n\n{\"type\":\"resign\"}", Check::Game(GameKind::Duel)).unwrap().len(),
            2
        );
    }

    #[test]
    fn divinity_lines_are_checked_as_divinity_actions() {
        let d = Check::for_game("divinity", false).unwrap();
        assert!(parse_line(r#"{"type":"choose_round","explore":true}"#, d).is_ok());
        assert!(parse_line(r#"{"type":"act","seat":2,"action":{"type":"end_turn"}}"#, d).is_ok());
        assert!(parse_line(r#"{"type":"choose_round"}"#, d).unwrap_err().starts_with("not a divinity action"));
        assert!(parse_line(r#"{"type":"end_activations"}"#, d).is_err(), "a duel action is not a divinity one");
        assert!(parse_line(r#"{"type":"choose_round","explore":true}"#, Check::Game(GameKind::Duel)).is_err());
        assert_eq!(Check::for_game("chess", true), Ok(Check::Nothing));
        assert!(Check::for_game("chess", false).is_err());
        let hand = parse_line(r#"{"type":"hand","id":5,"seat":1,"to":0}"#, d).unwrap();
        assert_eq!(hand, Some(ScriptLine::Frame(json!({"type":"hand","id":5,"seat":1,"to":0}))));
        assert!(matches!(parse_line(r#"{"type":"take_back","id":6}"#, d), Ok(Some(ScriptLine::Frame(_)))));
    }
}
