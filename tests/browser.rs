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

use webdriver::Browser;

/// Wait until `p` has applied an update past `before`, then until every
/// other page has caught up with it.
async fn settled(p: &Browser, before: i64, others: &[&Browser]) -> i64 {
    let js = format!("return Number(document.querySelector('[data-test=match]')?.dataset.seq) > {before};");
    p.until_js(&format!("an update past {before}"), &js).await;
    let now = p.match_seq().await;
    for o in others {
        let js = format!("return Number(document.querySelector('[data-test=match]')?.dataset.seq) >= {now};");
        o.until_js(&format!("{} at seq {now}", o.name), &js).await;
    }
    now
}

/// Click `css` on `p` as one action: when a hex chooser opens instead,
/// pick its choice of `kind` (the first one matching `prefer`, if any), and
/// confirm a question; returns when every page has the update.
async fn act(p: &Browser, css: &str, kind: &str, prefer: Option<&str>, others: &[&Browser]) -> i64 {
    let before = p.match_seq().await;
    p.click(css).await;
    let js = format!(
        "return Number(document.querySelector('[data-test=match]')?.dataset.seq) > {before} ? 'done' \
         : document.querySelector('[data-test=choices]') ? 'choose' \
         : document.querySelector('[data-test=confirm-yes]') ? 'confirm' : null;"
    );
    match p.until_js("the action or a chooser", &js).await.as_str() {
        Some("choose") => {
            let mut picked = None;
            for c in p.all(&format!("[data-test=choice][data-type={kind}]")).await {
                let action = c.attr("data-action").await.ok().flatten().unwrap_or_default();
                if picked.is_none() || prefer.is_some_and(|want| action.contains(want)) {
                    picked = Some(action);
                }
            }
            let action = picked.unwrap_or_else(|| panic!("{}: no {kind} choice", p.name));
            let sel = format!("[data-test=choice][data-action='{action}']");
            p.click(&sel).await;
            if p.exists("[data-test=confirm-yes]").await {
                p.click("[data-test=confirm-yes]").await;
            }
        }
        Some("confirm") => p.click("[data-test=confirm-yes]").await,
        _ => {}
    }
    settled(p, before, others).await
}

/// Answer every open response window or pending DI: seat 0 casts its top
/// DI once, when it has a target; otherwise each seat passes.
async fn answer_windows(a: &Browser, b: &Browser, s: &Browser, cast: &mut Option<String>) {
    let pass = "[data-test=window] [data-test=action][data-type=pass]";
    loop {
        if a.exists(pass).await {
            if try_cast(a, b, s, cast).await {
                continue;
            }
            act(a, pass, "pass", None, &[b, s]).await;
        } else if b.exists(pass).await {
            act(b, pass, "pass", None, &[a, s]).await;
        } else {
            return;
        }
    }
}

/// Seat 0 casts its top DI when it has a target (on its turn or in a
/// response window); false when it has none now.
async fn try_cast(a: &Browser, b: &Browser, s: &Browser, cast: &mut Option<String>) -> bool {
    if cast.is_some() || !a.exists("[data-test=cast-di]").await {
        return false;
    }
    let card = a.attr("[data-test=cast-di]", "data-card").await.unwrap_or_default();
    a.click("[data-test=cast-di]").await;
    if a.exists("[data-test=hex][data-hot~=target]").await {
        act(a, "[data-test=hex][data-hot~=target]", "cast_di", None, &[b, s]).await;
        *cast = Some(card);
        return true;
    }
    a.click("[data-test=cancel-mode]").await;
    false
}

/// What the duel's turns have done so far: the DI seat 0 cast, if any, and
/// how many attacks were made.
#[derive(Default)]
struct Seen {
    cast: Option<String>,
    attacks: u32,
}

/// The highlighted move hex nearest to a unit of the other seat (axial hex
/// distance), as a selector; `None` when no move is highlighted.
async fn move_toward_foe(p: &Browser) -> Option<String> {
    let js = r#"
        const me = document.querySelector('[data-test=match]').dataset.seat;
        const at = (h) => [Number(h.dataset.q), Number(h.dataset.r)];
        const foes = [...document.querySelectorAll('[data-test=hex]')]
          .filter((h) => h.querySelector(`[data-test=unit]:not([data-owner='${me}'])`)).map(at);
        const dist = (x, y) => (Math.abs(x[0] - y[0]) + Math.abs(x[1] - y[1]) + Math.abs(x[0] + x[1] - y[0] - y[1])) / 2;
        let best = null, bestD = Infinity;
        for (const h of document.querySelectorAll('[data-test=hex][data-hot~=move]')) {
          const d = Math.min(...foes.map((f) => dist(at(h), f)));
          if (d < bestD || best === null) { best = at(h); bestD = d; }
        }
        return best ? `[data-test=hex][data-q='${best[0]}'][data-r='${best[1]}']` : '';
    "#;
    let sel = p.until_js("the move hexes", &format!("return ({{v: (() => {{ {js} }})()}});")).await;
    sel["v"].as_str().filter(|s| !s.is_empty()).map(str::to_owned)
}

/// One turn of the seat whose page is `p`: activate a unit when one may,
/// move it toward the other seat's units and attack one in reach, then
/// summon (Alpha `alpha` if it can), seat 0 casts its DI when it can, end
/// the turn.
async fn turn(p: &Browser, o: &Browser, s: &Browser, a: &Browser, b: &Browser, alpha: &str, seen: &mut Seen) {
    let cast = &mut seen.cast;
    let activate = "[data-test=hex][data-hot~=activate]";
    if p.exists(activate).await {
        act(p, activate, "activate", None, &[o, s]).await;
        answer_windows(a, b, s, cast).await;
        if let Some(to) = move_toward_foe(p).await {
            act(p, &to, "move", None, &[o, s]).await;
            answer_windows(a, b, s, cast).await;
        }
        // An attack: a power of the active unit at a hex holding a unit of the other seat.
        let foe = if p.name == a.name { "1" } else { "0" };
        let target = format!("[data-test=hex][data-hot~=target]:has([data-test=unit][data-owner='{foe}'])");
        if p.exists(&target).await {
            act(p, &target, "use_power", None, &[o, s]).await;
            answer_windows(a, b, s, cast).await;
            seen.attacks += 1;
        }
        let end = "[data-test=action][data-type=end_activation]";
        if p.exists(end).await {
            act(p, end, "end_activation", None, &[o, s]).await;
            answer_windows(a, b, s, cast).await;
        }
    }
    if p.name == a.name && try_cast(a, b, s, cast).await {
        answer_windows(a, b, s, cast).await;
    }
    let summon_hex = "[data-test=hex][data-hot~=summon]";
    if p.exists(summon_hex).await {
        act(p, summon_hex, "summon", Some(alpha), &[o, s]).await;
        answer_windows(a, b, s, cast).await;
    }
    act(p, "[data-test=action][data-type=end_turn]", "end_turn", None, &[o, s]).await;
    answer_windows(a, b, s, cast).await;
}

