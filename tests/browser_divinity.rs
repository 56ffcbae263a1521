//! Divinity in real headless Chromium: a party of three creates a
//! campaign in the lobby, two friends join through its link, each chooses
//! an Origin, and the party plays the first rounds of the tutorial by
//! clicking the actions the server lists, one of them by keyboard alone;
//! and a party whose first location the engine's bot played to its exit
//! takes its interlude in the browser: level-ups (one by keyboard alone),
//! the Merchant, setting out (`web/TESTING.md`).

mod support;
mod webdriver;

use std::time::Duration;

use serde_json::{json, Value};
use support::party::{Player, BEST_PARTY};
use support::{http, http_as, Db};
use webdriver::{scenario, Browser, Key};

async fn round(p: &Browser) -> i64 {
    p.until_js("the round", "return document.querySelector('[data-test=match]')?.dataset.round ?? null;")
        .await
        .as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_party_of_three_starts_a_campaign_and_plays_the_first_rounds_by_clicking() {
    let db = Db::sqlite("browser-divinity");
    let server = db.start();
    let base = format!("http://{}", server.addr);
    scenario("divinity", &base, |scene| async move {
        let alice = scene.browser("alice").await;
        alice.wait("[data-test=lobby][data-ready=true]").await;
        alice.click("[data-test=create-campaign]").await;
        alice.wait("[data-test=campaign]").await;
        let link = alice.attr("[data-test=join-link]", "href").await.expect("a join link");
        let path =
            link.split_once("/campaign-join/").map(|(_, code)| format!("/campaign-join/{code}")).expect("a party link");
        let bob = scene.browser("bob").await;
        let carol = scene.browser("carol").await;
        for p in [&bob, &carol] {
            p.goto(&path).await;
            p.wait("[data-test=campaign] [data-test=origins]").await;
        }
        // Each chooses an Origin; one already taken cannot be chosen twice.
        alice.click("[data-test=origin][data-origin=ifan]").await;
        bob.until_js(
            "ifan taken for bob",
            "return document.querySelector('[data-test=origin][data-origin=ifan]')?.disabled || null;",
        )
        .await;
        bob.click("[data-test=origin][data-origin=sebille]").await;
        carol.click("[data-test=origin][data-origin=lohse]").await;
        // The last choice sets the party out: every page goes to the table.
        let players = [&alice, &bob, &carol];
        for p in players {
            p.until_js("the location", "return location.pathname.startsWith('/match/') || null;").await;
            // The path changes before the welcome arrives: wait for it.
            p.until_js("its welcome", "return Number(document.querySelector('[data-test=match]')?.dataset.seq) >= 0 || null;")
                .await;
        }
        // Turn alerts (web/signals.js) on this page too: a seat's tab says
        // whether the game waits for it, and it waits for someone.
        let mut told = Vec::new();
        for p in players {
            let js = "return document.documentElement.dataset.yourMove ?? null;";
            let mine = p.until_js("the seat's turn signal", js).await == "true";
            let title = p.client().title().await.unwrap();
            assert_eq!(title == "● Your move — Athlas", mine, "{}: title {title:?}", p.name);
            told.push(mine);
        }
        assert!(told.contains(&true), "the game waits for someone: {told:?}");
        assert_eq!(alice.path().await, carol.path().await, "one location for the party");
        for (p, origin) in players.iter().zip(["Ifan", "Sebille", "Lohse"]) {
            let me = p.text("[data-test=origin-row].you").await;
            assert!(me.contains(origin) && me.contains("(you)"), "{}: {me}", p.name);
            assert!(p.exists("[data-test=location-map] [data-test=figure]").await);
        }
        // The map is the location's printed one: every space and path of
        // the board the view carries, each Origin drawn in its own space.
        let drawn = alice
            .until_js(
                "the map drawn from the board",
                r#"const m = document.querySelector('[data-test=location-map]');
                   const spaces = m.querySelectorAll('[data-test=space]').length;
                   const paths = m.querySelectorAll('[data-test=path]').length;
                   const ifan = m.querySelector('[data-test=figure][data-who=origin-0]')?.closest('[data-test=space]')?.dataset.space;
                   return spaces > 1 && paths > 0 && ifan !== undefined ? {spaces, paths, ifan: Number(ifan)} : null;"#,
            )
            .await;
        let view = last_view(&alice).await;
        // The location's printed board (an update leaves the view's out
        // while it did not change).
        let cat = athlas_engine::divinity::content::Catalogue::standard();
        let board = &cat.locations[view["location"].as_str().expect("a location")].map;
        assert_eq!(drawn["spaces"], board.spaces.len(), "every space drawn: {drawn}");
        assert_eq!(drawn["paths"], board.paths.len(), "every path drawn: {drawn}");
        assert_eq!(drawn["ifan"], view["origins"][0]["space"], "Ifan stands where the view says");
        // Each Origin's armor, as the view adds it up.
        for (seat, a) in view["armor"].as_array().expect("armor by seat").iter().enumerate() {
            let cell = format!("[data-test=origin-row][data-seat='{seat}'] [data-test=armor]");
            let shown = (alice.attr(&cell, "data-physical").await, alice.attr(&cell, "data-magical").await);
            assert_eq!(shown, (Some(a["physical"].to_string()), Some(a["magical"].to_string())), "seat {seat}");
        }

        // Play: whoever has an action clicks the first one the server lists.
        let start = alice.match_seq().await;
        let mut clicks = 0;
        for _ in 0..200 {
            if round(&alice).await >= 2 && clicks >= 12 {
                break;
            }
            let mut acted = false;
            for p in players {
                if !p.exists("[data-test=action]").await {
                    continue;
                }
                let before = p.match_seq().await;
                p.click("[data-test=action]").await;
                clicks += 1;
                acted = true;
                // The update comes back (or the action raced another seat's and was refused).
                for _ in 0..40 {
                    if p.match_seq().await > before {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
            if !acted {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
        let now = alice.match_seq().await;
        assert!(now >= start + 10, "the party played: seq {start} → {now} after {clicks} clicks");
        assert!(round(&alice).await >= 2, "past the first round");
        for p in [&bob, &carol] {
            let js =
                format!("return Number(document.querySelector('[data-test=match]')?.dataset.seq) >= {now} || null;");
            p.until_js(&format!("{} at {now}", p.name), &js).await;
            assert!(
                p.exists("[data-test=time-track]").await || p.text("[data-test=match]").await.contains("No time limit")
            );
        }
        assert!(alice.all("[data-test=log] li").await.len() > 5, "the log tells what happened");
        // By keyboard alone: Tab to the first action the server lists, Enter.
        // The page redraws on the update and keeps the keyboard's place.
        let mut by_keyboard = None;
        for _ in 0..100 {
            by_keyboard = futures_util::future::join_all(players.map(|p| p.exists("[data-test=action]")))
                .await
                .iter()
                .position(|&has| has);
            if by_keyboard.is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let p = players[by_keyboard.expect("someone has an action")];
        // As a person opening the page: from its top, focus nowhere yet.
        let before = p.match_seq().await;
        p.reload().await;
        let js = format!("return Number(document.querySelector('[data-test=match]')?.dataset.seq) >= {before} || null;");
        p.until_js("the page back at its seq", &js).await;
        p.tab_to("[data-test=action]", 80).await;
        p.press(Key::Enter).await;
        // A party decision is proposed first (the party decides together):
        // the others agree in the proposal's box, and it is taken.
        let js = format!(
            "return Number(document.querySelector('[data-test=match]').dataset.seq) > {before} ? 'acted' \
             : document.querySelector('[data-test=proposal]') ? 'proposed' \
             : document.querySelector('[data-test=error]')?.dataset.code ?? null;"
        );
        let mut answer = p.until_js("the keyboard's action answered", &js).await;
        if answer == "proposed" {
            // The others agree; the proposal is taken once every seat at
            // the table agreed, which may be before the last one saw it.
            'agreeing: for _ in 0..100 {
                for other in players.iter().filter(|o| o.name != p.name) {
                    if p.match_seq().await > before {
                        break 'agreeing;
                    }
                    if other.exists("[data-test=agree]").await {
                        other.click("[data-test=agree]").await;
                    }
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            let js = format!(
                "return Number(document.querySelector('[data-test=match]').dataset.seq) > {before} ? 'acted' \
                 : document.querySelector('[data-test=error]')?.dataset.code ?? null;"
            );
            answer = p.until_js("the proposal taken", &js).await;
        }
        assert_eq!(answer, "acted", "{}: the action chosen by keyboard is taken", p.name);
        if p.exists("[data-test=action]").await {
            assert!(p.focused("[data-test=action]").await, "{}: the focus stays among the actions", p.name);
        }
        // Take-back is offered; the server takes it back or says in words why not.
        let before = alice.match_seq().await;
        alice.click("[data-test=take-back]").await;
        let js = format!(
            "return Number(document.querySelector('[data-test=match]').dataset.seq) > {before} ? 'taken' \
             : document.querySelector('[data-test=error]')?.dataset.code ?? null;"
        );
        let answer = alice.until_js("the take-back's answer", &js).await;
        assert!(
            ["taken", "others_acted", "revealed", "nothing_to_take_back"].contains(&answer.as_str().unwrap_or("")),
            "{answer}"
        );
        scene.screenshot(&alice, "divinity-location").await;
        // At a phone's width the page fits without scrolling sideways.
        bob.fits_a_phone(&scene, "divinity-phone").await;
        // A spectator follows the party live and is offered nothing.
        // They find it in the lobby's list of matches being played.
        let dan = scene.browser("dan").await;
        let id = alice.path().await.trim_start_matches("/match/").to_owned();
        dan.wait("[data-test=lobby][data-ready=true]").await;
        dan.click(&format!("[data-test=active-matches] [data-test=match-row][data-match-id='{id}'] [data-test=watch]")).await;
        dan.until_js("the watch page", &format!("return location.pathname === '/watch/{id}' || null;")).await;
        let now = alice.match_seq().await;
        let js = format!("return Number(document.querySelector('[data-test=match]')?.dataset.seq) >= {now} || null;");
        dan.until_js("the spectator at the party's seq", &js).await;
        assert!(!dan.exists("[data-test=action]").await && !dan.exists("[data-test=my-origin]").await);
        assert!(!dan.exists("[data-test=take-back]").await);
        for p in players {
            let severe: Vec<String> = p.console().await.into_iter().filter(|l| l.contains("SEVERE")).collect();
            assert!(severe.is_empty(), "{}: {severe:?}", p.name);
        }
    })
    .await;
}

/// A campaign of three set out over HTTP: (campaign id, seat tokens).
async fn a_party_sets_out(addr: &str) -> (String, Vec<String>) {
    let body = json!({"game": "divinity", "seats": 3, "options": {}});
    let (status, host) = http(addr, "POST", "/api/campaigns", Some(body)).await;
    assert_eq!(status, 201, "{host}");
    let id = host["campaign_id"].as_str().unwrap().to_owned();
    let mut tokens = vec![host["token"].as_str().unwrap().to_owned()];
    for _ in 1..3 {
        let path = format!("/api/campaigns/join/{}", host["join_code"].as_str().unwrap());
        let (status, joined) = http(addr, "POST", &path, None).await;
        assert_eq!(status, 200, "{joined}");
        tokens.push(joined["token"].as_str().unwrap().to_owned());
    }
    for (seat, origin) in BEST_PARTY.iter().enumerate() {
        let choice = json!({"choice": {"origin": origin}});
        let (status, body) =
            http_as(addr, "POST", &format!("/api/campaigns/{id}/choose"), Some(&tokens[seat]), Some(choice)).await;
        assert_eq!(status, 200, "{body}");
    }
    (id, tokens)
}

/// The engine's party bot plays over WebSockets, setting out for the next
/// location whenever one ends, until an interlude opens that has (or has
/// not) a level-up: its match id.
async fn the_bot_plays_to_an_interlude(addr: &str, id: &str, tokens: &[String], level_up: bool) -> String {
    for _location in 0..8 {
        let (status, st) = http_as(addr, "GET", &format!("/api/campaigns/{id}"), Some(&tokens[0]), None).await;
        assert_eq!(status, 200, "{st}");
        if st["stage"] == "between" {
            let (status, next) =
                http_as(addr, "POST", &format!("/api/campaigns/{id}/next"), Some(&tokens[0]), None).await;
            assert_eq!(status, 201, "{next}");
        }
        let mut seats = Vec::new();
        for t in tokens {
            seats.push(Player::connect(addr, t, None).await);
        }
        for _ in 0..4000 {
            let frame = seats[0].frame.clone();
            let phase = &frame["view"]["phase"];
            if phase["phase"] == "interlude" && phase["level_up"] == level_up {
                return seats[0].match_id.clone();
            }
            if frame["status"]["status"] == "finished" {
                break;
            }
            let seat = frame["status"]["seats"][0].as_u64().expect("someone is waited for") as usize;
            let action = seats[seat].choose(seat as u8).expect("the bot picks a listed action");
            let seq = seats[seat].act(&action, None).await;
            for p in &mut seats {
                p.catch_up(seq).await;
            }
        }
    }
    panic!("the bot never reached an interlude with level_up {level_up}");
}

/// The seat's token in this browser's storage (as joining would have put
/// it), then its match page at the interlude.
async fn sit(p: &Browser, match_id: &str, campaign_id: &str, seat: usize, token: &str) {
    let entry = json!({match_id: {"token": token, "seat": seat, "game": "divinity", "campaign_id": campaign_id}});
    p.client()
        .execute("localStorage.setItem('athlas.games', arguments[0]);", vec![Value::from(entry.to_string())])
        .await
        .expect("store the seat");
    p.goto(&format!("/match/{match_id}")).await;
    p.wait("[data-test=interlude]").await;
}

/// The view of the latest frame that carried one.
async fn last_view(p: &Browser) -> Value {
    p.ws_frames()
        .await
        .iter()
        .rev()
        .filter_map(|f| serde_json::from_str::<Value>(f).ok())
        .find(|f| f["view"].is_object())
        .expect("a frame with a view")["view"]
        .clone()
}

async fn gold(p: &Browser) -> i64 {
    p.attr("[data-test=gold]", "data-gold").await.unwrap().parse().unwrap()
}

/// Set out: the location ends and the campaign is between locations.
async fn set_out(p: &Browser, addr: &str, campaign_id: &str, token: &str) {
    p.click("[data-test=finish-interlude]").await;
    p.until_js(
        "the location over",
        "return document.querySelector('[data-test=match]')?.dataset.phase === 'finished' || null;",
    )
    .await;
    let (status, st) = http_as(addr, "GET", &format!("/api/campaigns/{campaign_id}"), Some(token), None).await;
    assert_eq!((status, st["stage"].as_str()), (200, Some("between")), "{st}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_party_takes_its_interludes_in_the_browser_merchant_and_level_ups() {
    let db = Db::sqlite("browser-interlude");
    let server = db.start();
    let addr = server.addr.clone();
    let (campaign_id, tokens) = a_party_sets_out(&addr).await;
    let base = format!("http://{addr}");
    scenario("divinity-interlude", &base, |scene| async move {
        // The tutorial's exit: no level-up; the Merchant.
        let match_id = the_bot_plays_to_an_interlude(&addr, &campaign_id, &tokens, false).await;
        let mut pages = Vec::new();
        for (seat, who) in ["alice", "bob", "carol"].iter().enumerate() {
            let p = scene.browser(who).await;
            sit(&p, &match_id, &campaign_id, seat, &tokens[seat]).await;
            pages.push(p);
        }
        let alice = &pages[0];
        let v = last_view(alice).await;
        let to = v["phase"]["to"].as_str().unwrap().to_owned();
        assert_eq!(alice.attr("[data-test=interlude]", "data-to").await, Some(to), "the interlude says where the party goes");
        assert_eq!(json!(gold(alice).await), v["gold"], "the party's gold as the view says");
        // The interlude's actions are in its pane, not among the plain buttons.
        for p in &pages {
            for ty in ["level_up", "visit_merchant", "buy", "sell", "finish_interlude"] {
                assert!(!p.exists(&format!("[data-test=action][data-type={ty}]")).await, "{}: {ty} drawn twice", p.name);
            }
        }
        let before = gold(alice).await;
        assert!(
            alice.exists("[data-test=merchant-visit]").await,
            "with {before} gold the party can pay the Merchant's fee"
        );
        // Alice by keyboard alone: Tab to the first visit, Enter.
        alice.tab_to("[data-test=merchant-visit]", 80).await;
        let focused = alice.client().execute("return document.activeElement.dataset.action;", vec![]).await.unwrap();
        let visit: Value = serde_json::from_str(focused.as_str().unwrap()).unwrap();
        alice.press(Key::Enter).await;
        alice.wait("[data-test=merchant][data-open=true]").await;
        assert_eq!(gold(alice).await, before - visit["level"].as_i64().unwrap(), "the fee is the deck's level");
        let shown = alice.all("[data-test=ware]").await.len();
        assert!(shown > 0, "the Merchant shows wares");
        if alice.exists("[data-test=buy]").await {
            let buy: Value = serde_json::from_str(&alice.attr("[data-test=buy]", "data-action").await.unwrap()).unwrap();
            let (item, to) = (buy["item"].as_str().unwrap().to_owned(), buy["to"].as_u64().unwrap() as usize);
            let ware = format!("[data-test=ware][data-item='{item}']");
            let price: i64 = alice.attr(&ware, "data-price").await.expect("a ware's price").parse().unwrap();
            assert!(alice.text(&ware).await.contains(&format!("({price} gold)")), "the price in words");
            let had = gold(alice).await;
            alice.click("[data-test=buy]").await;
            let js = format!("return document.querySelectorAll('[data-test=ware]').length < {shown} || null;");
            alice.until_js("the ware bought", &js).await;
            let o = last_view(alice).await["origins"][to].clone();
            assert!(o.to_string().contains(&format!("\"{item}\"")), "{item} went to seat {to}: {o}");
            assert_eq!(gold(alice).await, had - price, "the party paid the price shown");
        }
        // Bob sells one of his items for gold.
        let bob = &pages[1];
        if bob.exists("[data-test=sell]").await {
            let had = gold(bob).await;
            bob.click("[data-test=sell]").await;
            let js = format!("return Number(document.querySelector('[data-test=gold]')?.dataset.gold) > {had} || null;");
            bob.until_js("gold for the sold item", &js).await;
        }
        scene.screenshot(alice, "divinity-interlude").await;
        set_out(alice, &addr, &campaign_id, &tokens[1]).await;

        // Shipwreck's exit: every Origin levels up.
        let match_id = the_bot_plays_to_an_interlude(&addr, &campaign_id, &tokens, true).await;
        for (seat, p) in pages.iter().enumerate() {
            sit(p, &match_id, &campaign_id, seat, &tokens[seat]).await;
        }
        assert!(alice.exists("[data-test=level-up]").await);
        assert!(!alice.exists("[data-test=finish-interlude]").await, "nobody sets out before every Origin levelled up");
        // Alice by keyboard alone: Tab to her choice, the second option
        // with the arrow key, Tab on to the button, Enter.
        alice.tab_to("[data-test=level-up-choice]", 80).await;
        let options = alice.all("[data-test=level-up-choice] option").await.len();
        assert!(options > 1, "level-up choices listed: {options}");
        alice.press(Key::Down).await;
        let picked = alice
            .until_js(
                "the chosen level-up",
                "const s = document.querySelector('[data-test=level-up-choice]'); return s?.selectedIndex === 1 ? s.selectedOptions[0].dataset.action : null;",
            )
            .await;
        alice.tab_to("[data-test=level-up-do]", 5).await;
        alice.press(Key::Enter).await;
        alice
            .until_js(
                "alice levelled up",
                "return document.querySelector('[data-test=level-up-seat][data-seat=\"0\"]')?.dataset.done === 'true' || null;",
            )
            .await;
        let picked: Value = serde_json::from_str(picked.as_str().unwrap()).unwrap();
        let learned = picked["learn"].as_str().unwrap().to_owned();
        let me = last_view(alice).await["origins"][0].clone();
        assert!(me["skills"].as_array().unwrap().contains(&json!(learned)), "alice learned {learned}: {me}");
        // Bob and Carol by clicking.
        for p in &pages[1..] {
            p.click("[data-test=level-up-do]").await;
        }
        for p in &pages {
            p.until_js(
                "every Origin levelled up",
                "return document.querySelectorAll('[data-test=level-up-seat][data-done=true]').length === 3 || null;",
            )
            .await;
        }
        scene.screenshot(alice, "divinity-level-up").await;
        pages[2].fits_a_phone(&scene, "divinity-interlude-phone").await;
        set_out(&pages[2], &addr, &campaign_id, &tokens[0]).await;
        for p in &pages {
            let severe: Vec<String> = p.console().await.into_iter().filter(|l| l.contains("SEVERE")).collect();
            assert!(severe.is_empty(), "{}: {severe:?}", p.name);
        }
    })
    .await;
}

/// Mark the action button of `page` whose action is `choose_round` with
/// `explore` (`data-pick`), and return its text.
async fn mark_round(p: &Browser, explore: bool) -> String {
    let js = r#"
        document.querySelectorAll('[data-pick]').forEach((e) => e.removeAttribute('data-pick'));
        const b = [...document.querySelectorAll('[data-test=action][data-type=choose_round]')]
          .find((e) => JSON.parse(e.dataset.action).explore === arguments[0]);
        if (!b) return null;
        b.setAttribute('data-pick', 'round');
        return b.textContent;"#;
    let started = std::time::Instant::now();
    loop {
        let v = p.client().execute(js, vec![json!(explore)]).await.expect("find the round's button");
        if let Some(t) = v.as_str() {
            return t.to_owned();
        }
        assert!(started.elapsed() < Duration::from_secs(20), "{}: no button for explore={explore}", p.name);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A party of two decides its first round together: Ifan proposes, Sebille
/// objects; Ifan proposes again, Sebille agrees by pressing the same
/// option, and the round starts on both pages. Then they talk: a line with
/// markup in it is shown as the text it is, and one reader mutes the chat.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_party_of_two_proposes_objects_agrees_and_chats() {
    let db = Db::sqlite("browser-divinity-talk");
    let server = db.start();
    let base = format!("http://{}", server.addr);
    scenario("divinity-talk", &base, |scene| async move {
        let alice = scene.browser("alice").await;
        alice.wait("[data-test=lobby][data-ready=true]").await;
        alice
            .client()
            .execute(
                "const s = document.querySelector('[data-test=party-size]'); s.value = '2'; s.dispatchEvent(new Event('change'));",
                vec![],
            )
            .await
            .expect("a party of two");
        alice.click("[data-test=create-campaign]").await;
        alice.wait("[data-test=campaign]").await;
        let link = alice.attr("[data-test=join-link]", "href").await.expect("a party link");
        let bob = scene.browser("bob").await;
        bob.goto(&link.split_once("/campaign-join/").map(|(_, c)| format!("/campaign-join/{c}")).unwrap()).await;
        bob.wait("[data-test=campaign] [data-test=origins]").await;
        alice.click("[data-test=origin][data-origin=ifan]").await;
        bob.until_js("ifan taken", "return document.querySelector('[data-test=origin][data-origin=ifan]')?.disabled || null;")
            .await;
        bob.click("[data-test=origin][data-origin=sebille]").await;
        let players = [&alice, &bob];
        for p in players {
            p.wait("[data-test=match][data-phase=choose_round] [data-test=action][data-type=choose_round]").await;
        }
        let seq = alice.match_seq().await;

        // Ifan proposes to explore: both pages show the proposal; Sebille's
        // own Explore button now agrees to it.
        mark_round(&alice, true).await;
        alice.click("[data-pick=round]").await;
        for p in players {
            p.wait("[data-test=proposal][data-by='0'][data-type=choose_round]").await;
        }
        let shown = bob.text("[data-test=proposal]").await;
        assert!(shown.contains("Ifan proposes") && shown.contains("Explore this round"), "{shown}");
        assert!(bob.text("[data-test=proposal-waiting]").await.contains("you"), "Sebille is still to agree");
        assert_eq!(mark_round(&bob, true).await, "Agree: Explore this round");
        assert!(!alice.exists("[data-test=agree]").await, "the proposer has agreed already");
        scene.screenshot_of(&alice, "divinity-proposal-own", Some("[data-test=proposal]")).await;
        scene.screenshot_of(&bob, "divinity-proposal", Some("[data-test=proposal]")).await;
        bob.fits_a_phone_at(&scene, "divinity-proposal-phone", Some("[data-test=proposal]")).await;

        // Sebille objects: it is called off for both, nothing is taken.
        bob.click("[data-test=object]").await;
        for p in players {
            p.wait("[data-test=proposal-withdrawn][data-by='1']").await;
            p.wait_gone("[data-test=proposal]").await;
        }
        assert!(alice.text("[data-test=proposal-withdrawn]").await.contains("Sebille objected"));
        scene.screenshot_of(&alice, "divinity-proposal-withdrawn", Some("[data-test=proposal-withdrawn]")).await;
        assert_eq!(alice.match_seq().await, seq, "an objection takes nothing");
        assert_eq!(mark_round(&bob, true).await, "Explore this round");

        // Ifan proposes to rest instead; Sebille presses Rest, which agrees.
        mark_round(&alice, false).await;
        alice.click("[data-pick=round]").await;
        bob.wait("[data-test=proposal][data-by='0']").await;
        assert_eq!(mark_round(&bob, false).await, "Agree: Rest this round");
        bob.click("[data-pick=round]").await;
        for p in players {
            let js = format!(
                "const m = document.querySelector('[data-test=match]'); \
                 return Number(m.dataset.seq) > {seq} && m.dataset.phase !== 'choose_round' || null;"
            );
            p.until_js("the agreed round under way", &js).await;
            assert!(!p.exists("[data-test=proposal]").await, "{}: the proposal ends with the update", p.name);
            assert!(p.text("[data-test=status]").await.contains("Rest round"), "{}: the party rests", p.name);
        }

        // Chat: markup is shown as text, on both pages.
        let said = "I'll heal <b>you</b> next turn";
        alice.fill("[data-test=chat-input]", said).await;
        alice.click("[data-test=chat-send]").await;
        for p in players {
            let line = p
                .until_js(
                    "the chat line",
                    "const l = document.querySelector('[data-test=chat-line][data-seat=\"0\"]'); \
                     return l ? {text: l.textContent, bold: !!l.querySelector('.chat-text b, .chat-text *')} : null;",
                )
                .await;
            assert!(line["text"].as_str().unwrap().contains(said), "{}: {line}", p.name);
            assert!(line["text"].as_str().unwrap().contains("Ifan"), "{}: named by the Origin: {line}", p.name);
            assert_eq!(line["bold"], false, "{}: the line is text, not markup", p.name);
        }
        alice.until_js("the input emptied", "return document.querySelector('[data-test=chat-input]').value === '' || null;").await;
        bob.fill("[data-test=chat-input]", "Rest, then the Galley").await;
        bob.press(Key::Enter).await;
        alice.wait("[data-test=chat-line][data-seat='1']").await;
        scene.screenshot_of(&alice, "divinity-chat", Some("[data-test=chat]")).await;
        alice.fits_a_phone_at(&scene, "divinity-chat-phone", Some("[data-test=chat]")).await;

        // Sebille mutes the chat: the lines are hidden on her page only,
        // and stay hidden after a reload; Ifan's next line does not show.
        bob.click("[data-test=chat-mute]").await;
        bob.wait_gone("[data-test=chat-line]").await;
        assert_eq!(bob.attr("[data-test=chat-mute]", "aria-pressed").await.as_deref(), Some("true"));
        bob.reload().await;
        bob.wait("[data-test=chat][data-muted=true]").await;
        alice.fill("[data-test=chat-input]", "Are you there?").await;
        alice.click("[data-test=chat-send]").await;
        alice.until_js("three lines", "return document.querySelectorAll('[data-test=chat-line]').length === 3 || null;").await;
        bob.until_js(
            "the muted count",
            "return document.querySelector('[data-test=chat-muted]')?.textContent.includes('3 lines') || null;",
        )
        .await;
        assert!(!bob.exists("[data-test=chat-line]").await, "muted: no line on Sebille's page");
        // Shown again: each line once, though the welcome sent them again.
        bob.click("[data-test=chat-mute]").await;
        let ns = bob
            .until_js(
                "the lines back",
                "const l = [...document.querySelectorAll('[data-test=chat-line]')].map((e) => e.dataset.n); return l.length ? l : null;",
            )
            .await;
        let ns: Vec<String> = serde_json::from_value(ns).unwrap();
        let mut unique = ns.clone();
        unique.dedup();
        assert_eq!((ns.len(), unique.len()), (3, 3), "each line once: {ns:?}");
        for p in players {
            let severe: Vec<String> = p.console().await.into_iter().filter(|l| l.contains("SEVERE")).collect();
            assert!(severe.is_empty(), "{}: {severe:?}", p.name);
        }
    })
    .await;
}
