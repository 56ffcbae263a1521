//! The clan battle's client side against the real engine: frames built
//! from its views and words drive the screen and the bot.

use athlas_engine::clans::{state::ClansOptions, Clans};
use athlas_engine::{Ruleset, Seat, Status, Viewer};
use athlas_protocol::ServerMsg;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::{json, Value};

use super::screen::Play;
use crate::bot::Bot;
use crate::player::Player;

fn status(s: &<Clans as Ruleset>::State) -> Value {
    match Clans::status(s) {
        Status::Waiting { seats } => json!({"status": "waiting", "seats": seats}),
        Status::Finished(_) => json!({"status": "finished", "result": "over"}),
    }
}

/// A welcome or update frame for `receiver`, with the words of its legal list.
fn frame(s: &<Clans as Ruleset>::State, kind: &str, receiver: Seat, seq: u64, actor: Seat) -> String {
    let view = Clans::view(s, Viewer::Seat(receiver));
    let words = Clans::action_words(s, receiver, &view.legal);
    let legal = if words.is_empty() { json!([]) } else { json!([{"seat": receiver, "words": words}]) };
    let mut f = json!({"type": kind, "seq": seq, "status": status(s), "view": view, "legal": legal});
    if kind == "welcome" {
        f["protocol"] = json!(1);
        f["match_id"] = json!("m");
        f["game"] = json!("clans");
        f["seat"] = json!(receiver);
        f["log"] = json!([]);
    } else {
        f["seat"] = json!(actor);
        f["events"] = json!([]);
    }
    f.to_string()
}

#[test]
fn two_client_bots_finish_a_game_from_the_legal_lists_alone() {
    let mut state = Clans::start(&ClansOptions::default(), 7).unwrap();
    let mut players = [Player::new(), Player::new()];
    let mut bots = [Bot::clans(1), Bot::clans(2)];
    for (s, p) in players.iter_mut().enumerate() {
        p.observe(&frame(&state, "welcome", s as Seat, 0, 0));
    }
    let mut seq = 0;
    while !state.finished() {
        assert!(seq < 20_000, "a game of random legal actions ends");
        let (who, sent) = (0..2)
            .find_map(|s| bots[s].act(&mut players[s]).map(|f| (s, f)))
            .expect("the seat the game waits for has something listed");
        let sent: Value = serde_json::from_str(&sent).unwrap();
        let action = serde_json::from_value(sent["action"].clone()).unwrap();
        Clans::apply(&mut state, who as Seat, action).unwrap_or_else(|e| panic!("refused {sent}: {e:?}"));
        seq += 1;
        players[who].observe(&json!({"type": "ack", "id": sent["id"], "seq": seq}).to_string());
        for (s, p) in players.iter_mut().enumerate() {
            p.observe(&frame(&state, "update", s as Seat, seq, who as Seat));
        }
    }
}

fn msg(text: &str) -> ServerMsg {
    serde_json::from_str(text).unwrap()
}

fn key(c: KeyCode) -> KeyEvent {
    KeyEvent::new(c, KeyModifiers::NONE)
}

