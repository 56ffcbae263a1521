//! The Divinity screen against real engine frames ([`fixtures`]): what it
//! shows at 80×24, what Enter, `t` and `?` do, and that the selection stays
//! put when someone else changes the menu.

use athlas_engine::divinity::{state::Phase, Divinity, DivinityAction};
use athlas_engine::Ruleset;
use ratatui::{backend::TestBackend, crossterm::event::KeyModifiers, Terminal};
use serde_json::{json, Value};

use super::fixtures::Played;
use super::*;
use crate::tui::App;

fn key(c: KeyCode) -> KeyEvent {
    KeyEvent::new(c, KeyModifiers::NONE)
}

fn app() -> App {
    let mut app = App::new(String::new(), None);
    app.connection = "connected".into();
    app
}

/// The screen as text, one string per row.
fn screen(app: &App) -> Vec<String> {
    let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
    term.draw(|f| crate::tui::draw(f, app)).unwrap();
    let buf = term.backend().buffer();
    (0..24).map(|y| (0..80).map(|x| buf[(x, y)].symbol()).collect::<String>()).collect()
}

fn shows(rows: &[String], what: &str) -> bool {
    rows.iter().any(|r| r.contains(what))
}

fn play(app: &App) -> &Play {
    app.screen.as_deref().and_then(|s| s.as_any().downcast_ref::<Play>()).expect("the Divinity screen is on")
}

fn labels(app: &App) -> Vec<String> {
    play(app).menu.iter().map(|e| e.label.clone()).collect()
}

fn sent(frame: Option<String>) -> Value {
    serde_json::from_str(&frame.expect("a frame is sent")).unwrap()
}

#[test]
fn a_divinity_welcome_opens_the_divinity_screen_with_the_party_decision() {
    let g = Played::new(&["ifan", "sebille"], 7);
    let mut app = app();
    app.on_frame(&g.welcome(1));
    assert_eq!(app.seat, Some(1));
    assert_eq!(labels(&app)[..2], ["Explore this round", "Rest this round"]);
    assert!(labels(&app).contains(&"Give Rusty Dagger to Ifan".to_owned()), "{:?}", labels(&app));
    let rows = screen(&app);
    assert!(shows(&rows, "The Merryweather"), "{rows:#?}");
    assert!(shows(&rows, "Between rounds: the party picks Explore or Rest"), "{rows:#?}");
    assert!(shows(&rows, "waiting for: Ifan, YOU (Sebille)"), "{rows:#?}");
    assert!(shows(&rows, " 1. Explore this round"), "{rows:#?}");
    assert!(shows(&rows, " Ifan      HP24/24"), "figure HP: {rows:#?}");
    assert!(shows(&rows, "time 1/12 · gold 0 · level 1 · seat 1 ●"), "{rows:#?}");
    // The spaces with their paths: the Deck leads to the Galley.
    assert!(rows.iter().any(|r| r.contains(" 1 Deck") && r.contains('→')), "{rows:#?}");
    assert!(rows.iter().all(|r| r.chars().count() == 80));
}