/// What of seat 0's creation seat 1 must not see while it is hidden:
/// seat 0's Alphas 0 and 1 and two of its DI cards (seat 1 plays the
/// aquatic preset, which shares none of them). Ids as they appear in frames
/// and attributes, names as the page would print them.
const SECRET_IDS: [&str; 6] =
    ["savage_warrior", "axe_of_lorios", "shadow_ranger", "ballista", "dispel_magic", "teleport"];
const SECRET_NAMES: [&str; 5] = ["Savage Warrior", "Axe of Lorios", "Shadow Ranger", "Ballista", "Dispel Magic"];

async fn assert_no_secret(who: &Browser, revealed: &[&str]) {
    let html = who.html().await;
    let frames = who.ws_frames().await.join("\n");
    assert!(!frames.is_empty(), "{}: the DevTools log holds the page's frames", who.name);
    for id in SECRET_IDS.iter().filter(|c| !revealed.contains(c)) {
        assert!(
            !frames.contains(&format!("\"{id}\"")),
            "{}: a frame named {id} before the rules revealed it",
            who.name
        );
        assert!(
            !html.contains(&format!("\"{id}\"")) && !html.contains(&format!("&quot;{id}&quot;")),
            "{}: the page holds {id}",
            who.name
        );
    }
    for name in SECRET_NAMES {
        assert!(!html.contains(name), "{}: the page shows {name}", who.name);
        assert!(!frames.contains(name), "{}: a frame holds {name}", who.name);
    }
}

/// Two browsers play a duel by clicking, a third watches: create, join
/// through the link, one Alpha from the catalogue and two from presets, a
/// DI stack, summon, move, an attack, a DI cast in a response window, a reload that
/// resumes where it was, a draw offered and accepted, and an end screen
/// that verifies both commitments. Seat 1's page and every frame its
/// socket received never hold a card of seat 0 that the rules keep hidden.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_browsers_play_a_duel_by_clicking_and_the_secrets_stay_hidden() {
    let db = Db::sqlite("browser-duel");
    let server = db.start();
    let base = format!("http://{}", server.addr);
    scenario("duel", &base, |scene| async move {
        let a = scene.browser("alice").await;
        a.wait("[data-test=lobby][data-ready=true]").await;
        scene.screenshot(&a, "lobby").await;
        a.click("[data-test=create-duel]").await;
        a.wait("[data-test=match][data-phase=creation]").await;
        let link = a.attr("[data-test=join-link]", "href").await.expect("a join link");
        let code = link.rsplit('/').next().unwrap().to_owned();
        let b = scene.browser("bob").await;
        b.goto(&format!("/join/{code}")).await;
        b.wait("[data-test=match][data-phase=creation][data-seat='1']").await;
        let id = a.attr("[data-test=match]", "data-match-id").await.unwrap();
        let s = scene.browser("spectator").await;
        s.goto(&format!("/watch/{id}")).await;
        s.wait("[data-test=match][data-role=spectator]").await;

        // Alpha 1 from the catalogue, with a restriction shown before and after.
        a.click("[data-test=card-filter][data-kind=genus]").await;
        a.click("[data-test=add-card][data-card=savage_warrior]").await;
        a.click("[data-test=card-filter][data-kind=equipment]").await;
        a.click("[data-test=add-card][data-card=axe_of_lorios]").await;
        let slot = "[data-test=alpha][data-alpha='0']";
        a.until_js("the slot's live figures", &format!(
            "const e = document.querySelector(\"{slot}\"); return e && e.dataset.cost === '14' && e.dataset.life === '12' && e.dataset.valid === 'true';"
        )).await;
        a.wait("[data-test=card-warning][data-rule=hands]").await;
        // Alphas 2 and 3 from the book's presets, then the DI stack.
        a.wait("[data-test=preset-alpha][data-alpha='1']").await.select_by_value("rush:1").await.expect("select rush:1");
        a.wait("[data-test=preset-alpha][data-alpha='2']").await.select_by_value("aquatic:0").await.expect("select aquatic:0");
        for di in ["lightning_bolt", "dispel_magic", "teleport"] {
            a.click(&format!("[data-test=di-card][data-card={di}]")).await;
        }
        a.wait("[data-test=di-builder][data-points='5'][data-count='3']").await;
        a.wait("[data-test=creation-ok]").await;
        scene.screenshot(&a, "alpha-builder").await;
        a.click("[data-test=lock-creation]").await;
        a.wait("[data-test=creation-locked]").await;
        a.wait("[data-test=commitment][data-seat='0']").await;
        b.click("[data-test=use-preset][data-preset=aquatic]").await;
        for p in [&a, &b, &s] {
            p.wait("[data-test=match][data-phase=play]").await;
        }
        assert_no_secret(&b, &[]).await;
        assert_no_secret(&s, &[]).await;

        // Two rounds: each seat summons, then activates and moves; seat 0
        // casts its top DI in the first window that offers a target.
        let mut seen = Seen::default();
        let first = a.attr("[data-test=status]", "data-waiting").await.unwrap_or_default();
        // The buttons say what the server's words say.
        let starts = if first.trim() == "1" { &b } else { &a };
        starts
            .until_js(
                "the buttons in the server's words",
                "return [...document.querySelectorAll('[data-test=action][data-type=end_turn]')].some((e) => e.textContent === 'End the turn') || null;",
            )
            .await;
        let order: [(&Browser, &Browser, &str); 2] = if first.trim() == "1" {
            [(&b, &a, "\"alpha\":0"), (&a, &b, "\"alpha\":2")]
        } else {
            [(&a, &b, "\"alpha\":2"), (&b, &a, "\"alpha\":0")]
        };
        // At least three rounds, then until a unit has attacked (the units
        // walk toward each other; eight rounds at most).
        for round in 0..8 {
            if round >= 3 && seen.attacks > 0 {
                break;
            }
            for (p, o, alpha) in order {
                turn(p, o, &s, &a, &b, alpha, &mut seen).await;
            }
            if round == 0 {
                // A reload mid-game comes back at the same position.
                let at = b.match_seq().await;
                b.reload().await;
                b.wait(&format!("[data-test=match][data-seq='{at}'][data-phase=play]")).await;
                // The whole log is back in the server's words, from the
                // first record (seq 1) and the first turn, each record
                // numbered once.
                let js = "const r = [...document.querySelectorAll('[data-test=log-record]')].map((e) => Number(e.dataset.seq)); \
                          const t = [...document.querySelectorAll('[data-test=log-entry]')].map((e) => e.textContent); \
                          return (r.length > 0 && new Set(r).size === r.length && r[r.length - 1] === 1 \
                            && t.some((x) => x.startsWith('Turn 1: Seat ')) && t.some((x) => x.startsWith('Turn 2: Seat '))) || null;";
                b.until_js("the whole log after the reload", js).await;
            }
        }
        scene.screenshot(&a, "duel-board").await;
        // At a phone's width a player's page fits without scrolling sideways.
        a.fits_a_phone(&scene, "duel-phone").await;
        assert!(seen.attacks > 0, "a unit attacked within eight rounds");
        for p in [&a, &b, &s] {
            p.wait("[data-test=log-entry][data-event=attacked]").await;
        }
        let cast = seen.cast.expect("seat 0 cast a DI in a response window");
        assert_eq!(cast, "lightning_bolt", "the top of the stack");
        // Seat 0 summoned only its Alpha 3: Alphas 1 and 2 and the DIs it did not cast stay hidden.
        assert_no_secret(&b, &[]).await;
        assert_no_secret(&s, &[]).await;

        // A draw, offered by the seat whose turn it is and accepted by the other.
        let offer = "[data-test=action][data-type=offer_draw]";
        let (offerer, other) = if a.exists(offer).await { (&a, &b) } else { (&b, &a) };
        act(offerer, offer, "offer_draw", None, &[other, &s]).await;
        act(other, "[data-test=draw-offer] [data-test=action][data-type=accept_draw]", "accept_draw", None, &[offerer, &s]).await;
        for p in [&a, &b, &s] {
            p.wait("[data-test=match][data-phase=ended]").await;
            p.wait("[data-test=end][data-result=draw]").await;
        }
        for p in [&a, &b] {
            for seat in ["0", "1"] {
                p.wait(&format!("[data-test=commitment][data-seat='{seat}'][data-verified=true]")).await;
            }
            assert!(!p.exists("[data-test=verified][data-ok=false]").await, "{}: a commitment failed", p.name);
        }
        assert_eq!(s.match_seq().await, a.match_seq().await, "the spectator followed to the end");
        // The finished match reopened tells the whole game, first line to last.
        s.reload().await;
        s.wait("[data-test=match][data-phase=ended]").await;
        let js = "const t = [...document.querySelectorAll('[data-test=log-entry]')].map((e) => e.textContent); \
                  return (document.querySelector('[data-test=log-record][data-seq=\"1\"]') \
                    && t[0] === 'The players agreed to a draw' && t.some((x) => x.startsWith('Turn 1: Seat '))) || null;";
        s.until_js("the whole log of the finished match", js).await;
        // The reveal names seat 0's cards now, and only now.
        assert!(b.html().await.contains("Savage Warrior"), "the end screen shows the revealed Alphas");
        for p in [&a, &b, &s] {
            let errors: Vec<String> = p.console().await.into_iter().filter(|l| l.starts_with("SEVERE")).collect();
            assert!(errors.is_empty(), "{}: console errors {errors:?}", p.name);
        }
    })
    .await;
}

