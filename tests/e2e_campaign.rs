//! End-to-end: a Divinity campaign with a party of three against a real
//! `athlas-server` process, on SQLite and on Postgres (issue 13, "Must
//! show"). Bots over real WebSockets choose among the legal actions the
//! server sends (the engine's party bot, reading only the view each seat
//! is sent); the host creates the campaign, friends join, each seat
//! chooses its Origin; the party plays the first location to its end and
//! the next one; mid-combat every client drops and the server is killed
//! with SIGKILL; a new server on the same store takes them back with their
//! campaign tokens; a seat is handed to another player for a while; a kill
//! between two locations leaves the campaign resumable; the party plays on
//! through the Warden to the campaign's end. Then:
//! - every acknowledged action is in the log, and every receiver's `seq`s
//!   are contiguous;
//! - the stored campaign state equals a direct engine replay of the stored
//!   logs;
//! - no frame to any seat or spectator holds a hidden thing (the RNG, a
//!   face-down location card, a Boss' tactics order), and planted leaks
//!   prove the scan would see one.

#[path = "support/mod.rs"]
mod support;

use athlas_engine::campaign::Campaign;
use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::{campaign::DivinityChoice, Divinity, DivinityOptions, DivinityState};
use athlas_engine::{Ruleset, Seat};
use athlas_server::store::Store;
use athlas_server::table::Table;
use serde_json::{json, Value};
use support::party::{Player, BEST_PARTY};
use support::*;
use uuid::Uuid;

/// `METHOD path` with a bearer token: (status, JSON body).
async fn http_auth(addr: &str, method: &str, path: &str, token: &str, body: Option<Value>) -> (u16, Value) {
    http_as(addr, method, path, Some(token), body).await
}

/// The party at the table: three seats (some may be away), a spectator.
struct Party {
    addr: String,
    tokens: Vec<String>,
    players: Vec<Option<Player>>,
    spectator: Option<Player>,
    /// Actions a player sent for a seat handed to it.
    acted_for: usize,
    /// Every acknowledged (match, seq).
    acked: Vec<(String, u64)>,
    /// Every raw frame any receiver got, by match, for the scan.
    frames: Vec<(String, String)>,
    campaign_id: String,
}

impl Party {
    fn match_id(&self) -> String {
        self.players.iter().flatten().next().expect("someone is here").match_id.clone()
    }

    /// Keep what a dropped connection received.
    fn keep(&mut self, p: Player) {
        self.frames.extend(p.client.raw.into_iter().map(|f| (p.match_id.clone(), f)));
    }

    async fn connect_all(&mut self, last_seq: Option<u64>) {
        for seat in 0..3 {
            self.players[seat] = Some(Player::connect(&self.addr, &self.tokens[seat], last_seq).await);
        }
        let match_id = self.players[0].as_ref().unwrap().match_id.clone();
        assert_eq!(self.players[0].as_ref().unwrap().frame["campaign_id"], json!(self.campaign_id));
        let mut watch = json!({"type": "watch", "match_id": match_id});
        if let Some(s) = last_seq {
            watch["last_seq"] = json!(s);
        }
        self.spectator = Some(Player::open(&self.addr, watch).await);
    }

    /// Drop every connection, keeping what they received.
    fn disconnect_all(&mut self) {
        let gone: Vec<Player> =
            self.players.iter_mut().chain(std::iter::once(&mut self.spectator)).filter_map(Option::take).collect();
        for p in gone {
            self.keep(p);
        }
    }

    fn frame(&self) -> &Value {
        &self.players.iter().flatten().next().unwrap().frame
    }

    fn finished(&self) -> bool {
        self.frame()["status"]["status"] == "finished"
    }

    fn in_combat(&self) -> bool {
        self.frame()["view"]["phase"]["phase"] == "combat"
    }

