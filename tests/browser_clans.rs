//! The clan battle in real headless Chromium, two against two: four players
//! create and join a game through the lobby and its link, place their
//! homebases and Gods by clicking the battlefield, and play by clicking
//! what each page highlights (a figure, then a highlighted tile; a card of
//! the hand, then a tile; a button of the response window or the turn) until
//! a God falls; a spectator follows; a reload mid-game resumes. Which of the
//! offered actions a player takes is chosen by a small plan below from the
//! view the page received (never sent by the test: every action goes
//! through the page's own controls). At every few steps no page shows,
//! and no page's frames hold, another player's unplayed card.

mod support;
mod webdriver;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use athlas_engine::clans::content::Catalogue;
use serde_json::{json, Value};
use support::Db;
use webdriver::{scenario, Browser, Scene};

/// The frames this page received since its latest welcome.
async fn frames_since_welcome(p: &Browser) -> Vec<Value> {
    let all: Vec<Value> = p.ws_frames_tail(80).await.iter().filter_map(|f| serde_json::from_str(f).ok()).collect();
    let start = all.iter().rposition(|f| f["type"] == "welcome").unwrap_or(0);
    all[start..].to_vec()
}

/// The page's current frame: the welcome or update of the seq it shows.
async fn current(p: &Browser) -> Option<Value> {
    let seq = p.match_seq().await;
    let frames = frames_since_welcome(p).await;
    frames
        .iter()
        .rev()
        .find(|f| {
            (f["type"] == "update" || f["type"] == "welcome") && f["seq"].as_i64() == Some(seq) && f["view"].is_object()
        })
        .cloned()
}

fn pos(v: &Value) -> (i64, i64) {
    (v[0].as_i64().unwrap_or(0), v[1].as_i64().unwrap_or(0))
}
fn dist(a: (i64, i64), b: (i64, i64)) -> i64 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}

/// What this player presses now: a plan that rushes the enemy Gods, from
/// the view's legal list only. Placement: the homebase on the back row, the
/// God in front of it. A response window: answer when it can, else pass.
/// A turn: strike a God, else strike anything, else equip, summon (up to
/// four figures), walk toward the nearest enemy God, else end the turn.
fn plan(view: &Value) -> Option<Value> {
    let legal = view["legal"].as_array()?;
    if legal.is_empty() {
        return None;
    }
    let me = view["viewer"]["seat"].as_i64()?;
    let half = view["height"].as_i64()? / 2;
    let of = |t: &'static str| legal.iter().filter(move |a| a["type"] == t);
    if view["phase"]["phase"] == "placement" {
        // Farthest from the middle line, then the God toward it.
        return of("place")
            .max_by_key(|a| {
                let hb = pos(&a["homebase"]);
                let god = pos(&a["god"]);
                ((hb.1 * 2 + 1 - half * 2).abs() * 10, -(god.1 * 2 + 1 - half * 2).abs(), -hb.0)
            })
            .cloned();
    }
    let figures = view["figures"].as_array().cloned().unwrap_or_default();
    let fig = |id: &Value| figures.iter().find(|f| f["id"] == *id).cloned();
    let team = |seat: i64| seat % 2;
    let is_god = |f: &Value| f["card"].as_str().is_some_and(|c| c.ends_with("_god"));
    if let Some(a) = of("respond").next() {
        return Some(a.clone());
    }
    if let Some(p) = of("pass").next() {
        return Some(p.clone());
    }
    let enemy = |a: &Value| fig(&a["target"]).filter(|t| team(t["owner"].as_i64().unwrap()) != team(me));
    let strikes: Vec<&Value> =
        legal.iter().filter(|a| (a["type"] == "attack" || a["type"] == "ability") && enemy(a).is_some()).collect();
    if let Some(a) = strikes.iter().find(|a| enemy(a).is_some_and(|t| is_god(&t))) {
        return Some((*a).clone());
    }
    if let Some(a) = strikes.iter().min_by_key(|a| enemy(a).map(|t| t["hp"].as_i64().unwrap_or(99)).unwrap_or(99)) {
        return Some((*a).clone());
    }
    if let Some(a) = of("equip").next() {
        return Some(a.clone());
    }
    let mine = figures.iter().filter(|f| f["owner"] == me).count();
    if mine < 4 {
        if let Some(a) = of("summon").next() {
            return Some(a.clone());
        }
    }
    let gods: Vec<(i64, i64)> = figures
        .iter()
        .filter(|f| is_god(f) && team(f["owner"].as_i64().unwrap()) != team(me))
        .map(|f| pos(&f["pos"]))
        .collect();
    let near = |p: (i64, i64)| gods.iter().map(|g| dist(*g, p)).min().unwrap_or(0);
    let best = of("move")
        .filter_map(|a| {
            let f = fig(&a["figure"])?;
            if f["steps_used"].as_i64() != Some(0) {
                return None;
            }
            let gain = near(pos(&f["pos"])) - near(pos(&a["to"]));
            (gain > 0).then_some((gain, a))
        })
        .max_by_key(|(g, _)| *g);
    if let Some((_, a)) = best {
        return Some(a.clone());
    }
    of("end_turn").next().cloned()
}