/// Both pages create and join a duel and take a preset each; a spectator
/// watches. The match id.
async fn a_duel_in_play(a: &Browser, b: &Browser, s: &Browser) -> String {
    a.wait("[data-test=lobby][data-ready=true]").await;
    a.click("[data-test=create-duel]").await;
    a.wait("[data-test=match][data-phase=creation]").await;
    let link = a.attr("[data-test=join-link]", "href").await.expect("a join link");
    b.goto(&format!("/join/{}", link.rsplit('/').next().unwrap())).await;
    b.wait("[data-test=match][data-phase=creation][data-seat='1']").await;
    let id = a.attr("[data-test=match]", "data-match-id").await.unwrap();
    s.goto(&format!("/watch/{id}")).await;
    s.wait("[data-test=match][data-role=spectator]").await;
    a.click("[data-test=use-preset][data-preset=rush]").await;
    b.click("[data-test=use-preset][data-preset=aquatic]").await;
    for p in [a, b, s] {
        p.wait("[data-test=match][data-phase=play]").await;
    }
    id
}

/// `p`'s seat resigns from its page.
async fn resign(p: &Browser) {
    p.click("[data-test=resign]").await;
    p.click("[data-test=resign-confirm]").await;
}

/// What a board shows, hex by hex: terrain, relics, and each unit with its
/// owner, controller and relic; the same for every viewer of one position.
async fn board_of(p: &Browser, css: &str) -> String {
    let js = format!(
        "const b = document.querySelector(\"{css} [data-test=board]\"); if (!b) return null; \
         return [...b.querySelectorAll('[data-test=hex]')].map((h) => `${{h.dataset.q}},${{h.dataset.r}} ${{h.dataset.terrain}} ${{h.dataset.relics}}: ` \
           + [...h.querySelectorAll('[data-test=unit]')].map((u) => `${{u.dataset.unit}}/${{u.dataset.owner}}/${{u.dataset.controller}}/${{u.dataset.relic}}`).join(' ')).join('; ');"
    );
    p.until_js(&format!("the board in {css}"), &js).await.as_str().unwrap().to_owned()
}

/// A finished duel says how it ended, to each reader in their words, live
/// and when reopened; its replay (refused while the game was on) opens
/// from the end screen, checked as `athlas verify` checks it, and steps
/// from the start to the last position, which is the final board.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_duel_reopens_on_how_it_ended_and_its_replay_steps_to_the_final_board() {
    let db = Db::sqlite("browser-end");
    let server = db.start();
    let base = format!("http://{}", server.addr);
    scenario("end", &base, |scene| async move {
        let (a, b, s) = (scene.browser("alice").await, scene.browser("bob").await, scene.browser("spectator").await);
        let id = a_duel_in_play(&a, &b, &s).await;
        // Two rounds: units on the board, moved, a record of each kind a turn makes.
        let first = a.attr("[data-test=status]", "data-waiting").await.unwrap_or_default();
        let order: [(&Browser, &Browser); 2] =
            if first.trim() == "1" { [(&b, &a), (&a, &b)] } else { [(&a, &b), (&b, &a)] };
        let mut seen = Seen::default();
        for _ in 0..2 {
            for (p, o) in order {
                turn(p, o, &s, &a, &b, "\"alpha\":0", &mut seen).await;
            }
        }

        // No replay while the game is on.
        let r = scene.browser("reader").await;
        r.goto(&format!("/replay/{id}")).await;
        r.wait("[data-test=replay-refused][data-code=not_finished]").await;

        resign(&a).await;
        for (p, words) in [(&a, "You resigned."), (&b, "Your opponent resigned."), (&s, "Seat 0 resigned.")] {
            p.wait("[data-test=end][data-ending=resigned]").await;
            assert_eq!(p.text("[data-test=end-reason]").await, words, "{}", p.name);
        }
        assert_eq!(b.text("[data-test=end-title]").await, "You won!");
        // Reopened later: the end screen at once, with its reason.
        b.reload().await;
        b.wait("[data-test=end][data-ending=resigned]").await;
        assert_eq!(b.text("[data-test=end-reason]").await, "Your opponent resigned.");
        let last = b.match_seq().await;
        let final_board = board_of(&b, "[data-test=end-board]").await;
        scene.screenshot(&b, "duel-end").await;

        // The replay from the end screen: the start, a step, the last position.
        b.click("[data-test=open-replay]").await;
        b.wait(&format!("[data-test=replay][data-match-id='{id}'][data-seq='0'][data-last='{last}']")).await;
        b.wait("[data-test=replay-verified][data-ok=true]").await;
        assert!(b.text("[data-test=replay-verified]").await.contains(&format!("{last} records")));
        assert!(b.exists("[data-test=replay-first][disabled]").await);
        let start = board_of(&b, "[data-test=replay-board]").await;
        assert!(!start.contains('/'), "no unit on the board before the first record: {start}");
        b.click("[data-test=replay-next]").await;
        b.wait("[data-test=replay][data-seq='1']").await;
        b.wait("[data-test=replay-position][data-seq='1']").await;
        // The slider goes anywhere.
        let mid = last / 2;
        b.client()
            .execute(
                "const s = document.querySelector('[data-test=replay-slider]'); s.value = arguments[0]; \
                 s.dispatchEvent(new Event('input'));",
                vec![mid.into()],
            )
            .await
            .unwrap();
        b.wait(&format!("[data-test=replay][data-seq='{mid}']")).await;
        b.click("[data-test=replay-last]").await;
        b.wait(&format!("[data-test=replay][data-seq='{last}'][data-loading=false]")).await;
        assert!(b.exists("[data-test=replay-next][disabled]").await);
        b.wait("[data-test=replay-ending][data-how=resigned]").await;
        assert!(b.text("[data-test=replay-log]").await.contains("resigned"), "the engine's words for the last record");
        assert!(!b.text("[data-test=replay-record]").await.contains("null"));
        assert_eq!(board_of(&b, "[data-test=replay-board]").await, final_board, "the last position is the final board");
        b.click("[data-test=replay-prev]").await;
        b.wait(&format!("[data-test=replay][data-seq='{}']", last - 1)).await;
        b.click("[data-test=replay-last]").await;
        b.wait(&format!("[data-test=replay][data-seq='{last}'][data-loading=false]")).await;
        scene.screenshot(&b, "duel-replay").await;
        // Anyone with the link, at a phone's width too.
        r.goto(&format!("/replay/{id}?seq={mid}")).await;
        r.wait(&format!("[data-test=replay][data-seq='{mid}'][data-loading=false]")).await;
        r.fits_a_phone(&scene, "duel-replay-phone").await;
        for p in [&a, &b, &s, &r] {
            let errors: Vec<String> = p.console().await.into_iter().filter(|l| l.starts_with("SEVERE")).collect();
            let errors: Vec<&String> = errors.iter().filter(|l| !l.contains("409")).collect();
            assert!(errors.is_empty(), "{}: console errors {errors:?}", p.name);
        }
    })
    .await;
}

