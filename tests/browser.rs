//! The web client in real headless Chromium: players click through the
//! pages the server serves, as a person would (`tests/webdriver` is the
//! harness; `web/TESTING.md` the selectors the pages promise).

mod support;
mod webdriver;

use support::Db;
use webdriver::scenario;

/// The lobby creates a duel, shows its join link, and a second browser
/// takes the other seat through that link.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duel_is_created_in_the_lobby_and_joined_through_its_link() {
    let db = Db::sqlite("browser-join");
    let server = db.start();
    let base = format!("http://{}", server.addr);
    scenario("join", &base, |scene| async move {
        let alice = scene.browser("alice").await;
        alice.click("[data-test=create-duel]").await;
        let link = alice.attr("[data-test=join-link]", "href").await.expect("a join link");
        assert!(link.contains("/join/"), "join link {link}");
        let bob = scene.browser("bob").await;
        let path = link.split_once("/join/").map(|(_, code)| format!("/join/{code}")).unwrap();
        bob.goto(&path).await;
        bob.until_js("bob on the match page", "return location.pathname.startsWith('/match/')").await;
        assert_eq!(alice.path().await, bob.path().await, "both seats are in the same match");
    })
    .await;
}
