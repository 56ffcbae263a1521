//! Nim, the toy game, in headless Chromium: the lobby offers it from its
//! folder alone (`web/games/nim/`), one player creates a game, the other
//! joins through the link, and they take from the pile by clicking the
//! takes the page offers in the engine's words until one takes the last
//! counter; both pages and a spectator's say who won.

mod support;
mod webdriver;

use support::Db;
use webdriver::scenario;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_browsers_play_nim_by_clicking_the_offered_takes() {
    let db = Db::sqlite("browser-nim");
    let server = db.start();
    let base = format!("http://{}", server.addr);
    scenario("nim", &base, |scene| async move {
        let a = scene.browser("alice").await;
        a.wait("[data-test=lobby][data-ready=true]").await;
        a.fill("[data-test=nim-pile]", "7").await;
        a.click("[data-test=create-nim]").await;
        a.wait("[data-test=nim][data-seat='0']").await;
        let link = a.attr("[data-test=join-link]", "href").await.expect("a join link");
        let code = link.rsplit('/').next().unwrap().to_owned();
        let b = scene.browser("bob").await;
        b.goto(&format!("/join/{code}")).await;
        b.wait("[data-test=nim][data-seat='1']").await;
        let id = a.attr("[data-test=nim]", "data-match-id").await.unwrap();
        let s = scene.browser("spectator").await;
        s.goto(&format!("/watch/{id}")).await;
        s.wait("[data-test=nim][data-seat='']").await;
        assert!(!s.exists("[data-test=nim-take]").await, "a spectator is offered nothing");

        // Whoever is offered takes press the first (take 1): seven takes.
        let mut takes = 0;
        while !a.exists("[data-test=nim][data-finished=true]").await {
            for p in [&a, &b] {
                if p.exists("[data-test=nim-take]").await {
                    assert_eq!(p.text("[data-test=nim-take]").await, "Take 1");
                    let seq = p
                        .until_js(
                            "the page's seq",
                            "return document.querySelector('[data-test=nim]')?.dataset.seq ?? null;",
                        )
                        .await;
                    let seq: i64 = seq.as_str().unwrap().parse().unwrap();
                    p.click("[data-test=nim-take]").await;
                    p.until_js(
                        "the next record",
                        &format!("return Number(document.querySelector('[data-test=nim]').dataset.seq) > {seq};"),
                    )
                    .await;
                    takes += 1;
                }
            }
            assert!(takes <= 7, "seven counters take at most seven takes");
        }
        assert_eq!(takes, 7);
        for p in [&a, &b, &s] {
            p.wait("[data-test=nim][data-finished=true]").await;
            assert!(p.text("[data-test=nim-turn]").await.contains("took the last counter"));
            assert!(p.text("[data-test=nim-log]").await.contains("took the last counter and won"));
        }
        scene.screenshot(&a, "nim-end").await;
    })
    .await;
}