/// Mark the control whose `data-action` is `want` (keys in any order)
/// inside `scope` with `data-pick`; true when found.
const MARK: &str = r#"
const [want, scope] = arguments;
const canon = (v) => Array.isArray(v) ? v.map(canon)
  : (v && typeof v === 'object') ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])])) : v;
const key = JSON.stringify(canon(want));
document.querySelectorAll('[data-pick]').forEach((e) => e.removeAttribute('data-pick'));
const b = [...document.querySelectorAll(scope)].find((e) => { try { return JSON.stringify(canon(JSON.parse(e.dataset.action))) === key; } catch { return false; } });
if (!b) return false;
b.setAttribute('data-pick', 'yes');
return true;
"#;

fn tile(p: &Value) -> String {
    format!("[data-test=tile][data-x='{}'][data-y='{}']", p[0], p[1])
}

/// Press, as a person would, the controls that send `a`: a figure or a
/// hand card, then a highlighted tile (and the choice, when several
/// actions aim there); a button for the rest.
async fn press(p: &Browser, view: &Value, a: &Value) {
    if p.exists("[data-test=cancel-mode]").await {
        p.click("[data-test=cancel-mode]").await;
    }
    let figure_at =
        |id: &Value| view["figures"].as_array().unwrap().iter().find(|f| f["id"] == *id).map(|f| f["pos"].clone());
    let t = a["type"].as_str().unwrap();
    let target = match t {
        "place" => {
            p.click(&format!("{}[data-hot~=homebase]", tile(&a["homebase"]))).await;
            Some(a["god"].clone())
        }
        "move" | "attack" | "ability" | "respond" => {
            p.click(&format!("{}[data-hot~=select]", tile(&figure_at(&a["figure"]).unwrap()))).await;
            if t == "move" {
                Some(a["to"].clone())
            } else {
                figure_at(&a["target"])
            }
        }
        "summon" | "equip" | "item" | "runic_art" => {
            p.click(&format!("[data-test=card-play][data-card={}]", a["card"].as_str().unwrap())).await;
            match t {
                "summon" => Some(a["at"].clone()),
                "equip" => figure_at(&a["figure"]),
                _ => figure_at(&a["target"]),
            }
        }
        _ => None,
    };
    match target {
        Some(at) => {
            let sel = tile(&at);
            p.wait(&format!("{sel}[data-hot]")).await;
            p.click(&sel).await;
            // Several actions aim at that tile: the chooser offers them.
            let js = "return document.querySelector('[data-test=choices]') ? 'choose' : 'done';";
            if p.client().execute(js, vec![]).await.unwrap() == json!("choose") {
                let found = p.client().execute(MARK, vec![a.clone(), json!("[data-test=choice]")]).await.unwrap();
                assert_eq!(found, json!(true), "{}: the chooser offers {a}", p.name);
                p.click("[data-pick=yes]").await;
            }
        }
        None => {
            let found = p.client().execute(MARK, vec![a.clone(), json!("[data-test=action]")]).await.unwrap();
            assert_eq!(found, json!(true), "{}: a button sends {a}", p.name);
            p.click("[data-pick=yes]").await;
        }
    }
}

