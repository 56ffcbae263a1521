//! Nim, the toy game, through the terminal client: two `athlas --bot
//! --game nim` processes create and join a match on a server and play it
//! to its end from the legal lists the server sends, without an error
//! frame; `athlas verify` then checks the finished match.

mod support;

use std::{
    io::{BufRead, BufReader},
    process::{Command, Stdio},
};

use serde_json::Value;

fn athlas(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_athlas"));
    cmd.args(args).env_remove("ATHLAS_SERVER").stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_terminal_bots_play_nim_to_its_end_and_verify_it() {
    let dir = std::env::temp_dir().join(format!("athlas-nim-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (_hub, _, url) = support::server(&dir).await;
    let (out0, out1, verify) = tokio::task::spawn_blocking(move || {
        let common = ["--game", "nim", "--server", &url, "--fail-on-error", "--linger-ms", "200"];
        let mut creator = athlas(&[&["--bot", "--create", "--seed", "1"][..], &common[..]].concat()).spawn().unwrap();
        let mut out = BufReader::new(creator.stdout.take().unwrap());
        let mut first = String::new();
        out.read_line(&mut first).unwrap();
        let created: Value = serde_json::from_str(&first).unwrap_or_else(|_| panic!("a created line: {first}"));
        let code = created["join_code"].as_str().unwrap().to_owned();
        let drain = std::thread::spawn(move || {
            let mut rest = String::new();
            std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
            rest
        });
        let joiner = athlas(&[&["--bot", "--join", &code, "--seed", "2"][..], &common[..]].concat()).output().unwrap();
        let rest = drain.join().unwrap();
        assert!(creator.wait().unwrap().success() && joiner.status.success(), "both bots finish");
        let match_id = created["match_id"].as_str().unwrap().to_owned();
        let verify = athlas(&["verify", &match_id, "--server", &url]).output().unwrap();
        (rest, String::from_utf8_lossy(&joiner.stdout).to_string(), verify)
    })
    .await
    .unwrap();
    for out in [&out0, &out1] {
        assert!(!out.contains(r#""type":"error""#), "an error frame: {out}");
        let last = out
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter_map(|v| v.get("status").cloned())
            .next_back();
        assert_eq!(last.expect("frames with a status")["status"], "finished");
        assert!(out.contains("took the last counter and won"), "the log in the engine's words");
    }
    let said = String::from_utf8_lossy(&verify.stdout);
    assert!(verify.status.success(), "athlas verify: {said}{}", String::from_utf8_lossy(&verify.stderr));
}
