//! `athlas-load --game divinity`: the real `athlas-load` binary against a
//! real server, parties of three bots over real sockets.

mod support;

use std::{
    path::Path,
    process::{Output, Stdio},
};

/// Run `athlas-load ARGS` in `cwd`.
async fn athlas_load(cwd: &Path, args: &[&str]) -> Output {
    let (cwd, args) = (cwd.to_owned(), args.iter().map(|a| a.to_string()).collect::<Vec<_>>());
    tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_athlas-load"))
            .args(&args)
            .current_dir(cwd)
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

/// `athlas-load --game divinity`: parties of three bots over real sockets
/// (campaign, two joins, Origins, play) report acked actions and no errors.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_generator_plays_divinity_parties() {
    let root = std::env::temp_dir().join(format!("athlas-campaign-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let (_hub, _, url) = support::server(&root).await;
    let out =
        ok(&athlas_load(&root, &["--game", "divinity", "--parties", "2", "--duration", "5", "--server", &url]).await);
    let acked: u64 = field(&out, "actions acked:").parse().unwrap_or_else(|_| panic!("{out}"));
    assert!(acked > 0, "{out}");
    assert!(out.contains("ack latency ms: p50 "), "{out}");
    // The bots answer every ack at once (the rate limit may drop a frame,
    // sent again) and race each other (rule refusals); nothing else.
    let errors = out.lines().find(|l| l.starts_with("errors:")).unwrap_or_else(|| panic!("{out}"));
    let codes: Vec<&str> = errors.split(['(', ',', ')']).skip(1).filter_map(|c| c.trim().split('=').next()).collect();
    assert!(codes.iter().all(|c| c.is_empty() || *c == "rate_limited" || !NEVER.contains(c)), "{out}");
    let _ = std::fs::remove_dir_all(&root);
}