/// A rematch offered from one end screen and accepted on the other lands
/// both pages in the new match's Creation Phase, the seats swapped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_offered_by_one_page_and_accepted_by_the_other_lands_both_in_its_creation_phase() {
    let db = Db::sqlite("browser-rematch");
    let server = db.start();
    let base = format!("http://{}", server.addr);
    scenario("rematch", &base, |scene| async move {
        let (a, b, s) = (scene.browser("alice").await, scene.browser("bob").await, scene.browser("spectator").await);
        let id = a_duel_in_play(&a, &b, &s).await;
        resign(&b).await;
        a.wait("[data-test=end][data-ending=resigned]").await;
        a.click("[data-test=rematch-offer]").await;
        a.wait("[data-test=rematch][data-state=offered]").await;
        b.wait("[data-test=rematch][data-state=offered-to-you]").await;
        scene.screenshot_of(&b, "duel-rematch", Some("[data-test=end]")).await;
        b.click("[data-test=rematch-accept]").await;
        let mut new_ids = Vec::new();
        for (p, seat) in [(&a, "1"), (&b, "0")] {
            p.wait(&format!("[data-test=match][data-phase=creation][data-seat='{seat}']")).await;
            let new_id = p.attr("[data-test=match]", "data-match-id").await.unwrap();
            assert_ne!(new_id, id, "{}: a new match", p.name);
            assert_eq!(p.path().await, format!("/match/{new_id}"));
            new_ids.push(new_id);
        }
        assert_eq!(new_ids[0], new_ids[1], "both in the same rematch");
        // The spectator's end screen leads to the rematch too.
        s.wait(&format!("[data-test=rematch][data-state=accepted][data-rematch-id='{}']", new_ids[0])).await;
        // The old end screen, reopened, links to the rematch instead of going there.
        a.goto(&format!("/match/{id}")).await;
        a.wait(&format!("[data-test=rematch][data-state=accepted][data-rematch-id='{}']", new_ids[0])).await;
        assert_eq!(a.path().await, format!("/match/{id}"));
    })
    .await;
}

/// Wait until `p`'s tab says (`yes`) or no longer says that the game
/// waits for its seat: the title, the favicon with its dot, and the page's
/// `data-your-move` (web/signals.js).
async fn your_move(p: &Browser, yes: bool) {
    let js = format!(
        "const icon = document.querySelector('link[rel~=icon]')?.getAttribute('href') ?? ''; \
         return document.documentElement.dataset.yourMove === '{yes}' \
           && (document.title === '● Your move — Athlas') === {yes} \
           && icon.startsWith('data:image/svg+xml,') && icon.includes('circle') === {yes};"
    );
    p.until_js(&format!("{}'s tab {} its move", p.name, if yes { "showing" } else { "no longer showing" }), &js).await;
}

/// Your-turn signals: both tabs say "your move" while both seats create,
/// one stops once its seat locked in; in play only the seat the game waits
/// for shows it, and the signal goes over to the other once it ends its turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tab_title_and_favicon_say_when_it_is_your_move() {
    let db = Db::sqlite("browser-signals");
    let server = db.start();
    let base = format!("http://{}", server.addr);
    scenario("signals", &base, |scene| async move {
        let a = scene.browser("alice").await;
        a.wait("[data-test=lobby][data-ready=true]").await;
        assert_eq!(a.client().title().await.unwrap(), "Athlas");
        a.click("[data-test=create-duel]").await;
        a.wait("[data-test=match][data-phase=creation]").await;
        let link = a.attr("[data-test=join-link]", "href").await.expect("a join link");
        let b = scene.browser("bob").await;
        b.goto(&format!("/join/{}", link.rsplit('/').next().unwrap())).await;
        b.wait("[data-test=match][data-phase=creation][data-seat='1']").await;
        for p in [&a, &b] {
            your_move(p, true).await;
            p.wait("[data-test=signals] [data-test=signal-sound]").await;
        }
        a.click("[data-test=use-preset][data-preset=rush]").await;
        your_move(&a, false).await;
        your_move(&b, true).await;
        b.click("[data-test=use-preset][data-preset=aquatic]").await;
        for p in [&a, &b] {
            p.wait("[data-test=match][data-phase=play]").await;
        }
        let first = a.attr("[data-test=status]", "data-waiting").await.unwrap_or_default();
        let (p, o) = if first.trim() == "1" { (&b, &a) } else { (&a, &b) };
        your_move(p, true).await;
        your_move(o, false).await;
        scene.screenshot(p, "your-move").await;
        act(p, "[data-test=action][data-type=end_turn]", "end_turn", None, &[o]).await;
        your_move(p, false).await;
        your_move(o, true).await;
        // The setting is remembered by the browser.
        o.click("[data-test=signals] summary").await;
        o.click("[data-test=signal-sound]").await;
        o.until_js("the sound setting kept", "return localStorage.getItem('athlas.sound') === 'on';").await;
        o.reload().await;
        o.until_js(
            "the sound box ticked after a reload",
            "return document.querySelector('[data-test=signal-sound]')?.checked === true;",
        )
        .await;
        your_move(o, true).await;
        for p in [&a, &b] {
            let errors: Vec<String> = p.console().await.into_iter().filter(|l| l.starts_with("SEVERE")).collect();
            assert!(errors.is_empty(), "{}: console errors {errors:?}", p.name);
        }
    })
    .await;
}

