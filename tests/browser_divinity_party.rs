//! A party of newcomers plays the Divinity tutorial in three headless
//! Chromium windows, only by clicking what each page shows in words: the
//! engine's party bot says which of the offered buttons a player would
//! press (it reads the view and legal list the page received, never sends
//! anything), and the test clicks that button as a person would. A
//! spectator joins mid-way; one player reloads mid-combat; the party wins
//! the tutorial and every page moves on to the next location by itself.
//! At every step each page is checked: no control or log line shows
//! protocol data, every figure stands in the space its view names, and the
//! location's name, goal and time track are shown (`web/TESTING.md`).

mod support;
mod webdriver;

use std::time::{Duration, Instant};

use athlas_engine::divinity::content::{Catalogue, LocationDef};
use athlas_engine::divinity::{bot, DivinityAction, DivinityView};
use athlas_engine::Seat;
use serde_json::{json, Value};
use support::party::BEST_PARTY;
use support::Db;
use webdriver::{scenario, Browser, Scene};

/// The frames this page received for its current match: everything after
/// its latest welcome.
async fn frames_since_welcome(p: &Browser) -> Vec<Value> {
    // The latest frames are enough: a page applies its frames as they come.
    let all: Vec<Value> = p.ws_frames_tail(60).await.iter().filter_map(|f| serde_json::from_str(f).ok()).collect();
    let start = all.iter().rposition(|f| f["type"] == "welcome").unwrap_or(0);
    all[start..].to_vec()
}

/// The page's current frame: the welcome or update of the seq it shows,
/// with the view as it stands.
async fn current(p: &Browser) -> Option<(i64, Value)> {
    let seq = p.match_seq().await;
    let frames = frames_since_welcome(p).await;
    let f = frames.iter().rev().find(|f| {
        (f["type"] == "update" || f["type"] == "welcome") && f["seq"].as_i64() == Some(seq) && f["view"].is_object()
    })?;
    Some((seq, f.clone()))
}

/// The location a view is at, from the catalogue: its printed name (the
/// front's) and its spaces in the board's order. An update leaves the
/// view's `board` and `front` out while they did not change (the page
/// keeps its own), so they are read here rather than from the frame.
fn location(view: &Value) -> Option<&'static LocationDef> {
    Catalogue::standard().locations.get(view["location"].as_str()?)
}

/// What a player at this page would press now, by the party bot: the seat
/// and the action, from the legal lists of the page's own frame.
/// A party that only `rests` lets time run out.
fn pick(frame: &Value, rests: bool) -> Option<(Seat, DivinityAction)> {
    let view: DivinityView = serde_json::from_value(frame["view"].clone()).ok()?;
    for l in frame["legal"].as_array().into_iter().flatten() {
        let seat = l["seat"].as_u64()? as Seat;
        let legal: Vec<DivinityAction> = serde_json::from_value(l["actions"].clone()).ok()?;
        let rest = DivinityAction::ChooseRound { explore: false };
        if rests && legal.contains(&rest) {
            return Some((seat, rest));
        }
        if let Some(a) = bot::choose(Catalogue::standard(), &view, seat, &legal) {
            return Some((seat, a));
        }
    }
    None
}

/// Mark the control that sends `action` for `seat` (any of the page's
/// action buttons, map choices, the interlude's buttons, or a level-up
/// option), opening a folded section or the map's choices first as a
/// person would; the kind of control found.
const FIND: &str = r#"
const [want, seat] = arguments;
const canon = (v) => Array.isArray(v) ? v.map(canon)
  : (v && typeof v === 'object') ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])])) : v;
