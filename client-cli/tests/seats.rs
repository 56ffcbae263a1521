//! The README's flow with the real `athlas` binary: two players create and
//! join one match from the same directory. Each seat's token must survive in
//! its own file, `resume` must bring each player back to their own seat (and
//! ask which seat when it cannot know), and a second `join` after a crash
//! must say how to resume instead of a bare `match_full`.
//!
//! This is the play-test bug where player one, after `resume`, was shown
//! seat 1's hidden Divine Interventions and Alphas.

mod support;

use std::{path::Path, process::Output, time::Duration};

use athlas_client::net::{Backoff, Identity, Link, LinkEvent};
use serde_json::Value;

/// Run `athlas ARGS` in `cwd` the way a player would: no state-dir override.
async fn athlas(cwd: &Path, args: &[&str]) -> Output {
    let (cwd, args) = (cwd.to_owned(), args.iter().map(|a| a.to_string()).collect::<Vec<_>>());
    tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_athlas"))
            .args(&args)
            .current_dir(cwd)
            .env_remove("ATHLAS_STATE_DIR")
            .env_remove("ATHLAS_SERVER")
            .output()
            .unwrap()
    })
    .await
    .unwrap()
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// The value after `key ` on a line of the client's output.
fn field(out: &str, key: &str) -> String {
    out.lines()
        .find_map(|l| l.strip_prefix(&format!("{key} ")))
        .unwrap_or_else(|| panic!("no {key} in {out}"))
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned()
}

/// The seat a token really opens on the server (its `welcome`).
async fn seat_of(server: &str, token: &str) -> Option<u64> {
    let ws = format!("ws://{}/ws", server.trim_start_matches("http://"));
    let mut link = Link::spawn(ws, Identity::Seat { token: token.to_owned() }, None, Backoff::default());
    let welcome = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            if let Some(LinkEvent::Frame(f)) = link.next().await {
                let v: Value = serde_json::from_str(&f).unwrap();
                if v["type"] == "welcome" {
                    return v;
                }
            }
        }
    })
    .await
    .expect("a welcome");
    welcome["seat"].as_u64()
}

fn saved_token(cwd: &Path, seat: u8) -> String {
    let files: Vec<_> = walk(&cwd.join(".athlas"));
    let file = files
        .iter()
        .find(|p| p.to_string_lossy().ends_with(&format!(".seat{seat}.json")))
        .unwrap_or_else(|| panic!("no file of seat {seat} among {files:?}"));
    let v: Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
    assert_eq!(v["seat"], seat, "{}", file.display());
    v["token"].as_str().unwrap().to_owned()
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_in_one_directory_keep_their_own_seats() {
    let root = std::env::temp_dir().join(format!("athlas-seats-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let (store, cwd) = (root.join("store"), root.join("players"));
    std::fs::create_dir_all(&cwd).unwrap();
    let (_hub, _, url) = support::server(&store).await;

    // Terminal one creates, terminal two joins, in the same directory.
    let created = athlas(&cwd, &["create", "duel", "--no-ui", "--server", &url]).await;
    assert!(created.status.success(), "{}", text(&created));
    let out = text(&created);
    let (match_id, code) = (field(&out, "match"), field(&out, "join code"));
    assert!(out.contains(&format!("athlas resume {match_id} --seat 0")), "create says how to resume: {out}");
    let joined = athlas(&cwd, &["join", &code, "--no-ui", "--server", &url]).await;
    assert!(joined.status.success(), "{}", text(&joined));
    assert!(text(&joined).contains(&format!("athlas resume {match_id} --seat 1")), "{}", text(&joined));

    // Both tokens are kept, each opens its own seat and no other.
    let (zero, one) = (saved_token(&cwd, 0), saved_token(&cwd, 1));
    assert_ne!(zero, one);
    assert_eq!(seat_of(&url, &zero).await, Some(0));
    assert_eq!(seat_of(&url, &one).await, Some(1));

    // The token folder keeps itself out of git.
    let ignore = std::fs::read_to_string(cwd.join(".athlas/.gitignore")).unwrap();
    assert!(ignore.lines().any(|l| l.trim() == "*"));

    // `resume MATCH` cannot know which player is asking: it lists both
    // seats' commands and opens nothing.
    let resume = athlas(&cwd, &["resume", &match_id]).await;
    assert!(!resume.status.success());
    let said = text(&resume);
    assert!(said.contains("--seat 0") && said.contains("--seat 1"), "{said}");
    // `resume` alone lists the saved seats.
    let list = athlas(&cwd, &["resume"]).await;
    assert!(text(&list).contains(&format!("athlas resume {match_id} --seat 0")), "{}", text(&list));

    // Player two's client crashed; they run `join` again: told how to
    // resume, not just `match_full`, and no token file is touched.
    let again = athlas(&cwd, &["join", &code, "--no-ui", "--server", &url]).await;
    assert!(!again.status.success());
    let said = text(&again);
    assert!(said.contains(&format!("athlas resume {match_id} --seat 1")), "{said}");
    assert_eq!((saved_token(&cwd, 0), saved_token(&cwd, 1)), (zero, one));
    let _ = std::fs::remove_dir_all(&root);
}
