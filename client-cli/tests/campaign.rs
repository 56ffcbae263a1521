//! A Divinity campaign from three terminals in one directory, with the real
//! `athlas` binary against a real server: `campaign new` with an Origin,
//! two `campaign join`s with theirs, each seat's token in its own file and
//! never on screen, `campaign status` and `campaign list` from the saved
//! seats, then three `campaign resume --bot` processes play the tutorial
//! and the next location (the host starting it), choosing only among the
//! legal actions the server lists, without one error frame.
//!
//! Needs the server side of issue 13 (campaign records, `POST
//! /api/campaigns` for Divinity, `legal` in frames).

mod support;

use std::{
    path::{Path, PathBuf},
    process::{Output, Stdio},
    time::Duration,
};

use serde_json::Value;

/// Run `athlas ARGS` in `cwd` the way a player would.
async fn athlas(cwd: &Path, args: &[&str]) -> Output {
    let (cwd, args) = (cwd.to_owned(), args.iter().map(|a| a.to_string()).collect::<Vec<_>>());
    tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_athlas"))
            .args(&args)
            .current_dir(cwd)
            .env_remove("ATHLAS_STATE_DIR")
            .env_remove("ATHLAS_SERVER")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    })
    .await
    .unwrap()
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

#[track_caller]
fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", text(o));
    text(o)
}

/// The word after `key ` on a line of the client's output.
fn field(out: &str, key: &str) -> String {
    out.lines()
        .find_map(|l| l.strip_prefix(&format!("{key} ")))
        .unwrap_or_else(|| panic!("no {key} in {out}"))
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned()
}

/// Codes that say the client or the server is wrong, not that a listed
/// action lost a race to another seat's.
const NEVER: [&str; 16] = [
    "bad_json",
    "bad_action",
    "unknown_type",
    "bad_token",
    "not_seated",
    "not_your_seat",
    "rate_limited",
    "internal",
    "campaign",
    "not_found",
    "no_token",
    "stalled",
    "gave_up",
    "bot_stuck",
    "task_panicked",
    "bot_has_no_action",
];

fn campaign_files(cwd: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![cwd.join(".athlas")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.file_name().unwrap().to_string_lossy().starts_with("campaign-") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_party_of_three_plays_two_locations_from_one_directory() {
    let root = std::env::temp_dir().join(format!("athlas-campaign-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let (store, cwd) = (root.join("store"), root.join("party"));
    std::fs::create_dir_all(&cwd).unwrap();
    let (_hub, _, url) = support::server(&store).await;

    // Three terminals, one directory: create with an Origin, two joins.
    let created = ok(&athlas(
        &cwd,
        &["campaign", "new", "divinity", "--seats", "3", "--origin", "ifan", "--no-ui", "--server", &url],
    )
    .await);
    let (id, code) = (field(&created, "campaign"), field(&created, "join code"));
    assert!(created.contains(&format!("athlas campaign resume {id} --seat 0")), "{created}");
    let mut said = created;
    for origin in ["sebille", "red_prince"] {
        said += &ok(&athlas(&cwd, &["campaign", "join", &code, "--origin", origin, "--no-ui", "--server", &url]).await);
    }

    // One file per seat, each with its own token, none of them ever printed.
    let files = campaign_files(&cwd);
    let names: Vec<String> = files.iter().map(|f| f.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, [0, 1, 2].map(|s| format!("campaign-{id}.seat{s}.json")));
    let tokens: Vec<String> = files
        .iter()
        .map(|f| {
            serde_json::from_slice::<Value>(&std::fs::read(f).unwrap()).unwrap()["token"].as_str().unwrap().to_owned()
        })
        .collect();
    assert!(tokens[0] != tokens[1] && tokens[1] != tokens[2] && tokens[0] != tokens[2]);

    // Every seat has chosen: the first location is on.
    let status = ok(&athlas(&cwd, &["campaign", "status", &id, "--seat", "1"]).await);
    assert!(status.contains("stage playing") && status.contains("(you: seat 1)"), "{status}");
    assert!(status.contains("ifan") && status.contains("sebille") && status.contains("red_prince"), "{status}");
    let list = ok(&athlas(&cwd, &["campaign", "list"]).await);
    for s in 0..3 {
        assert!(list.contains(&format!("athlas campaign resume {id} --seat {s}")), "{list}");
    }
    // Without --seat, resume cannot know who asks: it names the three seats.
    let which = athlas(&cwd, &["campaign", "resume", &id, "--bot"]).await;
    assert!(!which.status.success() && text(&which).contains("--seat 2"), "{}", text(&which));
    said += &status;
    said += &list;
    said += &text(&which);
    for t in &tokens {
        assert!(!said.contains(t.as_str()), "a token was printed");
    }

    // Three bots play the tutorial and the next location, started by
    // whoever may; none gets an error frame.
    let plays = (0..3u8).map(|seat| {
        let (cwd, id) = (cwd.clone(), id.clone());
        tokio::spawn(async move {
            let seed = (seat as u64 + 1).to_string();
            let args = ["campaign", "resume", &id, "--seat", &seat.to_string(), "--bot", "--seed", &seed];
            let more = ["--campaign-steps", "2", "--poll-ms", "200", "--linger-ms", "200"];
            athlas(&cwd, &[&args[..], &more[..]].concat()).await
        })
    });
    let plays = tokio::time::timeout(Duration::from_secs(900), futures_util::future::join_all(plays))
        .await
        .expect("the party is still playing after 15 minutes");
    for (seat, out) in plays.into_iter().enumerate() {
        let out = out.unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        // Seats the game waits for at once may race (the first `start_turn`
        // goes first): a rule refusal answering an action is expected, a
        // protocol-level code is not.
        let errors: Vec<&str> = stdout
            .lines()
            .filter(|l| l.contains(r#""type":"error""#))
            .filter(|l| {
                let v: Value = serde_json::from_str(l).unwrap_or_default();
                v["id"].is_null() || NEVER.contains(&v["code"].as_str().unwrap_or_default())
            })
            .take(3)
            .collect();
        assert!(
            out.status.success() && errors.is_empty(),
            "seat {seat}: {errors:?}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let frames: Vec<Value> = stdout.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
        let mut matches: Vec<&str> =
            frames.iter().filter(|v| v["type"] == "welcome").filter_map(|v| v["match_id"].as_str()).collect();
        matches.dedup();
        assert_eq!(matches.len(), 2, "seat {seat} played two matches: {matches:?}");
        let last = frames.iter().filter_map(|v| v.get("status")).next_back();
        assert_eq!(last.map(|s| &s["status"]), Some(&Value::from("finished")), "seat {seat} saw the second end");
    }
    let after = ok(&athlas(&cwd, &["campaign", "status", &id, "--seat", "0"]).await);
    assert!(after.contains("match 1: ") && after.contains("match 2: "), "two locations played: {after}");
    assert!(after.contains("stage between") || after.contains("stage over"), "{after}");
    let _ = std::fs::remove_dir_all(&root);
}