    /// One action by a waiting seat, from the legal ones its controller
    /// was sent; every receiver catches up. False when nobody here can act.
    async fn step(&mut self) -> bool {
        let frame = self.frame().clone();
        let control = frame["control"].as_array().cloned().unwrap_or_else(|| vec![Value::Null; 3]);
        for seat in frame["status"]["seats"].as_array().cloned().unwrap_or_default() {
            let seat = seat.as_u64().unwrap() as usize;
            let by = control[seat].as_u64().map_or(seat, |c| c as usize);
            let Some(p) = self.players[by].as_mut() else { continue };
            let action = p.choose(seat as Seat);
            let action = action
                .unwrap_or_else(|| panic!("a waited-for seat's controller is sent its legal actions: {}", p.frame));
            if by != seat {
                self.acted_for += 1;
            }
            let seq = p.act(&action, (by != seat).then_some(seat as Seat)).await;
            let match_id = p.match_id.clone();
            self.acked.push((match_id, seq));
            for p in self.players.iter_mut().flatten().chain(self.spectator.as_mut()) {
                p.catch_up(seq).await;
            }
            return true;
        }
        false
    }

    async fn status(&self) -> Value {
        let id = self.campaign_id();
        let (status, body) = http_auth(&self.addr, "GET", &format!("/api/campaigns/{id}"), &self.tokens[0], None).await;
        assert_eq!(status, 200, "{body}");
        body
    }

    fn campaign_id(&self) -> String {
        self.campaign_id.clone()
    }
}

/// The hidden things of a state, as they would appear in JSON.
fn secrets(s: &DivinityState) -> Vec<String> {
    let mut out = vec![serde_json::to_string(&s.rng).unwrap()];
    // Face-down location cards: their front text, as JSON escapes it (ids
    // are short numbers that name spaces too). A card also face up now
    // (revealed or held) is not a secret.
    let location = &Catalogue::standard().locations[&s.location];
    let up: Vec<&String> = s.revealed.iter().map(|r| &r.card).chain(&s.holding).collect();
    for id in s.deck.iter().filter(|c| !up.contains(c)) {
        if let Some(card) = location.card(id).filter(|c| c.text.len() >= 20) {
            let q = serde_json::to_string(&card.text).unwrap();
            out.push(q[1..q.len() - 1].to_owned());
        }
    }
    for e in &s.enemies {
        if e.tactics.len() > 1 {
            out.push(serde_json::to_string(&e.tactics).unwrap());
        }
    }
    // The back of a challenge card no automatic success flipped (L1198):
    // no row of it, in words, and no `challenge_rows` at all.
    if let Some(ch) = s.challenge.as_ref().filter(|c| c.flipped.is_none()) {
        out.push("\"challenge_rows\"".into());
        let view = Divinity::view(s, athlas_engine::Viewer::Spectator);
        let names = athlas_engine::divinity::words::Names::new(Some(&view));
        let rows =
            location.card(&ch.card).and_then(|c| c.challenge.as_ref()).map(|c| c.results.clone()).unwrap_or_default();
        for r in rows {
            let text = athlas_engine::divinity::words::effects(names, &r.effects);
            if text.len() >= 20 {
                out.push(text);
            }
        }
    }
    out
}

/// The frames holding a secret of the state at their seq.
fn leaks(frames: &[(u64, String)], states: &[DivinityState]) -> Vec<String> {
    let mut found = Vec::new();
    for (seq, f) in frames {
        let Some(state) = states.get(*seq as usize) else { continue };
        for secret in secrets(state) {
            if f.contains(&secret) {
                found.push(format!("seq {seq}: {secret}"));
            }
        }
    }
    found
}

/// Locations played (forced restarts included) before the test gives up.
const MAX_MATCHES: usize = 60;

/// The server on `db`, letting the host hand an absent seat at once.
fn start(db: &Db) -> Server {
    let mut cmd = db.command();
    cmd.args(["--hand-absent-secs", "0"]);
    spawn(cmd)
}

