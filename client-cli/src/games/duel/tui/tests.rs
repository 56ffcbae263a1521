//! The duel's screen inside the UI: frames and keys go through the
//! [`App`], as in a match.

use super::*;
use crate::games::duel::board;
use crate::tui::App;
use ratatui::crossterm::event::KeyModifiers;
use serde_json::json;

/// The UI with a duel's screen, as the tests drive it: frames and keys go
/// through the [`App`]; the duel's state is read and set through `Deref`.
pub(crate) struct Harness {
    pub app: App,
}

impl Harness {
    pub fn new(match_id: &str, join_code: Option<&str>) -> Harness {
        Harness { app: App::new(match_id.into(), join_code.map(Into::into)) }
    }

    pub fn on_frame(&mut self, text: &str) {
        self.app.on_frame(text);
    }

    pub fn on_key(&mut self, key: KeyEvent) -> Option<String> {
        self.app.on_key(key)
    }

    pub fn timer_left(&self) -> Option<u64> {
        self.app.timer_left()
    }
}

impl std::ops::Deref for Harness {
    type Target = Play;

    fn deref(&self) -> &Play {
        self.app.screen.as_deref().and_then(|s| s.as_any().downcast_ref()).expect("the duel's screen is on")
    }
}

impl std::ops::DerefMut for Harness {
    fn deref_mut(&mut self) -> &mut Play {
        self.app.screen.as_deref_mut().and_then(|s| s.as_any_mut().downcast_mut()).expect("the duel's screen is on")
    }
}

fn key(c: KeyCode) -> KeyEvent {
    KeyEvent::new(c, KeyModifiers::NONE)
}

fn welcome() -> String {
    let view = serde_json::to_value(board::tests::small_view()).unwrap();
    json!({"type":"welcome","protocol":1,"match_id":"m1","game":"duel","seat":0,"seq":5,
           "status":{"status":"waiting","seats":[0]},"view":view})
    .to_string()
}