/// Every card id the public record names: the spectator's frames' events
/// and the figures (and their equipment) of its views.
fn played(frames: &[Value]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for f in frames {
        for e in f["events"].as_array().into_iter().flatten() {
            if let Some(c) = e["card"].as_str() {
                out.insert(c.to_owned());
            }
        }
        for fig in f["view"]["figures"].as_array().into_iter().flatten() {
            for k in ["card", "equipment"] {
                if let Some(c) = fig[k].as_str() {
                    out.insert(c.to_owned());
                }
            }
        }
    }
    out
}

/// No page shows, and no page's frames hold, a card another player has not
/// played: for each page, the unplayed cards (ids and names) of every other
/// seat of another clan (the page's own hand holds its clan's names), the
/// cards nobody has played for the spectator.
async fn no_secret_leaks(players: &[&Browser], clans: &[&str], spectator: &Browser) {
    let cat = Catalogue::standard();
    let public: Vec<Value> = spectator.ws_frames().await.iter().filter_map(|f| serde_json::from_str(f).ok()).collect();
    let shown = played(&public);
    let mut hands: Vec<BTreeSet<String>> = Vec::new();
    for p in players {
        let f = current(p).await.expect("a frame");
        let hand = &f["view"]["hand"];
        let ids = ["allies", "tactics"]
            .iter()
            .flat_map(|k| hand[*k].as_array().cloned().unwrap_or_default())
            .filter_map(|c| c.as_str().map(str::to_owned))
            .filter(|c| !shown.contains(c))
            .collect();
        hands.push(ids);
    }
    let mut pages: Vec<(&Browser, Option<usize>)> = players.iter().enumerate().map(|(s, p)| (*p, Some(s))).collect();
    pages.push((spectator, None));
    for (page, seat) in pages {
        let secret: BTreeSet<&String> = hands
            .iter()
            .enumerate()
            .filter(|(o, _)| seat.is_none_or(|s| *o != s && clans[*o] != clans[s]))
            .flat_map(|(_, h)| h)
            .collect();
        assert!(!secret.is_empty(), "{}: something is still secret to check", page.name);
        let html = page.html().await;
        let frames = page.ws_frames().await.join("\n");
        for id in secret {
            let name = &cat.card(id).expect("a card").name;
            assert!(!html.contains(name.as_str()), "{}: the page shows {name}, unplayed by another", page.name);
            assert!(
                !html.contains(&format!("\"{id}\"")) && !html.contains(&format!("={id}")),
                "{}: the page holds {id}",
                page.name
            );
            assert!(!frames.contains(&format!("\"{id}\"")), "{}: a frame holds {id}, unplayed by another", page.name);
            assert!(!frames.contains(name.as_str()), "{}: a frame names {name}, unplayed by another", page.name);
        }
    }
}