/// A DI cast at a seat is answered where the eye is: the Answer box says
/// who cast what at whom in the engine's words and offers the seat's casts
/// and Pass side by side. Both seats play Rush (Time Warp on top: a
/// friendly unit): the first mover summons and casts it, and the other
/// seat, with no unit yet, can cast nothing, so the server passes for it
/// and its page says so; then the first mover turns passing for it off,
/// the other seat casts the same way, and the first mover answers from its
/// Answer box.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_di_cast_at_a_seat_is_answered_from_the_answer_box_or_passed_for_it() {
    let db = Db::sqlite("browser-answer");
    let server = db.start();
    let base = format!("http://{}", server.addr);
    scenario("answer", &base, |scene| async move {
        let a = scene.browser("alice").await;
        a.wait("[data-test=lobby][data-ready=true]").await;
        a.click("[data-test=create-duel]").await;
        a.wait("[data-test=match][data-phase=creation]").await;
        let link = a.attr("[data-test=join-link]", "href").await.expect("a join link");
        let b = scene.browser("bob").await;
        b.goto(&format!("/join/{}", link.rsplit('/').next().unwrap())).await;
        b.wait("[data-test=match][data-phase=creation][data-seat='1']").await;
        a.click("[data-test=use-preset][data-preset=rush]").await;
        b.click("[data-test=use-preset][data-preset=rush]").await;
        for p in [&a, &b] {
            p.wait("[data-test=match][data-phase=play]").await;
        }
        let first = a.attr("[data-test=status]", "data-waiting").await.unwrap_or_default();
        let (p, o) = if first.trim() == "1" { (&b, &a) } else { (&a, &b) };

        // The first mover summons, then casts Time Warp at its unit.
        act(p, "[data-test=hex][data-hot~=summon]", "summon", None, &[o]).await;
        p.click("[data-test=di] [data-test=cast-di]").await;
        act(p, "[data-test=hex][data-hot~=target]", "cast_di", None, &[o]).await;
        // The other seat is told in its Answer box, can cast nothing, and
        // is passed for without a click.
        let told = o.text("[data-test=window][data-answering=true] [data-test=pending-di]").await;
        assert!(told.contains("cast Time Warp"), "{told}");
        o.wait("[data-test=window] [data-test=auto-pass-note]").await;
        o.wait("[data-test=auto-passed]").await;
        assert!(o.text("[data-test=auto-passed]").await.contains("Passed automatically: nothing to cast"));
        p.wait("[data-test=log-entry][data-event=di_resolved]").await;
        act(p, "[data-test=action][data-type=end_turn]", "end_turn", None, &[o]).await;

        // Turned off (kept by the server), the first mover is asked.
        p.click("[data-test=di] [data-test=pass-when-unable]").await;
        p.until_js(
            "the setting off",
            "return document.querySelector('[data-test=di] [data-test=pass-when-unable]')?.checked === false;",
        )
        .await;
        act(o, "[data-test=hex][data-hot~=summon]", "summon", None, &[p]).await;
        o.click("[data-test=di] [data-test=cast-di]").await;
        act(o, "[data-test=hex][data-hot~=target]", "cast_di", None, &[p]).await;
        let told = p.text("[data-test=window][data-answering=true] [data-test=pending-di]").await;
        assert!(told.contains("cast Time Warp"), "{told}");
        p.wait("[data-test=window] [data-test=answers] [data-test=action][data-type=pass]").await;
        tokio::time::sleep(std::time::Duration::from_secs(3)).await;
        assert!(p.exists("[data-test=window][data-answering=true]").await, "waited for, not passed for");
        let timer = p.exists("[data-test=window] [data-test=timer]").await;
        assert!(timer, "the window's timer is in the box");
        scene.screenshot_of(p, "duel-answer", Some("[data-test=window]")).await;
        scene.screenshot(p, "duel-answer-page").await;
        act(p, "[data-test=window] [data-test=action][data-type=pass]", "pass", None, &[o]).await;
        p.wait_gone("[data-test=window]").await;
        assert!(!p.exists("[data-test=auto-passed]").await, "a pass clicked is not told as automatic");
        for q in [&a, &b] {
            let errors: Vec<String> = q.console().await.into_iter().filter(|l| l.starts_with("SEVERE")).collect();
            assert!(errors.is_empty(), "{}: console errors {errors:?}", q.name);
        }
    })
    .await;
}