#[test]
fn enter_sends_the_selected_legal_action_and_waits_for_its_answer() {
    let g = Played::new(&["ifan", "sebille"], 7);
    let mut app = app();
    app.on_frame(&g.welcome(0));
    app.on_key(key(KeyCode::Down));
    let frame = sent(app.on_key(key(KeyCode::Enter)));
    assert_eq!(frame, json!({"type":"act","id":1,"action":{"type":"choose_round","explore":false}}));
    assert!(app.on_key(key(KeyCode::Enter)).is_none(), "one action at a time");
    app.on_frame(r#"{"type":"error","id":1,"code":"not_leader","message":"the party set another leader"}"#);
    assert!(shows(&screen(&app), "✗ not_leader: the party set another leader"), "the refusal on the status line");
    assert_eq!(sent(app.on_key(key(KeyCode::Char('1'))).or_else(|| app.on_key(key(KeyCode::Enter))))["id"], 2);
}

#[test]
fn a_handed_seat_gets_its_own_part_of_the_menu_and_acts_with_seat() {
    let mut g = Played::new(&["ifan", "sebille"], 7);
    g.apply(0, DivinityAction::ChooseRound { explore: true });
    g.control = Some(vec![None, Some(0)]);
    let mut app = app();
    app.on_frame(&g.welcome(0));
    let p = play(&app);
    assert_eq!(p.handed(), [1]);
    let first_handed = p.menu.iter().position(|e| e.seat == 1).expect("Sebille's actions are offered");
    assert!(p.menu[..first_handed].iter().all(|e| e.seat == 0), "own actions first");
    let rows = screen(&app);
    assert!(shows(&rows, "── Sebille (handed to you) ──"), "{rows:#?}");
    assert!(shows(&rows, "Sebille (handed to you)"), "{rows:#?}");
    app.on_key(key(KeyCode::End));
    let frame = sent(app.on_key(key(KeyCode::Enter)));
    assert_eq!(frame["seat"], 1);
    assert_eq!(frame["action"], play(&app).menu.last().unwrap().action);
    // Own actions go without `seat`.
    app.on_frame(r#"{"type":"ack","id":1,"seq":2}"#);
    app.on_key(key(KeyCode::Home));
    assert!(sent(app.on_key(key(KeyCode::Enter))).get("seat").is_none());
}

#[test]
fn the_selection_stays_on_its_action_when_another_seat_changes_the_menu() {
    let mut g = Played::new(&["ifan", "sebille"], 7);
    g.apply(0, DivinityAction::ChooseRound { explore: true });
    let mut app = app();
    app.on_frame(&g.welcome(1));
    let stay = play(&app).menu.iter().position(|e| e.label == "Stay where you are").unwrap();
    app.on_key(key(KeyCode::End));
    let picked = play(&app).menu[play(&app).selected].clone();
    assert_ne!(stay, play(&app).selected);
    // Ifan travels: Sebille's menu is rebuilt under the selection.
    let (seat, events) = {
        let to = Divinity::legal(&g.state, 0)[0].clone();
        (0, g.apply(0, to))
    };
    app.on_frame(&g.update(seat, &events, 1, None));
    let p = play(&app);
    assert_eq!(p.menu[p.selected].action, picked.action, "the same action stays selected");
    assert!(!p.stale, "it is still there: Enter sends it");
    assert_eq!(sent(app.on_key(key(KeyCode::Enter)))["action"], picked.action);
}

#[test]
fn enter_after_the_picked_action_vanished_is_held_back_once() {
    let mut g = Played::new(&["ifan", "sebille"], 7);
    let mut app = app();
    app.on_frame(&g.welcome(1));
    app.on_key(key(KeyCode::Down));
    // Ifan answers the party decision first: the choice is gone.
    let events = g.apply(0, DivinityAction::ChooseRound { explore: true });
    app.on_frame(&g.update(0, &events, 1, None));
    assert!(play(&app).stale);
    assert!(app.on_key(key(KeyCode::Enter)).is_none(), "look first");
    assert!(shows(&screen(&app), "the actions just changed"));
    assert!(app.on_key(key(KeyCode::Enter)).is_some(), "the second Enter sends what is shown");
}

#[test]
fn t_takes_back_after_a_yes_and_not_after_a_no() {
    let g = Played::new(&["ifan", "sebille"], 7);
    let mut app = app();
    app.on_frame(&g.welcome(0));
    assert!(app.on_key(key(KeyCode::Char('t'))).is_none());
    assert!(shows(&screen(&app), "Take back your last action? y / n"));
    assert!(app.on_key(key(KeyCode::Char('x'))).is_none(), "only y or n answers");
    assert!(app.on_key(key(KeyCode::Char('n'))).is_none());
    assert!(!play(&app).confirm_take_back && play(&app).pending.is_none());
    app.on_key(key(KeyCode::Char('t')));
    assert_eq!(sent(app.on_key(key(KeyCode::Char('y')))), json!({"type":"take_back","id":1}));
    app.on_frame(r#"{"type":"error","id":1,"code":"revealed","message":"a die was rolled"}"#);
    assert_eq!(play(&app).notice.as_deref(), Some("✗ revealed: a die was rolled"));
}

#[test]
fn h_hands_a_seat_to_a_player_and_back_to_its_owner() {
    let g = Played::new(&["ifan", "sebille", "lohse"], 7);
    let mut app = app();
    app.on_frame(&g.welcome(0));
    // Own seat (Enter) to seat 2.
    assert!(app.on_key(key(KeyCode::Char('h'))).is_none());
    assert!(shows(&screen(&app), "Hand which seat? 0-2"), "{:#?}", screen(&app));
    assert!(app.on_key(key(KeyCode::Enter)).is_none());
    assert!(shows(&screen(&app), "Hand Ifan to seat? 0-2 · o: back to its owner"), "{:#?}", screen(&app));
    assert!(app.on_key(key(KeyCode::Char('7'))).is_none(), "no seat 7");
    assert_eq!(play(&app).hand, Some(HandStep::To(0)), "still asking");
    assert_eq!(sent(app.on_key(key(KeyCode::Char('2')))), json!({"type":"hand","id":1,"seat":0,"to":2}));
    assert_eq!(play(&app).hand, None);
    // Seat 1 back to its owner, with `o` and by naming the seat itself.
    app.on_frame(r#"{"type":"ack","id":1,"seq":1}"#);
    app.on_key(key(KeyCode::Char('h')));
    app.on_key(key(KeyCode::Char('1')));
    assert_eq!(sent(app.on_key(key(KeyCode::Char('o')))), json!({"type":"hand","id":2,"seat":1,"to":null}));
    app.on_frame(r#"{"type":"error","id":2,"code":"cannot_hand","message":"seat 1's player is here"}"#);
    app.on_key(key(KeyCode::Char('h')));
    app.on_key(key(KeyCode::Char('1')));
    assert_eq!(sent(app.on_key(key(KeyCode::Char('1')))), json!({"type":"hand","id":3,"seat":1,"to":null}));
    // Esc gives up without a frame.
    app.on_frame(r#"{"type":"ack","id":3,"seq":2}"#);
    app.on_key(key(KeyCode::Char('h')));
    assert!(app.on_key(key(KeyCode::Esc)).is_none());
    assert_eq!((play(&app).hand, play(&app).notice.as_deref()), (None, Some("no hand-over")));
}

#[test]
fn a_hand_over_and_its_return_are_logged_in_words() {
    let mut g = Played::new(&["ifan", "sebille"], 7);
    let mut app = app();
    app.on_frame(&g.welcome(1));
    g.seq += 1;
    g.control = Some(vec![Some(1), None]);
    app.on_frame(&g.update(0, &[], 1, None));
    assert_eq!(play(&app).log.back().unwrap(), "⇄ Ifan is played by Sebille's player");
    g.seq += 1;
    g.control = Some(vec![None, None]);
    app.on_frame(&g.update(0, &[], 1, None));
    assert_eq!(play(&app).log.back().unwrap(), "⇄ Ifan is back with its own player");
    let logged = play(&app).log.len();
    g.seq += 1;
    app.on_frame(&g.update(0, &[], 1, None));
    assert_eq!(play(&app).log.len(), logged, "an unchanged control says nothing");
}

#[test]
fn a_take_back_update_is_logged_in_words() {
    let mut g = Played::new(&["ifan", "sebille"], 7);
    let mut app = app();
    app.on_frame(&g.welcome(1));
    g.seq += 1;
    let mut u: Value = serde_json::from_str(&g.update(0, &[], 1, None)).unwrap();
    u["taken_back"] = json!(1);
    app.on_frame(&u.to_string());
    assert_eq!(play(&app).log.back().unwrap(), "↶ Ifan took back move 1");
}

#[test]
fn combat_shows_enemies_with_hp_and_dice_in_words() {
    let mut g = Played::new(&["ifan", "sebille"], 4);
    let mut app = app();
    app.on_frame(&g.welcome(0));
    let (seat, events) = g.play_until(|s| !s.enemies.is_empty() && matches!(s.phase, Phase::Combat { .. }));
    app.on_frame(&g.update(seat, &events, 0, None));
    let rows = screen(&app);
    let t = play(&app).table.as_ref().unwrap();
    let names = play(&app).names();
    assert!(!t.enemies.is_empty());
    for e in t.enemies.iter() {
        let line = format!("☠{} HP{}/{}", names.enemy_name(e), e.hp, e.max_hp);
        assert!(shows(&rows, &line), "{line}: {rows:#?}");
    }
    // A roll in the log and in the decision line once someone rolls.
    let (seat, events) = g.play_until(|s| s.pending_roll().is_some() || s.enemy_roll().is_some());
    app.on_frame(&g.update(seat, &events, 0, None));
    assert!(play(&app).last_roll.as_deref().is_some_and(|r| r.contains(" rolls ")), "{:?}", play(&app).log);
    let rows = screen(&app);
    assert!(shows(&rows, "rolled 1:"), "the dice numbered as the rerolls name them: {rows:#?}");
}

#[test]
fn every_legal_action_of_a_long_random_match_has_words() {
    // Whatever the engine lists, the menu says it in words (never raw JSON).
    let mut g = Played::new(&["ifan", "sebille", "red_prince"], 11);
    for _ in 0..400 {
        if g.waiting().is_empty() {
            break;
        }
        let mut app = app();
        let seat = g.waiting()[0];
        app.on_frame(&g.welcome(seat));
        for e in &play(&app).menu {
            assert!(!e.label.starts_with('{'), "no words for {}", e.action);
        }
        assert!(!play(&app).log.iter().any(|l| l.starts_with('!')), "{:?}", play(&app).log);
        g.step();
    }
    assert!(g.seq >= 100, "the match went on long enough to see much: {}", g.seq);
}

#[test]
fn help_explains_the_keys_and_the_round() {
    let g = Played::new(&["ifan", "sebille"], 7);
    let mut app = app();
    app.on_frame(&g.welcome(0));
    app.on_key(key(KeyCode::Char('?')));
    let rows = screen(&app);
    assert!(shows(&rows, "take back your own last action"), "{rows:#?}");
    assert!(shows(&rows, "Explore: 1 each Origin travels"), "{rows:#?}");
    app.on_key(key(KeyCode::Char('x')));
    assert!(!play(&app).help);
}

#[test]
fn tab_shows_the_own_sheet_with_skills_equipment_and_backpack() {
    let g = Played::new(&["ifan", "sebille"], 7);
    let mut app = app();
    app.on_frame(&g.welcome(0));
    app.on_key(key(KeyCode::Tab));
    let rows = screen(&app);
    assert!(shows(&rows, "Ifan (seat 0)"), "{rows:#?}");
    assert!(shows(&rows, "Hand: Ricochet"), "{rows:#?}");
    assert!(shows(&rows, "Equipped: Short Bow"), "{rows:#?}");
    assert!(shows(&rows, "Backpack (0/3)"), "{rows:#?}");
    app.on_key(key(KeyCode::Right));
    assert!(shows(&screen(&app), "Sebille (seat 1)"));
}

/// Prints the screen at two moments (`cargo test -- --nocapture`) so a
/// person can read it; it checks the same parts as the others.
#[test]
fn print_the_screen() {
    let mut g = Played::new(&["ifan", "sebille"], 4);
    let mut app = app();
    app.on_frame(&g.welcome(0));
    let (seat, events) =
        g.play_until(|s| !s.enemies.is_empty() && matches!(s.phase, Phase::Combat { active: Some(0), .. }));
    app.on_frame(&g.update(seat, &events, 0, None));
    let rows = screen(&app);
    println!("{}", rows.join("\n"));
    assert!(shows(&rows, "Combat: Ifan's turn"), "{rows:#?}");
    assert!(shows(&rows, " 1. Move to"), "{rows:#?}");
    assert_eq!(labels(&app).last().map(String::as_str), Some("End the turn"), "ending the turn comes last");
    app.on_key(key(KeyCode::Tab));
    let rows = screen(&app);
    println!("{}", rows.join("\n"));
    assert!(shows(&rows, "Hand: "), "{rows:#?}");
    app.on_key(key(KeyCode::Tab));
    app.on_key(key(KeyCode::Tab));
    let (seat, events) = g.play_until(|s| s.pending_roll().is_some() || s.enemy_roll().is_some());
    app.on_frame(&g.update(seat, &events, 0, None));
    let rows = screen(&app);
    println!("{}", rows.join("\n"));
    assert!(shows(&rows, "rolled"), "{rows:#?}");
}

#[test]
fn a_party_of_four_in_combat_still_shows_every_figure_at_80x24() {
    let mut g = Played::new(&["ifan", "sebille", "red_prince", "fane"], 5);
    let mut app = app();
    app.on_frame(&g.welcome(2));
    let (seat, events) = g.play_until(|s| s.enemies.len() >= 2 && matches!(s.phase, Phase::Combat { .. }));
    app.on_frame(&g.update(seat, &events, 2, None));
    let rows = screen(&app);
    println!("{}", rows.join("\n"));
    let p = play(&app);
    let t = p.table.as_ref().unwrap();
    for (s, o) in t.origins.iter().enumerate() {
        let name = p.names().origin_of_seat(s as u8);
        assert!(shows(&rows, &format!("{name:<9} HP{:>2}", o.hp)), "{name}: {rows:#?}");
    }
    for e in t.enemies.iter() {
        assert!(shows(&rows, &format!("☠{} HP{}", p.names().enemy_name(e), e.hp)), "{rows:#?}");
    }
}

/// The table's talk reaches the log in words: a proposal with who agreed
/// and who is still awaited, an objection, and a chat line by its
/// speaker's Origin.
#[test]
fn proposals_and_chat_are_told_in_the_log() {
    let g = Played::new(&["ifan", "sebille"], 7);
    let mut app = app();
    app.on_frame(&g.welcome(1));
    app.on_frame(r#"{"type":"proposal","by":0,"seat":0,"action":{"type":"choose_round","explore":true},"words":{"text":"Explore this round","group":"party"},"agreed":[0],"waiting":[1],"seq":0}"#);
    app.on_frame(r#"{"type":"proposal","by":0,"seat":0,"action":{"type":"choose_round","explore":true},"agreed":[0],"waiting":[1],"withdrawn":1,"seq":0}"#);
    app.on_frame(r#"{"type":"chat","n":1,"channel":"party","seat":1,"text":"rest first, I'm hurt","at":0}"#);
    let log: Vec<&String> = play(&app).log.iter().rev().take(3).collect();
    assert_eq!(log[2], "? Ifan proposes: Explore this round (1 agreed; waiting for Sebille)");
    assert_eq!(log[1], "✗ Sebille objects: a decision is off");
    assert_eq!(log[0], "💬 Sebille: rest first, I'm hurt");
}

/// An update whose location and ending did not change comes without the
/// board and the front (`Ruleset::board_key`): the table keeps the ones
/// it had, so the screen still shows the spaces and the location's name.
/// Once over, the update carries the front telling how it ended.
#[test]
fn an_update_without_the_board_and_front_keeps_the_ones_shown() {
    let mut g = Played::new(&["ifan", "sebille"], 7);
    let mut app = app();
    app.on_frame(&g.welcome(1));
    let whole = play(&app).table.clone().expect("the welcome's table");
    assert!(whole.board.is_some() && whole.front.is_some());
    let events = g.apply(0, DivinityAction::ChooseRound { explore: true });
    let update = g.update(0, &events, 1, None);
    let frame: Value = serde_json::from_str(&update).unwrap();
    assert!(frame["view"].get("board").is_none() && frame["view"].get("front").is_none(), "{frame}");
    app.on_frame(&update);
    let t = play(&app).table.as_ref().expect("the update's table");
    assert_eq!((t.round, &t.phase), (g.state.round, &g.state.phase), "the update's own fields");
    assert_eq!((&t.board, &t.front), (&whole.board, &whole.front), "kept from the welcome");
    let rows = screen(&app);
    assert!(rows.iter().any(|r| r.contains(" 1 Deck") && r.contains('→')), "{rows:#?}");

    // The location ends: its front changes, and comes with the update.
    let (seat, events) = g.play_until(|s| matches!(s.phase, Phase::Finished { .. } | Phase::Interlude(_)));
    app.on_frame(&g.update(seat, &events, 1, None));
    let t = play(&app).table.as_ref().unwrap();
    let front = t.front.as_ref().expect("a front");
    assert!(front.outcome.is_some(), "the front tells how it ended: {front:?}");
    assert_eq!(t.board, whole.board, "the same location's board");
}