const key = JSON.stringify(canon(want));
document.querySelectorAll('[data-pick]').forEach((e) => e.removeAttribute('data-pick'));
const same = (e) => { try { return JSON.stringify(canon(JSON.parse(e.dataset.action))) === key; } catch { return false; } };
const mine = (e) => e.dataset.seat === undefined || e.dataset.seat === String(seat);
const option = [...document.querySelectorAll('[data-test=level-up-choice] option')].find((o) => same(o));
if (option) { option.closest('select').setAttribute('data-pick', 'select'); option.setAttribute('data-pick', 'option'); return 'level_up'; }
const sel = '[data-test=action],[data-test=choice],[data-test=merchant-visit],[data-test=buy],[data-test=sell],[data-test=restock],[data-test=finish-interlude]';
const b = [...document.querySelectorAll(sel)].find((e) => same(e) && mine(e));
if (!b) return null;
const folded = b.closest('details:not([open])');
if (folded) { folded.querySelector('summary').setAttribute('data-pick', 'open'); return 'folded'; }
b.setAttribute('data-pick', 'button');
return 'button';
"#;

/// What the page shows in words that would be protocol data: braces,
/// brackets, straight quotes, null/true/false, snake_case ids, a space's
/// id ("t1"). The visible text of the page and of every log line.
const PROTOCOL_DATA: &str = r#"
const root = document.querySelector('[data-test=match]') ?? document.body;
const texts = [root.innerText, ...[...root.querySelectorAll('button, [data-test=log-entry]')].map((e) => e.innerText)];
const bad = /[{}\[\]"]|\bnull\b|\btrue\b|\bfalse\b|\b[a-z]+_[a-z_]+\b|\bt[0-9]\b/;
for (const t of texts) { const m = t.match(bad); if (m) return `${m[0]} in: ${t.slice(Math.max(0, m.index - 60), m.index + 60)}`; }
return '';
"#;

/// Where each figure is drawn: its `data-who` and the index of the space
/// around it.
const FIGURES: &str = r#"
return [...document.querySelectorAll('[data-test=location-map] [data-test=figure]')]
  .map((f) => [f.dataset.who, Number(f.closest('[data-test=space]')?.dataset.space ?? -1)]);
"#;

/// How many times a page was checked whole (a page that moved on to its
/// next location between two reads is checked at the next step instead).
static CHECKED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Every check a page must pass at any step, given the view it shows.
async fn check_page(p: &Browser, view: &Value) {
    let bad = p.client().execute(PROTOCOL_DATA, vec![]).await.expect("the check runs");
    assert_eq!(bad.as_str(), Some(""), "{}: protocol data on the page", p.name);
    let status = p.text("[data-test=status]").await;
    let name = location(view).map(|l| l.name.as_str()).expect("the location's name");
    if !status.contains(name) {
        return;
    }
    if view["phase"]["phase"] != "interlude" && view["phase"]["phase"] != "finished" {
        assert!(!p.text("[data-test=goal]").await.trim().is_empty(), "{}: the goal is shown", p.name);
        assert!(
            p.exists("[data-test=time-track]").await || p.exists("[data-test=no-time-limit]").await,
            "{}: the time track is shown",
            p.name
        );
        // Every figure the view places stands in that space on the map.
        let drawn = p.client().execute(FIGURES, vec![]).await.expect("figures");
        let drawn: Vec<(String, i64)> = serde_json::from_value(drawn).unwrap();
        let ix = |id: &str| location(view).unwrap().map.spaces.iter().position(|s| s.id == id).map(|i| i as i64);
        for (seat, o) in view["origins"].as_array().unwrap().iter().enumerate() {
            let who = format!("origin-{seat}");
            let at: Vec<i64> = drawn.iter().filter(|(w, _)| *w == who).map(|(_, s)| *s).collect();
            assert_eq!(at, vec![o["space"].as_i64().unwrap()], "{}: {who} drawn where the view places it", p.name);
        }
        for e in view["enemies"].as_array().unwrap() {
            let who = format!("enemy-{}", e["id"]);
            let at: Vec<i64> = drawn.iter().filter(|(w, _)| *w == who).map(|(_, s)| *s).collect();
            assert_eq!(at, vec![ix(e["space"].as_str().unwrap()).unwrap()], "{}: {who} in its space", p.name);
        }
    }
    CHECKED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// The player at `p` presses what it would press now, if anything: true
/// when the page moved on (its seq grew).
async fn play_one(p: &Browser, rests: bool) -> bool {
    let Some((seq, frame)) = current(p).await else { return false };
    // A page that just moved to the next location may show its first seq
    // before the browser's network log has its welcome: the frame found is
    // then the last location's. Wait for the log to catch up.
    // A page with nothing to press is checked when it next has (and the
    // spectator's at every step): the checks cost a dozen round trips.
    let Some((seat, action)) = pick(&frame, rests) else { return false };
    let name = location(&frame["view"]).map(|l| l.name.clone()).unwrap_or_default();
    if !p.text("[data-test=status]").await.contains(&name) {
        return false;
    }
    check_page(p, &frame["view"]).await;
    let want = serde_json::to_value(&action).unwrap();
    // The page draws its frame a moment after it applies it: look again
    // for a little while before calling the control missing.
    let mut found = Value::Null;
    for _ in 0..30 {
        found = p.client().execute(FIND, vec![want.clone(), json!(seat)]).await.expect("find the control");
        match found.as_str() {
            Some("folded") => p.click("[data-pick=open]").await,
            Some(_) => break,
            None => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    match found.as_str() {
        Some("button") => p.click("[data-pick=button]").await,
        Some("level_up") => {
            p.click("[data-pick=select]").await;
            p.click("[data-pick=option]").await;
            p.click(&format!("[data-test=level-up-do][data-seat='{seat}']")).await;
        }
        _ => panic!("{}: no control on the page sends {want} for seat {seat}", p.name),
    }
    // An action that hurts an ally asks first: the player means it.
    tokio::time::sleep(Duration::from_millis(30)).await;
    if p.exists("[data-test=confirm-yes]").await {
        p.click("[data-test=confirm-yes]").await;
    }
    // The table moves on, or (a party decision) the page now shows the
    // proposal with this player among those who agreed.
    const AGREED: &str = "const p = document.querySelector('[data-test=proposal]'); \
        return !!p && !p.querySelector('[data-test=agree]');";
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(5) {
        if p.match_seq().await > seq {
            return true;
        }
        if p.client().execute(AGREED, vec![]).await.ok() == Some(json!(true)) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    false
}

/// The number of log lines a page shows.
async fn log_lines(p: &Browser) -> usize {
    p.all("[data-test=log-entry]").await.len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_party_of_three_plays_the_tutorial_to_its_end_only_by_clicking_words() {
    let db = Db::sqlite("browser-divinity-party");
    let server = db.start();
    let base = format!("http://{}", server.addr);
    scenario("divinity-party", &base, |scene: Scene| async move {
        let alice = scene.browser("alice").await;
        alice.wait("[data-test=lobby][data-ready=true]").await;
        alice.click("[data-test=create-campaign]").await;
        alice.wait("[data-test=campaign]").await;
        let link = alice.attr("[data-test=join-link]", "href").await.expect("a party link");
        let path = link.split_once("/campaign-join/").map(|(_, c)| format!("/campaign-join/{c}")).unwrap();
        let bob = scene.browser("bob").await;
        let carol = scene.browser("carol").await;
        for p in [&bob, &carol] {
            p.goto(&path).await;
            p.wait("[data-test=campaign] [data-test=origins]").await;
        }
        let players = [&alice, &bob, &carol];
        for (p, origin) in players.iter().zip(BEST_PARTY) {
            p.click(&format!("[data-test=origin][data-origin={origin}]")).await;
            p.until_js("the choice taken", &format!(
                "return document.querySelector('[data-test=origin][data-origin={origin}]')?.classList.contains('primary') || location.pathname.startsWith('/match/') || null;"
            )).await;
        }
        for p in players {
            p.until_js("the location", "return location.pathname.startsWith('/match/') || null;").await;
        }
        let match_id = alice.path().await.trim_start_matches("/match/").to_owned();
        let tutorial = "The Merryweather";
        // Which location a page shows now, by its printed name.
        async fn at(p: &Browser) -> String {
            if !p.exists("[data-test=match][data-game=divinity] [data-test=status]").await {
                return String::new();
            }
            p.text("[data-test=status]").await
        }

        let mut spectator: Option<Browser> = None;
        let (mut reloaded, mut shots, mut steps, mut idle, mut won) = (false, 0u32, 0u32, 0u32, false);
        let started = Instant::now();
        loop {
            // The tutorial is won once every page has moved on to the next
            // location by itself; the party plays on there until it has
            // fought (the reload mid-combat) and the screenshots are taken.
            let mut moved = 0;
            for p in players {
                let now = at(p).await;
                if !now.is_empty() && !now.contains(tutorial) {
                    moved += 1;
                }
            }
            if moved == players.len() && !won {
                won = true;
                for p in players {
                    let status = at(p).await;
                    assert!(status.contains("Shipwreck"), "{}: the next location: {status}", p.name);
                }
                scene.screenshot(&alice, "divinity-next-location").await;
                eprintln!("the tutorial won in {steps} clicks, {:?}", started.elapsed());
            }
            if won && reloaded && shots & 12 == 12 {
                break;
            }
            // A lost tutorial (the bot's dice can fail it): every page says
            // why and offers to try again, which the party does.
            if alice.exists("[data-test=outcome][data-how=restart]").await {
                assert!(!alice.text("[data-test=outcome]").await.trim().is_empty(), "a loss says why");
                alice.click("[data-test=try-again]").await;
                for p in players {
                    p.wait("[data-test=match][data-phase=choose_round]").await;
                }
                continue;
            }
            assert!(
                started.elapsed() < Duration::from_secs(360),
                "too long: {steps} clicks, won {won}, fought {reloaded}, shots {shots}"
            );
            let mut acted = false;
            for p in players {
                // Each page plays where it is: all are in one location but
                // for the moment one has moved on before the others.
                if !won && !at(p).await.contains(tutorial) {
                    continue;
                }
                if play_one(p, false).await {
                    acted = true;
                    steps += 1;
                }
            }
            idle = if acted { 0 } else { idle + 1 };
            assert!(idle < 150, "nobody could act for a while after {steps} clicks");
            if !acted {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            let Some((_, frame)) = current(&alice).await else { continue };
            let view = &frame["view"];
            let phase = view["phase"]["phase"].as_str().unwrap_or("");
            // A spectator joins mid-way and reads the location's past.
            if spectator.is_none() && steps >= 15 && log_lines(&alice).await > 8 {
                let dan = scene.browser("dan").await;
                dan.goto(&format!("/watch/{match_id}")).await;
                dan.wait("[data-test=match][data-game=divinity]").await;
                dan.until_js("the spectator's log", "return document.querySelectorAll('[data-test=log-entry]').length > 5 || null;").await;
                assert!(!dan.exists("[data-test=action]").await, "a spectator has nothing to press");
                spectator = Some(dan);
            }
            // A reload mid-combat brings the log back.
            if !reloaded && phase == "combat" {
                let before = log_lines(&alice).await;
                assert!(before > 5, "the log tells the location before the reload");
                scene.screenshot(&alice, "divinity-combat").await;
                alice.fits_a_phone(&scene, "divinity-combat-phone").await;
                alice.reload().await;
                alice.wait("[data-test=match][data-game=divinity]").await;
                let js = format!("return document.querySelectorAll('[data-test=log-entry]').length >= {before} || null;");
                alice.until_js("the log after the reload", &js).await;
                reloaded = true;
            }
            if shots & 1 == 0 && view["challenge_rows"].is_array() {
                scene.screenshot(&alice, "divinity-challenge").await;
                shots |= 1;
            } else if shots & 2 == 0 && view["challenge"].is_object() {
                scene.screenshot(&alice, "divinity-challenge").await;
                alice.fits_a_phone(&scene, "divinity-challenge-phone").await;
                shots |= 2;
            }
            // A card picked in combat lights its targets up on the map.
            if shots & 8 == 0 && phase == "combat" && alice.exists("[data-test=card-pick]").await {
                alice.click("[data-test=card-pick]").await;
                alice.wait("[data-test=location-map] [data-target=true]").await;
                let map = Some("[data-test=location-map]");
                scene.screenshot_of(&alice, "divinity-targets", map).await;
                alice.fits_a_phone_at(&scene, "divinity-targets-phone", map).await;
                alice.click("[data-test=cancel-pick]").await;
                shots |= 8;
            }
            if shots & 4 == 0 && phase == "interlude" {
                scene.screenshot(&alice, "divinity-party-interlude").await;
                alice.fits_a_phone(&scene, "divinity-party-interlude-phone").await;
                shots |= 4;
            }
            if let Some(dan) = &spectator {
                if let Some((_, f)) = current(dan).await {
                    let name = location(&f["view"]).map(|l| l.name.clone()).unwrap_or_default();
                    if dan.text("[data-test=status]").await.contains(&name) {
                        check_page(dan, &f["view"]).await;
                    }
                }
            }
        }
        assert!(won && reloaded, "the party won the tutorial and fought");
        let checked = CHECKED.load(std::sync::atomic::Ordering::Relaxed);
        assert!(checked as u32 >= steps, "every page checked at every step ({checked} checks, {steps} clicks)");
        eprintln!("{steps} clicks in all, {:?}", started.elapsed());
    })
    .await;
}

/// A party of two that only rests runs out of time in the tutorial: every
/// page says why the location was lost and what comes next, without a
/// reload; one player tries again and both pages move to the restarted
/// location by themselves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_location_says_why_on_every_page_and_both_move_on() {
    let db = Db::sqlite("browser-divinity-lost");
    let server = db.start();
    let base = format!("http://{}", server.addr);
    scenario("divinity-lost", &base, |scene: Scene| async move {
        let alice = scene.browser("alice").await;
        alice.wait("[data-test=lobby][data-ready=true]").await;
        alice.client().execute(
            "const s = document.querySelector('[data-test=party-size]'); s.value = '2'; s.dispatchEvent(new Event('change'));",
            vec![],
        ).await.expect("a party of two");
        alice.click("[data-test=create-campaign]").await;
        alice.wait("[data-test=campaign]").await;
        let link = alice.attr("[data-test=join-link]", "href").await.expect("a party link");
        let bob = scene.browser("bob").await;
        bob.goto(&link.split_once("/campaign-join/").map(|(_, c)| format!("/campaign-join/{c}")).unwrap()).await;
        bob.wait("[data-test=campaign] [data-test=origins]").await;
        alice.click("[data-test=origin][data-origin=ifan]").await;
        bob.until_js("ifan taken", "return document.querySelector('[data-test=origin][data-origin=ifan]')?.disabled || null;").await;
        bob.click("[data-test=origin][data-origin=sebille]").await;
        let players = [&alice, &bob];
        for p in players {
            p.until_js("the location", "return location.pathname.startsWith('/match/') || null;").await;
        }
        let lost = alice.path().await;
        let started = Instant::now();
        while !alice.exists("[data-test=outcome]").await {
            assert!(started.elapsed() < Duration::from_secs(240), "time never ran out");
            let mut acted = false;
            for p in players {
                acted |= play_one(p, true).await;
            }
            if !acted {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
        for p in players {
            p.wait("[data-test=outcome][data-how=restart]").await;
            let why = p.text("[data-test=outcome]").await;
            assert!(why.contains("time ran out") && why.contains("starts again"), "{}: {why}", p.name);
            assert!(p.exists("[data-test=try-again]").await, "{}: the page offers to try again", p.name);
        }
        scene.screenshot(&alice, "divinity-lost").await;
        alice.click("[data-test=try-again]").await;
        for p in players {
            let js = format!("return (location.pathname !== '{lost}' && document.querySelector('[data-test=match][data-phase=choose_round]')) ? true : null;");
            p.until_js("the restarted location", &js).await;
            assert!(p.text("[data-test=status]").await.contains("The Merryweather"), "{}", p.name);
        }
    })
    .await;
}