/// Let the other seat's response windows close, passing where it is asked
/// (the server passes by itself for a seat that can cast nothing), until
/// the match waits for `p` again.
async fn until_waiting_for(p: &Browser, o: &Browser, others: &[&Browser]) {
    let seat = p.attr("[data-test=match]", "data-seat").await.unwrap_or_default();
    let pass = "[data-test=window] [data-test=action][data-type=pass]";
    for _ in 0..200 {
        let waiting = p.attr("[data-test=status]", "data-waiting").await.unwrap_or_default();
        if waiting.trim() == seat {
            return;
        }
        if o.exists(pass).await {
            let mut all = vec![p];
            all.extend_from_slice(others);
            act(o, pass, "pass", None, &all).await;
        } else {
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    }
    panic!("{}: the match never came back to seat {seat}", p.name);
}

/// The unit a log line is about, as the words name it: "Seat 0 summoned
/// Savage Warrior 1 (Alpha 1) at [0,5]: …" gives ("Savage Warrior 1", "1").
fn summoned_unit(line: &str) -> (String, String) {
    let (_, rest) = line.split_once(" summoned ").unwrap_or_else(|| panic!("a summon line: {line}"));
    let (name, _) = rest.split_once(" (Alpha").unwrap_or_else(|| panic!("a summon line: {line}"));
    let id = name.rsplit(' ').next().unwrap().to_owned();
    (name.to_owned(), id)
}

/// Each token shows its unit's id, the one the log names it by, with its
/// genus mark; hovering a token (a mouse) or tapping it (touch) opens the
/// unit's card under that name. Ending turn 1 with nothing summoned asks
/// first, and is not the main button until something is summoned.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_show_the_unit_ids_of_the_log_and_open_the_units_card_on_hover_or_tap() {
    let db = Db::sqlite("browser-tokens");
    let server = db.start();
    let base = format!("http://{}", server.addr);
    scenario("tokens", &base, |scene| async move {
        let a = scene.browser("alice").await;
        let b = scene.browser("bob").await;
        let s = scene.browser("spectator").await;
        a_duel_in_play(&a, &b, &s).await;
        let first = a.attr("[data-test=status]", "data-waiting").await.unwrap_or_default();
        let (p, o) = if first.trim() == "1" { (&b, &a) } else { (&a, &b) };

        // Nothing summoned yet: ending the turn is offered, not urged, and asks.
        let end = "[data-test=actions] [data-test=action][data-type=end_turn]";
        let class = p.attr(end, "class").await.unwrap_or_default();
        assert!(!class.contains("primary"), "end the turn is not the main button on an empty first turn: {class}");
        let before = p.match_seq().await;
        p.click(end).await;
        let asked = p.text("[data-test=confirm][data-type=end_turn]").await;
        assert!(asked.contains("nothing summoned"), "{asked}");
        p.click("[data-test=confirm-no]").await;
        p.wait_gone("[data-test=confirm]").await;
        assert_eq!(p.match_seq().await, before, "No sends nothing");

        // Three summons, each Alpha once (57 points of the first turn's 60).
        for alpha in ["\"alpha\":0", "\"alpha\":1", "\"alpha\":2"] {
            if p.exists("[data-test=hex][data-hot~=summon]").await {
                act(p, "[data-test=hex][data-hot~=summon]", "summon", Some(alpha), &[o, &s]).await;
                until_waiting_for(p, o, &[&s]).await;
            }
        }
        let class = p.attr(end, "class").await.unwrap_or_default();
        assert!(class.contains("primary"), "once something is summoned, ending the turn is the main button: {class}");

        // The log's unit and its token: the same id, the genus's mark.
        let line = p.text("[data-test=log-entry][data-event=summoned]").await;
        let (name, id) = summoned_unit(&line);
        let token = format!("[data-test=unit][data-unit='{id}']");
        for q in [p, o, &s] {
            q.wait(&token).await;
            assert_eq!(q.text(&format!("{token} [data-test=unit-id]")).await, id, "{}: the token's number", q.name);
            assert_eq!(q.attr(&token, "data-name").await.as_deref(), Some(name.as_str()), "{}", q.name);
            let initials: String = name.split(' ').filter(|w| w.starts_with(char::is_uppercase)).filter_map(|w| w.chars().next()).take(2).collect();
            let mark = q.text(&format!("{token} [data-test=unit-mark]")).await;
            assert!(mark.starts_with(&initials), "{}: genus mark {mark:?} of {name}", q.name);
        }

        // A mouse over the token opens the card; leaving it closes it.
        p.hover(&token).await;
        let card = format!("[data-test=unit-card][data-unit='{id}'][data-pinned=false]");
        p.wait(&card).await;
        assert_eq!(p.text("[data-test=unit-card-name]").await, name);
        assert!(p.text("[data-test=unit-card-owner]").await.starts_with("Yours"));
        assert!(p.text("[data-test=unit-card-life]").await.starts_with("Life "));
        p.hover("[data-test=status]").await;
        p.wait_gone("[data-test=unit-card]").await;

        // A tap (touch) pins it, here for a spectator, until closed.
        let tap = format!(
            "document.querySelector(\"{token}\").dispatchEvent(new PointerEvent('pointerup', {{pointerType: 'touch', bubbles: true}})); return true;"
        );
        s.until_js("a tap on the token", &tap).await;
        s.wait(&format!("[data-test=unit-card][data-unit='{id}'][data-pinned=true]")).await;
        assert_eq!(s.text("[data-test=unit-card-name]").await, name);
        assert!(!s.text("[data-test=unit-card-owner]").await.starts_with("Yours"), "a spectator owns no unit");
        s.click("[data-test=unit-card-close]").await;
        s.wait_gone("[data-test=unit-card]").await;

        // The other seat summons too; its page keeps a tapped card open
        // through the update, for the screenshots.
        act(p, end, "end_turn", None, &[o, &s]).await;
        until_waiting_for(o, p, &[&s]).await;
        act(o, "[data-test=hex][data-hot~=summon]", "summon", None, &[p, &s]).await;
        until_waiting_for(o, p, &[&s]).await;
        o.until_js("a tap on the token", &tap).await;
        o.wait(&format!("[data-test=unit-card][data-unit='{id}'][data-pinned=true]")).await;
        scene.screenshot_of(o, "duel-unit-card", Some("[data-test=board]")).await;
        o.fits_a_phone_at(&scene, "duel-unit-card-phone", Some("[data-test=board]")).await;
        for q in [&a, &b, &s] {
            let errors: Vec<String> = q.console().await.into_iter().filter(|l| l.starts_with("SEVERE")).collect();
            assert!(errors.is_empty(), "{}: console errors {errors:?}", q.name);
        }
    })
    .await;
}

/// "Load into the builder" (and a slot's "Fill from a preset…") ask in
/// the page before replacing an Alpha built by hand: No keeps it, Yes
/// loads; what a preset loaded is replaced without asking.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_preset_asks_before_replacing_an_alpha_built_by_hand() {
    let db = Db::sqlite("browser-preset-ask");
    let server = db.start();
    let base = format!("http://{}", server.addr);
    scenario("preset-ask", &base, |scene| async move {
        let a = scene.browser("alice").await;
        a.wait("[data-test=lobby][data-ready=true]").await;
        a.click("[data-test=create-duel]").await;
        a.wait("[data-test=builder]").await;
        // Alpha 1 by hand: a genus.
        a.click("[data-test=card-filter][data-kind=genus]").await;
        let mine = a.attr("[data-test=add-card]", "data-card").await.expect("a genus to add");
        a.click(&format!("[data-test=add-card][data-card='{mine}']")).await;
        let kept = format!("[data-test=alpha][data-alpha='0'] li[data-card='{mine}']");
        a.wait(&kept).await;

        a.click("[data-test=load-preset][data-preset=rush]").await;
        let asked = a.text("[data-test=preset-confirm]").await;
        assert!(asked.contains("Alpha 1"), "{asked}");
        a.click("[data-test=preset-confirm] [data-test=confirm-no]").await;
        a.wait_gone("[data-test=preset-confirm]").await;
        assert!(a.exists(&kept).await, "No keeps the hand-built Alpha");
        assert!(a.all("[data-test=alpha][data-alpha='0'] li[data-card]").await.len() == 1, "and only it");

        // Alpha 1's cards once they are `when` (a JS test of `s`, their ids).
        let slot = |when: &str| {
            format!(
                "const s = [...document.querySelectorAll(\"[data-test=alpha][data-alpha='0'] li[data-card]\")] \
                   .map((l) => l.dataset.card).join(' '); return ({when}) ? s : null;"
            )
        };
        a.click("[data-test=load-preset][data-preset=rush]").await;
        a.click("[data-test=preset-confirm] [data-test=confirm-yes]").await;
        a.wait_gone("[data-test=preset-confirm]").await;
        let rush = a.until_js("Alpha 1 from the preset", &slot("s.includes(' ')")).await;
        assert_ne!(rush.as_str(), Some(mine.as_str()), "Yes replaced the hand-built Alpha");

        // What a preset put there is no one's work: no question.
        a.click("[data-test=load-preset][data-preset=aquatic]").await;
        let aquatic = a.until_js("Alpha 1 from the other preset", &slot(&format!("s && s !== {rush}"))).await;
        assert!(aquatic.as_str().is_some_and(|s| !s.is_empty()), "{aquatic}");
        assert!(!a.exists("[data-test=preset-confirm]").await, "a preset replaces a preset without asking");
        let errors: Vec<String> = a.console().await.into_iter().filter(|l| l.starts_with("SEVERE")).collect();
        assert!(errors.is_empty(), "console errors {errors:?}");
    })
    .await;
}