#[test]
fn a_welcome_fills_the_menu_and_enter_sends_the_selection() {
    let mut app = Harness::new("", None);
    app.on_frame(&welcome());
    assert_eq!(app.seat, Some(0));
    assert_eq!(app.app.match_id, "m1");
    let labels: Vec<&str> = app.menu.iter().map(|i| i.label.as_str()).collect();
    // Numbers count from 1, in the order drawn.
    assert_eq!(labels, ["Pass every response window automatically", "End the turn", "Resign"]);
    app.on_key(key(KeyCode::Char('2')));
    let frame: serde_json::Value = serde_json::from_str(&app.on_key(key(KeyCode::Enter)).unwrap()).unwrap();
    assert_eq!(frame, json!({"type":"act","id":1,"action":{"type":"end_turn"}}));
    assert!(app.on_key(key(KeyCode::Enter)).is_none(), "one action at a time");
    app.on_frame(r#"{"type":"error","id":1,"code":"not_your_turn","message":"wait"}"#);
    assert_eq!(app.notice.as_deref(), Some("not_your_turn: wait"));
    assert!(app.on_key(key(KeyCode::Enter)).is_some(), "free again after the refusal");
}

#[test]
fn updates_log_their_events() {
    let mut app = Harness::new("", None);
    app.on_frame(&welcome());
    let view = serde_json::to_value(board::tests::small_view()).unwrap();
    app.on_frame(
        &json!({"type":"update","seq":6,"seat":1,"events":[{"event":"passed","seat":1}],
                         "status":{"status":"waiting","seats":[0]},"view":view})
        .to_string(),
    );
    assert_eq!(app.seq, Some(6));
    assert_eq!(app.log.back().unwrap(), "Seat 1 passed", "described by the engine when the server sends no words");
    app.on_frame(
        &json!({"type":"update","seq":7,"seat":1,"events":[{"event":"passed","seat":1}],"log":["Seat 1 passed, in words"],
                         "status":{"status":"waiting","seats":[0]},"view":view})
        .to_string(),
    );
    assert_eq!(app.log.back().unwrap(), "Seat 1 passed, in words", "the server's words when it sends them");
}

#[test]
fn an_update_without_the_board_keeps_the_one_shown() {
    let mut app = Harness::new("", None);
    app.on_frame(&welcome());
    let board = app.view.as_ref().unwrap().hexes.clone();
    assert!(!board.is_empty());
    let players = app.view.as_ref().unwrap().players.clone();
    assert!(!players.is_empty());
    let mut view = serde_json::to_value(board::tests::small_view()).unwrap();
    view.as_object_mut().unwrap().remove("hexes");
    view.as_object_mut().unwrap().remove("players");
    app.on_frame(
        &json!({"type":"update","seq":6,"seat":1,"events":[],
                "status":{"status":"waiting","seats":[0]},"view":view})
        .to_string(),
    );
    assert_eq!(app.seq, Some(6));
    assert_eq!(app.view.as_ref().unwrap().hexes, board, "the board shown before");
    assert_eq!(app.view.as_ref().unwrap().players, players, "the players shown before");
}

#[test]
fn a_timed_window_counts_down_and_the_next_update_stops_it() {
    let mut app = Harness::new("", None);
    let mut w: serde_json::Value = serde_json::from_str(&welcome()).unwrap();
    w["timer_ms"] = json!(4500);
    app.on_frame(&w.to_string());
    assert_eq!(app.timer_left(), Some(5), "4.5 s left shows as 5");
    let backend = ratatui::backend::TestBackend::new(80, 24);
    let mut term = ratatui::Terminal::new(backend).unwrap();
    term.draw(|f| crate::tui::draw(f, &app.app)).unwrap();
    let screen: String = term.backend().buffer().content().iter().map(|c| c.symbol()).collect();
    assert!(screen.contains("5 s left to answer"), "{screen}");
    // The window closed: an update without a clock.
    let view = board::tests::small_view();
    app.on_frame(&update(1, 6, json!([]), &view));
    assert_eq!(app.timer_left(), None);
}

fn update(seat: u8, seq: u64, events: serde_json::Value, view: &DuelView) -> String {
    json!({"type":"update","seq":seq,"seat":seat,"events":events,
           "status":{"status":"waiting","seats":[0]},"view":view})
    .to_string()
}

fn pick(app: &mut Harness, a: &DuelAction) {
    app.selected = app.menu.iter().position(|i| i.action == *a).unwrap();
}

#[test]
fn resigning_asks_first_and_n_sends_nothing() {
    let mut app = Harness::new("", None);
    app.on_frame(&welcome());
    pick(&mut app, &DuelAction::Resign);
    assert!(app.on_key(key(KeyCode::Enter)).is_none(), "asked, not sent");
    assert!(app.confirm.as_ref().unwrap().0.starts_with("Resign?"));
    assert!(app.on_key(key(KeyCode::Char('x'))).is_none(), "only y or n answers");
    assert!(app.confirm.is_some());
    assert!(app.on_key(key(KeyCode::Char('n'))).is_none());
    assert!(app.confirm.is_none() && app.pending.is_none());
    app.on_key(key(KeyCode::Enter));
    let frame: serde_json::Value = serde_json::from_str(&app.on_key(key(KeyCode::Char('y'))).unwrap()).unwrap();
    assert_eq!(frame["action"], json!({"type":"resign"}));
}

#[test]
fn a_move_into_water_asks_first() {
    let mut app = Harness::new("", None);
    app.on_frame(&welcome());
    let mut v = board::tests::small_view();
    let water = DuelAction::Move { to: athlas_engine::hex::Hex::new(-1, 0), carry_relic: None };
    v.legal = vec![water.clone(), DuelAction::EndActivation];
    app.on_frame(&update(0, 6, json!([]), &v));
    pick(&mut app, &water);
    assert!(app.on_key(key(KeyCode::Enter)).is_none());
    assert!(app.confirm.as_ref().unwrap().0.contains("drowns"));
    assert!(app.on_key(key(KeyCode::Char('y'))).is_some());
}

#[test]
fn the_selection_stays_on_its_action_when_the_opponent_changes_the_menu() {
    let mut app = Harness::new("", None);
    app.on_frame(&welcome());
    let mut v = board::tests::small_view();
    v.legal = vec![DuelAction::Activate { unit: 1 }, DuelAction::EndTurn];
    app.on_frame(&update(1, 6, json!([]), &v));
    pick(&mut app, &DuelAction::EndTurn);
    // The opponent's action adds an entry above the selection.
    v.legal = vec![DuelAction::Activate { unit: 1 }, DuelAction::Activate { unit: 2 }, DuelAction::EndTurn];
    app.on_frame(&update(1, 7, json!([]), &v));
    assert_eq!(app.menu[app.selected].action, DuelAction::EndTurn, "the same action, at its new number");
    let frame: serde_json::Value = serde_json::from_str(&app.on_key(key(KeyCode::Enter)).unwrap()).unwrap();
    assert_eq!(frame["action"], json!({"type":"end_turn"}));
}

#[test]
fn a_new_turn_starts_at_the_top_of_the_menu_and_holds_the_first_enter() {
    let mut app = Harness::new("", None);
    app.on_frame(&welcome());
    let mut v = board::tests::small_view();
    v.legal = vec![DuelAction::EndTurn];
    app.on_frame(&update(1, 6, json!([]), &v));
    pick(&mut app, &DuelAction::Resign);
    v.turn += 1;
    v.legal = vec![DuelAction::Activate { unit: 1 }, DuelAction::EndTurn];
    app.on_frame(&update(1, 7, json!([]), &v));
    assert_eq!(app.selected, 0, "a new turn starts at the top");
    assert!(app.on_key(key(KeyCode::Enter)).is_none(), "the selection moved: look first");
    assert!(app.on_key(key(KeyCode::Enter)).is_some());
}

#[test]
fn enter_after_the_picked_action_vanished_or_mid_number_is_held_back() {
    let mut app = Harness::new("", None);
    app.on_frame(&welcome());
    let mut v = board::tests::small_view();
    v.legal = vec![DuelAction::Activate { unit: 1 }, DuelAction::EndTurn];
    app.on_frame(&update(1, 6, json!([]), &v));
    pick(&mut app, &DuelAction::Activate { unit: 1 });
    v.legal = vec![DuelAction::Pass];
    app.on_frame(&update(1, 7, json!([]), &v));
    assert!(app.on_key(key(KeyCode::Enter)).is_none(), "the picked action is gone: look first");
    assert!(app.notice.as_deref().unwrap().contains("changed"));
    assert!(app.on_key(key(KeyCode::Enter)).is_some(), "a second Enter sends what is shown");
    // A number half typed when the menu changes does not carry over.
    app.on_frame(r#"{"type":"ack","id":1,"seq":8}"#);
    app.on_key(key(KeyCode::Char('1')));
    v.legal = vec![DuelAction::EndTurn, DuelAction::Pass];
    app.on_frame(&update(1, 9, json!([]), &v));
    assert!(app.number.is_empty());
    assert!(app.on_key(key(KeyCode::Enter)).is_none());
    // The player's own actions change the menu as expected: no hold.
    v.legal = vec![DuelAction::EndTurn];
    app.on_frame(&update(0, 10, json!([]), &v));
    assert!(app.on_key(key(KeyCode::Enter)).is_some());
}

#[test]
fn the_end_screen_opens_with_the_reason_and_checks_the_reveals() {
    use sha2::{Digest, Sha256};
    let mut app = Harness::new("", None);
    app.on_frame(&welcome());
    let secret = json!({"alphas":[{"cards":["forsaken_drake"]}],"di_stack":["flood"]});
    let mut h = Sha256::new();
    h.update([7u8]);
    h.update(ending::canonical_json(&secret).as_bytes());
    let hash = hex::encode(h.finalize());
    app.on_frame(&json!({"type":"commitment","seat":1,"hash":hash,"seq":2}).to_string());
    let mut v = board::tests::small_view();
    v.phase = Phase::Finished { outcome: athlas_engine::Outcome::Win { seat: 0 } };
    v.legal.clear();
    app.on_frame(&update(1, 9, json!([{"event":"game_over","outcome":{"result":"win","seat":0}}]), &v));
    assert_eq!(app.screen, Screen::End);
    assert_eq!(app.end_reason.as_deref(), Some("seat 1 resigned"));
    app.on_frame(&json!({"type":"reveal","seat":1,"salt":"07","secret":secret,"hash":hash}).to_string());
    assert_eq!(app.reveals[0].matches_commitment, Some(true));
    assert!(app.reveals[0].hash_ok);
    app.on_frame(&json!({"type":"reveal","seat":0,"salt":"08","secret":secret,"hash":hash}).to_string());
    assert!(!app.reveals[0].hash_ok, "a wrong salt does not check");
    assert!(app.log.back().unwrap().contains("NOT"));
    app.on_key(key(KeyCode::Char('e')));
    assert_eq!(app.screen, Screen::Play, "e shows the board again");
}

#[test]
fn the_creation_screen_opens_while_creating() {
    let mut app = Harness::new("", None);
    app.on_frame(&welcome());
    let mut v = board::tests::small_view();
    v.phase = Phase::Creation;
    v.players[0].locked = false;
    let frame = json!({"type":"welcome","protocol":1,"match_id":"m","game":"duel","seat":0,"seq":0,
                       "status":{"status":"waiting","seats":[0,1]},"view":v});
    app.on_frame(&frame.to_string());
    assert_eq!(app.screen, Screen::Create);
    assert_eq!(app.draft.as_ref().unwrap().alphas.len(), 3);
    assert!(app.on_key(key(KeyCode::Char('L'))).is_none(), "an empty draft is not locked in");
    assert!(app.notice.as_deref().unwrap().contains("genus"));
    app.on_frame(r#"{"type":"error","id":9,"code":"alpha_count","message":"create exactly 4 Alphas"}"#);
    assert_eq!(app.draft.as_ref().unwrap().alphas.len(), 4);
    app.on_key(key(KeyCode::Tab));
    assert_eq!(app.screen, Screen::Play);
}