fn screen_text(p: &Play) -> String {
    let mut t = ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 40)).unwrap();
    let bar = crate::tui::Bar { match_id: "m", join_code: None, connection: "connected", timer_left: None };
    t.draw(|f| super::draw::draw(f, p, &bar)).unwrap();
    let buf = t.backend().buffer().clone();
    (0..buf.area.height)
        .map(|y| (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_menu_is_the_listed_actions_in_words_and_enter_sends_one_as_listed() {
    let opts = ClansOptions { first_player: Some(0), ..ClansOptions::default() };
    let mut state = Clans::start(&opts, 3).unwrap();
    let mut p = Play::new();
    p.on_msg(msg(&frame(&state, "welcome", 0, 0, 0)));
    let view = Clans::view(&state, Viewer::Seat(0));
    assert_eq!(p.menu.len(), view.legal.len());
    assert!(p.menu[0].text.starts_with("Place your homebase on"), "{}", p.menu[0].text);
    let shown = screen_text(&p);
    assert!(shown.contains("Placement"), "{shown}");
    assert!(shown.contains(" a b c d e f g h i j k l"), "columns lettered as the words name them: {shown}");
    p.on_key(key(KeyCode::Down));
    let sent: Value = serde_json::from_str(&p.on_key(key(KeyCode::Enter)).unwrap()).unwrap();
    assert_eq!(sent["action"], serde_json::to_value(&view.legal[1]).unwrap());
    assert_eq!(p.on_key(key(KeyCode::Enter)), None, "one act in flight at a time");

    // Both place; seat 0's turn: the field shows its God, the words its actions.
    for s in 0..2 {
        let a = Clans::view(&state, Viewer::Seat(s)).legal[0].clone();
        Clans::apply(&mut state, s, a).unwrap();
    }
    p.on_msg(msg(&json!({"type": "ack", "id": sent["id"], "seq": 2}).to_string()));
    p.on_msg(msg(&frame(&state, "update", 0, 2, 1)));
    let shown = screen_text(&p);
    assert!(shown.contains("Turn 1"), "{shown}");
    assert!(p.menu.iter().any(|e| e.text == "End your turn"), "{:?}", p.menu);
}

#[test]
fn a_reveal_is_checked_against_the_commitment_and_a_forged_one_is_flagged() {
    use sha2::{Digest, Sha256};
    let secret =
        json!({"clan": "sacred_cross", "allies": ["sc_archer"], "tactics": [], "homebase": [0, 9], "god": [0, 10]});
    let salt = "00".repeat(32);
    let mut h = Sha256::new();
    h.update([0u8; 32]);
    h.update(crate::games::duel::ending::canonical_json(&secret).as_bytes());
    let hash = hex::encode(h.finalize());
    let mut p = Play::new();
    p.on_msg(msg(&json!({"type": "commitment", "seat": 0, "hash": hash, "seq": 1}).to_string()));
    p.on_msg(msg(&json!({"type": "reveal", "seat": 0, "salt": salt, "secret": secret, "hash": hash}).to_string()));
    assert!(p.reveals[0].ok());
    let mut forged = secret.clone();
    forged["allies"] = json!(["sc_elite"]);
    p.on_msg(msg(&json!({"type": "reveal", "seat": 0, "salt": salt, "secret": forged, "hash": hash}).to_string()));
    assert!(!p.reveals[0].ok());
}

#[test]
fn an_opened_response_window_offers_its_answers_and_the_pass_in_words() {
    use athlas_engine::clans::{bot::RandomBot, content::Catalogue};
    // Random games until one opens a window (an ally with an (OT) ability
    // the opponent can pay for and aim).
    for seed in 0..200 {
        let mut state = Clans::start(&ClansOptions::default(), seed).unwrap();
        let mut bot = RandomBot::new(seed);
        for _ in 0..3_000 {
            let Some(seat) = athlas_engine::clans::bot::seat_to_act(&state) else { break };
            if let Some(w) = state.window.first().copied() {
                let mut p = Play::new();
                p.on_msg(msg(&frame(&state, "welcome", w, 5, seat)));
                assert!(p.my_move());
                assert!(p.menu.iter().any(|e| e.text == "Pass: let the turn go on"), "{:?}", p.menu);
                assert!(p.menu.iter().any(|e| e.group == "respond"), "{:?}", p.menu);
                let shown = screen_text(&p);
                assert!(shown.contains("Response window: answer with an (OT) ability, or pass"), "{shown}");
                return;
            }
            let a = bot.pick(&state, Catalogue::standard(), seat).unwrap();
            Clans::apply(&mut state, seat, a).unwrap();
        }
    }
    panic!("no response window opened in 200 random games");
}