/// `p` takes the display name `name` in the lobby's name card.
async fn take_name(p: &Browser, name: &str) {
    p.wait("[data-test=lobby][data-ready=true]").await;
    p.fill("[data-test=name-input]", name).await;
    p.click("[data-test=name-save]").await;
    p.wait(&format!("[data-test=name-shown][data-name='{name}']")).await;
}

/// `p` says `text` in its page's chat and waits until the server has it
/// (its own line comes back: the input empties).
async fn say(p: &Browser, text: &str) {
    p.fill("[data-test=chat-input]", text).await;
    p.click("[data-test=chat-send]").await;
    p.until_js("the line heard", "return document.querySelector('[data-test=chat-input]').value === '' || null;").await;
}

/// The chat lines on `p`'s page, as "speaker: text".
async fn chat_lines(p: &Browser) -> Vec<String> {
    let v = p
        .client()
        .execute(
            "return [...document.querySelectorAll('[data-test=chat-line]')].map((l) => \
               l.querySelector('.chat-who').textContent + ': ' + l.querySelector('.chat-text').textContent);",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(v).unwrap()
}

/// Names chosen in the lobby are the seats' names on every page (the
/// status, the players, the log, the end screen); the table chat goes
/// between the two players only, shown as text, and the spectators' chat
/// among spectators only; a reader's mute is kept across a reload.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn named_players_chat_between_themselves_and_spectators_among_themselves() {
    let db = Db::sqlite("browser-names-chat");
    let server = db.start();
    let base = format!("http://{}", server.addr);
    scenario("names-chat", &base, |scene| async move {
        let (a, b, s) = (scene.browser("alice").await, scene.browser("bob").await, scene.browser("spectator").await);
        // A name the server's rules refuse is said in words and not kept.
        a.wait("[data-test=lobby][data-ready=true]").await;
        a.fill("[data-test=name-input]", "<b>Ada</b>").await;
        a.click("[data-test=name-save]").await;
        assert!(a.text("[data-test=name-error]").await.contains("letters, digits, spaces"));
        take_name(&a, "Ada").await;
        take_name(&b, "Brünhild").await;
        let id = a_duel_in_play(&a, &b, &s).await;
        for p in [&a, &b, &s] {
            p.wait("[data-test=player][data-seat='0'] [data-test=player-name]").await;
            let names = [
                p.text("[data-test=player][data-seat='0'] [data-test=player-name]").await,
                p.text("[data-test=player][data-seat='1'] [data-test=player-name]").await,
            ];
            assert!(names[0].contains("Ada") && names[1].contains("Brünhild"), "{}: {names:?}", p.name);
        }
        assert!(a.text("[data-test=you]").await.contains("Ada"));

        // The players talk; markup is text; the spectator reads none of it.
        let said = "Good luck <b>Brünhild</b>";
        say(&a, said).await;
        b.until_js("Ada's line", "return document.querySelector('[data-test=chat-line][data-seat=\"0\"]') || null;")
            .await;
        for p in [&a, &b] {
            let lines = chat_lines(p).await;
            assert!(lines.iter().any(|l| l.starts_with("Ada") && l.ends_with(said)), "{}: {lines:?}", p.name);
            assert!(!p.exists("[data-test=chat-line] .chat-text *").await, "{}: the line is text, not markup", p.name);
        }
        say(&b, "Thanks, Ada").await;
        a.wait("[data-test=chat-line][data-seat='1']").await;
        // Spectators talk among themselves: a second spectator reads it, the
        // players do not (a players' line said after it reaches them first).
        let s2 = scene.browser("spectator2").await;
        s2.goto(&format!("/watch/{id}")).await;
        s2.wait("[data-test=match][data-role=spectator] [data-test=chat]").await;
        say(&s, "Who wins this?").await;
        s2.wait("[data-test=chat-line][data-seat='']").await;
        assert_eq!(chat_lines(&s2).await, vec!["a spectator: Who wins this?".to_owned()]);
        for sp in [&s, &s2] {
            let lines = chat_lines(sp).await;
            assert!(lines.iter().all(|l| l.starts_with("a spectator")), "{}: no player's line {lines:?}", sp.name);
            assert!(!sp.ws_frames().await.iter().any(|f| f.contains("Good luck")), "{}: no players' frame", sp.name);
        }
        say(&a, "After the spectators").await;
        b.until_js("the third line", "return document.querySelectorAll('[data-test=chat-line]').length === 3 || null;")
            .await;
        for p in [&a, &b] {
            assert!(!p.exists("[data-test=chat-line][data-seat='']").await, "{}: no spectator's line", p.name);
            assert!(
                !p.ws_frames().await.iter().any(|f| f.contains("Who wins this?")),
                "{}: no spectators' frame",
                p.name
            );
        }
        scene.screenshot_of(&b, "duel-chat", Some("[data-test=chat]")).await;

        // Bob mutes the chat: kept across a reload, on his page only.
        b.click("[data-test=chat-mute]").await;
        b.wait("[data-test=chat][data-muted=true]").await;
        assert!(!b.exists("[data-test=chat-line]").await);
        b.reload().await;
        b.wait("[data-test=chat][data-muted=true] [data-test=chat-muted]").await;
        assert!(!b.exists("[data-test=chat-line]").await, "muted after a reload");
        assert_eq!(a.all("[data-test=chat-line]").await.len(), 3);

        // The end: each reader's words name the player.
        resign(&a).await;
        for (p, words) in [(&a, "You resigned."), (&b, "Ada resigned."), (&s, "Ada resigned.")] {
            p.wait("[data-test=end][data-ending=resigned]").await;
            assert_eq!(p.text("[data-test=end-reason]").await, words, "{}", p.name);
        }
        assert_eq!(s.text("[data-test=end-title]").await, "Brünhild won");
        assert!(s.text("[data-test=log]").await.contains("Ada resigned"), "the log names the seat");
        scene.screenshot_of(&s, "duel-end-named", Some("[data-test=end]")).await;
    })
    .await;
}

