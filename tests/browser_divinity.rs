//! Divinity in real headless Chromium: a party of three creates a
//! campaign in the lobby, two friends join through its link, each chooses
//! an Origin, and the party plays the first rounds of the tutorial by
//! clicking the actions the server lists (`web/TESTING.md`).

mod support;
mod webdriver;

use std::time::Duration;

use support::Db;
use webdriver::{scenario, Browser};

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
            assert!(p.match_seq().await >= 0, "{} has its welcome", p.name);
        }
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
        let view = alice
            .ws_frames()
            .await
            .iter()
            .rev()
            .filter_map(|f| serde_json::from_str::<serde_json::Value>(f).ok())
            .find(|f| f["view"].is_object())
            .expect("a frame with a view")["view"]
            .clone();
        let board = &view["board"];
        assert_eq!(drawn["spaces"], board["spaces"].as_array().unwrap().len(), "every space drawn: {drawn}");
        assert_eq!(drawn["paths"], board["paths"].as_array().unwrap().len(), "every path drawn: {drawn}");
        assert_eq!(drawn["ifan"], view["origins"][0]["space"], "Ifan stands where the view says");

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
        let dan = scene.browser("dan").await;
        let id = alice.path().await.trim_start_matches("/match/").to_owned();
        dan.goto(&format!("/watch/{id}")).await;
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