async fn campaign(db: Db) {
    let server = start(&db);
    let addr = server.addr.clone();

    // The host creates a campaign for three; two friends join with the code.
    let (status, host) =
        http(&addr, "POST", "/api/campaigns", Some(json!({"game": "divinity", "seats": 3, "options": {}}))).await;
    assert_eq!(status, 201, "{host}");
    let campaign_id = host["campaign_id"].as_str().unwrap().to_owned();
    let code = host["join_code"].as_str().unwrap();
    let mut tokens = vec![host["token"].as_str().unwrap().to_owned()];
    for seat in 1..3 {
        let (status, joined) = http(&addr, "POST", &format!("/api/campaigns/join/{code}"), None).await;
        assert_eq!((status, joined["seat"].as_u64()), (200, Some(seat)), "{joined}");
        tokens.push(joined["token"].as_str().unwrap().to_owned());
    }
    // Before every Origin is chosen there is no match to say hello to.
    let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await.unwrap();
    let mut early = Client { ws, raw: Vec::new(), next_id: 1, seq: 0, view: Value::Null };
    early.send(json!({"type": "hello", "token": tokens[0]})).await;
    let e = early.until(|m| m["type"] == "error").await;
    assert_eq!(e["code"], "not_ready_for_next", "{e}");

    // Origins, one of them refused as taken.
    let path = format!("/api/campaigns/{campaign_id}/choose");
    for (seat, origin) in BEST_PARTY.iter().enumerate() {
        if seat == 1 {
            let (status, body) =
                http_auth(&addr, "POST", &path, &tokens[1], Some(json!({"choice": {"origin": BEST_PARTY[0]}}))).await;
            assert_eq!((status / 100, body["code"].as_str()), (4, Some("origin_taken")), "{body}");
        }
        let (status, body) =
            http_auth(&addr, "POST", &path, &tokens[seat], Some(json!({"choice": {"origin": origin}}))).await;
        assert_eq!(status, 200, "{body}");
    }

    let mut party = Party {
        addr: addr.clone(),
        tokens: tokens.clone(),
        players: vec![None, None, None],
        spectator: None,
        acked: Vec::new(),
        acted_for: 0,
        frames: Vec::new(),
        campaign_id: campaign_id.clone(),
    };
    party.connect_all(None).await;
    let first = party.match_id();

    // The first location, to its end (an exit, or a forced restart).
    let mut steps = 0;
    while !party.finished() {
        assert!(party.step().await, "someone can act");
        steps += 1;
        assert!(steps < 3000, "the first location ends");
    }
    let st = party.status().await;
    assert_eq!(st["stage"], "between", "{st}");

    // A kill between two locations: the campaign is resumable, its state intact.
    let saved = st["saved"].clone();
    party.disconnect_all();
    let mut server = server;
    server.child.kill().unwrap();
    let _ = server.child.wait();
    let server = start(&db);
    party.addr = server.addr.clone();
    let addr = server.addr.clone();
    let (status, st) = http_auth(&addr, "GET", &format!("/api/campaigns/{campaign_id}"), &tokens[1], None).await;
    assert_eq!((status, &st["stage"], &st["saved"]), (200, &json!("between"), &saved), "{st}");
    assert_eq!(st["you"], 1);

    // The next location, from the stored state, started by any seat.
    let (status, next) =
        http_auth(&addr, "POST", &format!("/api/campaigns/{campaign_id}/next"), &tokens[2], None).await;
    assert_eq!(status, 201, "{next}");
    let mut second = next["match_id"].as_str().unwrap().to_owned();
    let mut matches = vec![first.clone(), second.clone()];
    party.connect_all(None).await;
    assert_eq!(party.match_id(), second);

    // Play into a combat (through more locations if one ends first);
    // everyone drops and the server is killed mid-combat.
    let mut steps = 0;
    while !party.in_combat() {
        if party.finished() {
            party.disconnect_all();
            let (status, next) =
                http_auth(&addr, "POST", &format!("/api/campaigns/{campaign_id}/next"), &tokens[0], None).await;
            assert_eq!(status, 201, "{next}");
            second = next["match_id"].as_str().unwrap().to_owned();
            matches.push(second.clone());
            party.connect_all(None).await;
        }
        party.step().await;
        steps += 1;
        assert!(steps < 3000, "a combat comes");
    }
    let seen = party.players[0].as_ref().unwrap().seqs.last().copied().unwrap();
    party.disconnect_all();
    let mut server = server;
    server.child.kill().unwrap();
    let _ = server.child.wait();
    let server = start(&db);
    party.addr = server.addr.clone();
    let addr = server.addr.clone();

    // Back with their tokens, from the last seq each saw: nothing missed.
    party.connect_all(Some(seen)).await;
    for p in party.players.iter().flatten() {
        assert_eq!(p.frame["seq"], seen, "resumed where it left");
    }
    let last_acked = party.acked.iter().filter(|(m, _)| *m == second).map(|(_, s)| *s).max().unwrap_or(0);
    assert!(seen >= last_acked, "no acknowledged action lost");

    // Seat 2's player leaves; the host hands seat 2 to seat 0 for a while.
    if let Some(p) = party.players[2].take() {
        party.keep(p);
    }
    let mut handed = false;
    for attempt in 0..100 {
        let p = party.players[0].as_mut().unwrap();
        let id = 10_000 + attempt;
        p.client.send(json!({"type": "hand", "id": id, "seat": 2, "to": 0})).await;
        let a = match tokio::time::timeout(
            std::time::Duration::from_secs(5),
            p.client.until(|m| (m["type"] == "ack" || m["type"] == "error") && m["id"] == json!(id)),
        )
        .await
        {
            Ok(a) => a,
            Err(_) => {
                panic!("no answer to hand; last frames: {:?}", &p.client.raw[p.client.raw.len().saturating_sub(3)..])
            }
        };
        if a["type"] == "ack" {
            let seq = a["seq"].as_u64().unwrap();
            for p in party.players.iter_mut().flatten().chain(party.spectator.as_mut()) {
                p.catch_up(seq).await;
            }
            handed = true;
            break;
        }
        // The room has not noticed the close yet (and frames are rate limited).
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(handed, "the host hands an absent seat");
    // Seat 0's player acts for seat 2 until it has done so a few times
    // (or the location ends).
    let mut steps = 0;
    while party.acted_for < 3 && !party.finished() && steps < 300 {
        party.step().await;
        steps += 1;
    }
    assert!(party.acted_for > 0 || party.finished(), "seat 0's player acted for seat 2");
    // Seat 2 is back and takes its seat back.
    let seq_now = party.players[0].as_ref().unwrap().seqs.last().copied().unwrap();
    let mut back = Player::connect(&addr, &tokens[2], Some(seq_now)).await;
    if !party.finished() {
        back.client.send(json!({"type": "hand", "id": 1, "seat": 2, "to": null})).await;
        let a = back.client.until(|m| (m["type"] == "ack" || m["type"] == "error") && m["id"] == json!(1)).await;
        assert_eq!(a["type"], "ack", "{a}");
        let seq = a["seq"].as_u64().unwrap();
        party.players[2] = Some(back);
        for p in party.players.iter_mut().flatten().chain(party.spectator.as_mut()) {
            p.catch_up(seq).await;
        }
    } else {
        party.players[2] = Some(back);
    }
    // On to the location's end.
    let mut steps = 0;
    while !party.finished() && steps < 3000 {
        party.step().await;
        steps += 1;
    }
    assert!(party.finished(), "the second location ends");

    // On through every location (and forced restart) to the campaign's
    // end, each started by whoever the turn comes to.
    let mut st = party.status().await;
    while st["stage"] != "over" {
        assert_eq!(st["stage"], "between", "{st}");
        assert!(matches.len() < MAX_MATCHES, "the campaign ends within {MAX_MATCHES} locations: {st}");
        party.disconnect_all();
        let by = matches.len() % 3;
        let (status, next) =
            http_auth(&addr, "POST", &format!("/api/campaigns/{campaign_id}/next"), &tokens[by], None).await;
        assert_eq!(status, 201, "{next}");
        matches.push(next["match_id"].as_str().unwrap().to_owned());
        party.connect_all(None).await;
        let mut steps = 0;
        while !party.finished() {
            assert!(party.step().await, "someone can act");
            steps += 1;
            assert!(steps < 5000, "the location ends");
        }
        st = party.status().await;
    }
    party.disconnect_all();
    drop(server);

    // The stored log replays to the stored campaign state.
    let store = match &db {
        Db::Sqlite(dir) => Store::open(None, dir).await.unwrap(),
        Db::Postgres(url) => Store::open(Some(url), std::path::Path::new(".")).await.unwrap(),
    };
    let mut c =
        Divinity::new_campaign(&DivinityOptions { party: Vec::new(), ..DivinityOptions::default() }, 3).unwrap();
    for (seat, o) in BEST_PARTY.iter().enumerate() {
        Divinity::choose(&mut c, seat as Seat, DivinityChoice::Origin((*o).into())).unwrap();
    }
    let mut frames_by_match = Vec::new();
    for match_id in &matches {
        let id = Uuid::parse_str(match_id).unwrap();
        let m = store.get_match(id).await.unwrap().unwrap();
        let options: DivinityOptions = serde_json::from_value(m.options.clone()).unwrap();
        let mut table = Table::<Divinity>::new(Divinity::start(&options, m.seed).unwrap(), 3);
        let mut states = vec![table.state.clone()];
        let log = store.actions_after(id, 0).await.unwrap();
        for (i, a) in log.iter().enumerate() {
            assert_eq!(a.seq, i as u64 + 1, "the log is contiguous");
            table.replay(a).unwrap();
            states.push(table.state.clone());
        }
        for (acked_match, seq) in &party.acked {
            if acked_match == match_id {
                assert!(*seq <= m.seq, "acknowledged {seq} is stored");
            }
        }
        assert!(Divinity::status(&table.state).is_finished());
        c = Divinity::after(&c, &table.state);
        frames_by_match.push((match_id.clone(), states));
    }
    assert_eq!(st["saved"], serde_json::to_value(&c).unwrap(), "stored campaign state = engine replay");
    // Through the Boss to the campaign's end: the Temple's last exit.
    let end = c.saved.as_ref().expect("a campaign state");
    assert!(end.finished, "the campaign is over");
    assert_eq!(end.location, Catalogue::standard().campaign.finale);
    assert_eq!(st["matches"].as_array().unwrap().len(), matches.len());

    // The frame scan: every frame against the hidden things at its seq.
    let mut scanned = 0;
    for (match_id, states) in &frames_by_match {
        let frames: Vec<(u64, String)> = party
            .frames
            .iter()
            .filter(|(m, _)| m == match_id)
            .filter_map(|(_, f)| {
                let v: Value = serde_json::from_str(f).ok()?;
                (v["type"] == "update" || v["type"] == "welcome").then(|| (v["seq"].as_u64().unwrap(), f.clone()))
            })
            .collect();
        scanned += frames.len();
        assert_eq!(leaks(&frames, states), Vec::<String>::new(), "a hidden thing in a frame");
        // Planted leaks: the scan must see each kind.
        let (seq, f) = frames
            .iter()
            .find(|(s, _)| secrets(&states[*s as usize]).len() > 1)
            .expect("a frame with a face-down card");
        let st = &states[*seq as usize];
        let planted = vec![
            (*seq, f.replacen('}', &format!(",\"x\":{}}}", serde_json::to_string(&st.rng).unwrap()), 1)),
            (*seq, f.replacen('}', &format!(",\"x\":\"{}\"}}", secrets(st)[1]), 1)),
        ];
        assert_eq!(leaks(&planted, states).len(), 2, "planted leaks are found");
    }
    assert!(scanned > 100, "the scan saw the campaign's frames ({scanned})");
    // Every location's log, kills and take-backs included, replays to the
    // state hashes its rooms stored.
    let report = db.audit_all();
    for match_id in &matches {
        assert!(report.lines().any(|l| l.starts_with(match_id.as_str()) && l.contains(" ok ")), "{report}");
    }
    // The Warden was met (and, the campaign being over, beaten).
    assert!(
        party.frames.iter().any(|(_, f)| f.contains(r#""kind":"boss","boss":"the_warden""#)),
        "a frame shows the Warden"
    );
    eprintln!(
        "campaign: {} acked actions ({} for a handed seat) over {} locations, outcomes {:?}",
        party.acked.len(),
        party.acted_for,
        matches.len(),
        st["matches"].as_array().unwrap().iter().map(|m| m["outcome"].to_string()).collect::<Vec<_>>()
    );
}

#[tokio::test]
async fn a_divinity_campaign_of_three_survives_kills_on_sqlite() {
    campaign(Db::sqlite("campaign")).await;
}

#[tokio::test]
async fn a_divinity_campaign_of_three_survives_kills_on_postgres() {
    if let Some(db) = Db::postgres("campaign").await {
        campaign(db).await;
    }
}