/// "Continue on another device": a code made on a playing page brings the
/// seat to a second browser (its link holds the code, never the seat
/// token), and is refused the second time; a player's own invite link
/// takes them to their seat, with no join asked of the server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_moves_to_another_browser_once_per_code_and_the_invite_link_leads_home() {
    let db = Db::sqlite("browser-transfer");
    let server = db.start();
    let base = format!("http://{}", server.addr);
    scenario("transfer", &base, |scene| async move {
        let (a, b, s) = (scene.browser("alice").await, scene.browser("bob").await, scene.browser("spectator").await);
        let id = a_duel_in_play(&a, &b, &s).await;
        assert!(!s.exists("[data-test=transfer]").await, "a spectator has no seat to move");

        // Each player's invite link, opened again, leads to their own seat.
        let code = a
            .client()
            .execute(
                "return JSON.parse(localStorage.getItem('athlas.games'))[arguments[0]].join_code;",
                vec![id.clone().into()],
            )
            .await
            .unwrap();
        let code = code.as_str().expect("the creator keeps its join code").to_owned();
        for (p, seat) in [(&a, "0"), (&b, "1")] {
            p.goto(&format!("/join/{code}")).await;
            p.wait(&format!("[data-test=match][data-match-id='{id}'][data-seat='{seat}'][data-phase=play]")).await;
            assert_eq!(p.path().await, format!("/match/{id}"), "{}", p.name);
            let errors: Vec<String> = p.console().await.into_iter().filter(|l| l.starts_with("SEVERE")).collect();
            assert!(errors.is_empty(), "{}: no refused join in the console: {errors:?}", p.name);
        }

        // Alice makes a code for her seat.
        a.click("[data-test=transfer-toggle]").await;
        a.click("[data-test=transfer-make]").await;
        a.wait("[data-test=transfer][data-state=made] [data-test=transfer-code]").await;
        let shown = a.text("[data-test=transfer-code]").await;
        let link = a.attr("[data-test=transfer-link]", "href").await.unwrap();
        assert!(link.ends_with(&format!("/transfer/{shown}")), "{link}");
        let expires: i64 = a.attr("[data-test=transfer-expires]", "data-expires-at").await.unwrap().parse().unwrap();
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
        assert!((now + 9 * 60_000..=now + 11 * 60_000).contains(&expires), "valid about 10 minutes");
        let token = a
            .client()
            .execute(
                "return JSON.parse(localStorage.getItem('athlas.games'))[arguments[0]].token;",
                vec![id.clone().into()],
            )
            .await
            .unwrap();
        let token = token.as_str().unwrap().to_owned();
        assert!(!a.html().await.contains(&token), "the seat token is never on the page");
        scene.screenshot_of(&a, "duel-transfer", Some("[data-test=transfer]")).await;

        // Her phone opens the link: seat 0, playing, with a token of its own.
        let phone = scene.browser("phone").await;
        let path = format!("/transfer/{shown}");
        phone.goto(&path).await;
        phone.wait(&format!("[data-test=match][data-match-id='{id}'][data-seat='0'][data-phase=play]")).await;
        assert_eq!(phone.path().await, format!("/match/{id}"));
        let theirs = phone
            .client()
            .execute(
                "return JSON.parse(localStorage.getItem('athlas.games'))[arguments[0]].token;",
                vec![id.clone().into()],
            )
            .await
            .unwrap();
        assert!(theirs.as_str().is_some_and(|t| !t.is_empty() && t != token), "a new token of the same seat");
        // The phone plays the seat: its resignation ends the game for both.
        resign(&phone).await;
        for p in [&a, &b, &phone] {
            p.wait("[data-test=end][data-ending=resigned][data-winner='1']").await;
        }

        // The code is used: a second browser is told so in words.
        let other = scene.browser("other").await;
        other.goto(&path).await;
        other.wait("[data-test=transfer-refused][data-code=transfer_used]").await;
        assert!(other.text("[data-test=transfer-refused]").await.contains("already used"));
        assert!(!other.exists("[data-test=match]").await);
    })
    .await;
}

/// Flood ("up to 4 hexes anywhere", L1469-1471) is one choice on the page,
/// not one per hex: the seat clicks two hexes (the first click opens the
/// choice with that hex, a chosen hex clicked again is taken back), the
/// count says so, and Cast floods both, on every page.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_floods_two_hexes_by_clicking_them_and_casting() {
    let db = Db::sqlite("browser-flood");
    let server = db.start();
    let base = format!("http://{}", server.addr);
    scenario("flood", &base, |scene| async move {
        let a = scene.browser("alice").await;
        let b = scene.browser("bob").await;
        let s = scene.browser("spectator").await;
        // Seat 1 holds the aquatic preset: Flood on top of its stack, and a
        // DI may be cast on either seat's turn.
        a_duel_in_play(&a, &b, &s).await;
        b.click("[data-test=di] [data-test=cast-di]").await;
        let js = "const all = document.querySelectorAll('[data-test=hex]').length; \
                  const hot = [...document.querySelectorAll('[data-test=hex][data-hot~=target]')]; \
                  if (!all || hot.length !== all) return null; \
                  return hot.filter((e) => e.dataset.terrain === 'plains').slice(0, 2).map((e) => `${e.dataset.q},${e.dataset.r}`);";
        let two: Vec<String> = serde_json::from_value(b.until_js("every hex a Flood target", js).await).unwrap();
        let hex = |k: &str| {
            let (q, r) = k.split_once(',').unwrap();
            format!("[data-test=hex][data-q='{q}'][data-r='{r}']")
        };
        b.click(&hex(&two[0])).await;
        b.wait("[data-test=mode][data-mode=hexes][data-chosen='1'][data-up-to='4']").await;
        b.click(&hex(&two[1])).await;
        b.wait("[data-test=mode][data-mode=hexes][data-chosen='2']").await;
        b.click(&hex(&two[1])).await;
        b.wait("[data-test=mode][data-mode=hexes][data-chosen='1']").await;
        b.click(&hex(&two[1])).await;
        b.wait("[data-test=mode][data-mode=hexes][data-chosen='2']").await;
        b.wait(&format!("{}[data-hot~=chosen]", hex(&two[0]))).await;
        assert_eq!(b.text("[data-test=hexes-count]").await, "2 of 4 chosen");
        scene.screenshot_of(&b, "duel-flood-choice", Some("[data-test=board]")).await;
        b.click("[data-test=cast-hexes]").await;
        b.wait_gone("[data-test=mode][data-mode=hexes]").await;
        // Seat 0 answers (or is passed for); then both hexes are water everywhere.
        let water = format!(
            "return ['{}', '{}'].every((k) => {{ const [q, r] = k.split(','); \
             return document.querySelector(`[data-test=hex][data-q='${{q}}'][data-r='${{r}}']`)?.dataset.terrain === 'water'; }}) || null;",
            two[0], two[1]
        );
        let pass = "[data-test=window] [data-test=action][data-type=pass]";
        for _ in 0..100 {
            if b.client().execute(&water, vec![]).await.ok().and_then(|v| v.as_bool()) == Some(true) {
                break;
            }
            if a.exists(pass).await {
                a.click(pass).await;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        for p in [&a, &b, &s] {
            p.until_js("both hexes flooded", &water).await;
        }
        let cast = b.text("[data-test=log]").await;
        assert!(cast.contains("Flood"), "{cast}");
        for q in [&a, &b] {
            let errors: Vec<String> = q.console().await.into_iter().filter(|l| l.starts_with("SEVERE")).collect();
            assert!(errors.is_empty(), "{}: console errors {errors:?}", q.name);
        }
    })
    .await;
}