/// The seats the game waits for, as the spectator's page says.
async fn waiting(p: &Browser) -> Vec<usize> {
    let w = p.attr("[data-test=status]", "data-waiting").await.unwrap_or_default();
    w.split_whitespace().filter_map(|s| s.parse().ok()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_players_fight_two_against_two_until_a_god_falls() {
    let db = Db::sqlite("browser-clans");
    let server = db.start();
    let base = format!("http://{}", server.addr);
    scenario("clans-2v2", &base, |scene: Scene| async move {
        // Seat 0 Sacred Cross, its teammate (seat 2) and seat 1 Crimson
        // Nobles, seat 3 Sacred Cross: a teammate of another clan too.
        let clans = ["sacred_cross", "crimson_nobles", "crimson_nobles", "sacred_cross"];
        let ana = scene.browser("ana").await;
        ana.wait("[data-test=lobby][data-ready=true]").await;
        ana.wait("[data-test=clans-form]").await;
        let set = "const [css, v] = arguments; const s = document.querySelector(css); s.value = v; \
                   s.dispatchEvent(new Event('change', {bubbles: true}));";
        ana.client().execute(set, vec![json!("[data-test=clans-size]"), json!("4")]).await.expect("2v2");
        for (seat, clan) in clans.iter().enumerate() {
            ana.client().execute(set, vec![json!(format!("[data-test=clans-clan][data-seat='{seat}']")), json!(clan)]).await.unwrap();
        }
        ana.client().execute(set, vec![json!("[data-test=clans-battlefield]"), json!("highland_pass")]).await.unwrap();
        // The FAQ's casual variant keeps the browser game short.
        ana.fill("[data-test=clans-sp]", "8").await;
        ana.click("[data-test=create-clans]").await;
        ana.wait("[data-test=match][data-game=clans][data-phase=placement]").await;
        let link = ana.attr("[data-test=join-link]", "href").await.expect("a join link");
        let path = link.split_once("/join/").map(|(_, c)| format!("/join/{c}")).unwrap();
        let match_id = ana.path().await.trim_start_matches("/match/").to_owned();
        let mut others = Vec::new();
        for (seat, who) in ["ben", "cat", "dan"].iter().enumerate() {
            let p = scene.browser(who).await;
            p.goto(&path).await;
            p.wait(&format!("[data-test=match][data-game=clans][data-seat='{}']", seat + 1)).await;
            others.push(p);
        }
        let players: Vec<&Browser> = std::iter::once(&ana).chain(others.iter()).collect();
        ana.wait("[data-test=all-joined]").await;
        let eve = scene.browser("eve").await;
        eve.goto(&format!("/watch/{match_id}")).await;
        eve.wait("[data-test=match][data-role=spectator][data-phase=placement]").await;
        assert!(!eve.exists("[data-test=hand]").await, "a spectator holds no hand");
        // Four pages with their own hands, the others' stacks as counts.
        for (seat, p) in players.iter().enumerate() {
            let n = p.all("[data-test=hand-card]").await.len();
            assert!(n > 10, "{}: its own hand, with texts ({n} cards)", p.name);
            assert!(!p.text("[data-test=hand]").await.trim().is_empty());
            assert_eq!(p.all("[data-test=player]").await.len(), 4, "{}: every player listed", p.name);
            assert_eq!(p.attr("[data-test=you]", "data-seat").await.as_deref(), Some(seat.to_string().as_str()));
        }
        scene.screenshot(&ana, "clans-placement").await;

        let started = Instant::now();
        let mut tally = std::collections::BTreeMap::new();
        let mut window_shot = false;
        let (mut steps, mut idle, mut reloaded, mut shot, mut checks) = (0u32, 0u32, false, false, 0u32);
        let fallen = loop {
            assert!(started.elapsed() < Duration::from_secs(330), "no God fell in time ({steps} steps)");
            let spectator = current(&eve).await;
            if let Some(f) = &spectator {
                let gone: Vec<i64> = f["view"]["players"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|p| p["out"] == true)
                    .map(|p| p["seat"].as_i64().unwrap())
                    .collect();
                if let Some(s) = gone.first() {
                    break *s as usize;
                }
            }
            let mut acted = false;
            for seat in waiting(&eve).await {
                let p = players[seat];
                let Some(frame) = current(p).await else { continue };
                let Some(a) = plan(&frame["view"]) else { continue };
                let before = p.match_seq().await;
                *tally.entry(a["type"].as_str().unwrap_or("").to_owned()).or_insert(0u32) += 1;
                if !window_shot && (a["type"] == "pass" || a["type"] == "respond") {
                    scene.screenshot(p, "clans-window").await;
                    window_shot = true;
                }
                press(p, &frame["view"], &a).await;
                let js = format!(
                    "return Number(document.querySelector('[data-test=match]')?.dataset.seq) > {before} || null;"
                );
                p.until_js(&format!("{} sent {a}", p.name), &js).await;
                acted = true;
                steps += 1;
            }
            idle = if acted { 0 } else { idle + 1 };
            assert!(idle < 100, "nobody could act after {steps} steps");
            if !acted {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
            let phase = ana.attr("[data-test=match]", "data-phase").await.unwrap_or_default();
            if phase == "play" && steps % 25 == 5 {
                no_secret_leaks(&players, &clans, &eve).await;
                checks += 1;
            }
            // The battlefield with figures on it, once.
            if !shot && phase == "play" && ana.all("[data-test=figure]").await.len() >= 8 {
                scene.screenshot_of(&ana, "clans-battlefield", Some("[data-test=board]")).await;
                shot = true;
            }
            // A reload mid-game resumes where the page was, log and all.
            if !reloaded && phase == "play" && steps > 40 {
                let p = players[2];
                let seq = p.match_seq().await;
                let lines = p.all("[data-test=log-entry]").await.len();
                p.reload().await;
                let js = format!(
                    "const m = document.querySelector('[data-test=match]'); \
                     return (m && Number(m.dataset.seq) >= {seq} && document.querySelectorAll('[data-test=log-entry]').length >= {lines}) || null;"
                );
                p.until_js("the page back at its seq with its log", &js).await;
                assert!(p.exists("[data-test=hand]").await && p.exists("[data-test=board]").await);
                reloaded = true;
            }
        };
        eprintln!("a God fell after {steps} steps, {:?}: {tally:?}", started.elapsed());
        assert!(tally.contains_key("place") && tally.contains_key("summon") && tally.contains_key("move"), "{tally:?}");
        assert!(reloaded && checks > 0, "reloaded {reloaded}, checked {checks} times");
        no_secret_leaks(&players, &clans, &eve).await;
        // The fallen God's player is out on every page; its teammate
        // resigns and the other team wins.
        for p in players.iter().chain(std::iter::once(&&eve)) {
            p.wait(&format!("[data-test=player][data-seat='{fallen}'][data-out=true]")).await;
        }
        let mate = (fallen + 2) % 4;
        let p = players[mate];
        if p.attr(&format!("[data-test=player][data-seat='{mate}']"), "data-out").await.as_deref() != Some("true") {
            p.click("[data-test=resign]").await;
            p.click("[data-test=resign-confirm]").await;
        }
        let winners = (fallen + 1) % 2;
        for p in players.iter().chain(std::iter::once(&&eve)) {
            p.wait(&format!("[data-test=end][data-result=win][data-winner-team='{winners}']")).await;
            for seat in 0..4 {
                p.wait(&format!("[data-test=commitment][data-seat='{seat}'][data-verified=true]")).await;
            }
            assert_eq!(p.all("[data-test=reveal]").await.len(), 4, "{}: every deck revealed", p.name);
            assert_eq!(p.all("[data-test=reveal][data-consistent=true]").await.len(), 4, "{}: plays match the decks", p.name);
            assert!(p.all("[data-test=log-entry]").await.len() > 20, "{}: the log in words", p.name);
        }
        assert_eq!(eve.match_seq().await, ana.match_seq().await, "the spectator followed to the end");
        scene.screenshot(&ana, "clans-end").await;
        // No page's script failed on the way.
        for p in players.iter().chain(std::iter::once(&&eve)) {
            let errors: Vec<String> = p.console().await.into_iter().filter(|l| l.contains("Uncaught")).collect();
            assert!(errors.is_empty(), "{}: {errors:?}", p.name);
        }
    })
    .await;
}

/// One against one: the lobby's default form, placement by keyboard alone
/// on one page and by clicks on the other, each placement hidden from the
/// other page until both have placed, the page on a phone's width, and a
/// resignation that ends the game with both decks revealed and verified.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_against_one_places_in_secret_and_ends_by_resignation() {
    let db = Db::sqlite("browser-clans-1v1");
    let server = db.start();
    let base = format!("http://{}", server.addr);
    scenario("clans-1v1", &base, |scene: Scene| async move {
        let ana = scene.browser("ana").await;
        ana.wait("[data-test=lobby][data-ready=true]").await;
        ana.click("[data-test=create-clans]").await;
        ana.wait("[data-test=match][data-game=clans][data-phase=placement]").await;
        let link = ana.attr("[data-test=join-link]", "href").await.expect("a join link");
        let ben = scene.browser("ben").await;
        ben.goto(&link.split_once("/join/").map(|(_, c)| format!("/join/{c}")).unwrap()).await;
        ben.wait("[data-test=match][data-game=clans][data-seat='1']").await;
        ana.wait("[data-test=all-joined]").await;
        assert_eq!(ana.all("[data-test=player]").await.len(), 2);
        assert_eq!(ana.all("[data-test=tile]").await.len(), 12 * 16, "the 1v1 field is 12 by 16");
        for terrain in ["ground", "forest", "water"] {
            assert!(ana.exists(&format!("[data-test=tile][data-terrain={terrain}]")).await, "{terrain} drawn");
        }
        // Ana places with the keyboard alone: Tab to a homebase tile,
        // Enter, Tab to a God tile next to it, Enter.
        let before = ana.match_seq().await;
        ana.tab_to("[data-test=tile][data-hot~=homebase]", 40).await;
        ana.press(webdriver::Key::Enter).await;
        ana.wait("[data-test=mode][data-mode=god]").await;
        ana.tab_to("[data-test=tile][data-hot~=god]", 20).await;
        ana.press(webdriver::Key::Enter).await;
        let js = format!("return Number(document.querySelector('[data-test=match]').dataset.seq) > {before} || null;");
        ana.until_js("ana placed", &js).await;
        ana.wait("[data-test=homebase][data-seat='0']").await;
        ana.wait("[data-test=god-placed][data-seat='0']").await;
        ben.wait("[data-test=player][data-seat='0'][data-placed=true]").await;
        assert!(
            !ben.exists("[data-test=homebase][data-seat='0']").await && !ben.exists("[data-test=god-placed]").await,
            "ben does not see where ana placed"
        );
        let frames = ben.ws_frames().await.join("\n");
        assert!(
            !frames.contains("\"placed\",\"seat\":0") && !frames.contains("\"event\":\"placed\""),
            "no frame tells ben"
        );
        // Ben places by clicking.
        ben.click("[data-test=tile][data-hot~=homebase]").await;
        ben.click("[data-test=tile][data-hot~=god]").await;
        for p in [&ana, &ben] {
            p.wait("[data-test=match][data-phase=play]").await;
            p.wait("[data-test=homebase][data-seat='0']").await;
            p.wait("[data-test=homebase][data-seat='1']").await;
            assert_eq!(p.all("[data-test=figure][data-god]").await.len(), 2, "{}: both Gods on the field", p.name);
            assert_eq!(p.all("[data-test=commitment]").await.len(), 2, "{}: both commitments", p.name);
        }
        ana.fits_a_phone(&scene, "clans-phone").await;
        // Whoever plays first, Ana resigns (accepted at any moment).
        ana.click("[data-test=resign]").await;
        ana.click("[data-test=resign-confirm]").await;
        for p in [&ana, &ben] {
            p.wait("[data-test=end][data-result=win][data-winner-team='1']").await;
            for seat in 0..2 {
                p.wait(&format!("[data-test=commitment][data-seat='{seat}'][data-verified=true]")).await;
            }
            assert_eq!(p.all("[data-test=reveal]").await.len(), 2);
        }
        assert!(ana.text("[data-test=end]").await.contains("Your team lost"));
        assert!(ben.text("[data-test=end]").await.contains("Your team won"));
    })
    .await;
}
