//! Two `athlas --bot` processes on a server with the default settings (rate
//! limit included) play a whole game without a single error frame: the bot
//! paces itself inside the limit, and resigns after `--max-actions` so a
//! game between random players ends. Play-testing found `rate_limited`
//! errors here. Also: `athlas watch` of an unknown match says so at once.

mod support;

use std::{
    io::{BufRead, BufReader},
    process::{Command, Stdio},
};

use athlas_client::net::{Lobby, ServerAddr};
use athlas_server::Config;
use serde_json::Value;

fn athlas(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_athlas"));
    cmd.args(args).env_remove("ATHLAS_SERVER").stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd
}

/// The last status a bot's frames carried.
fn last_status(stdout: &str) -> Value {
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| v.get("status").cloned())
        .next_back()
        .unwrap_or(Value::Null)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_bots_finish_a_game_on_a_default_server_without_errors() {
    assert_eq!(
        (Config::default().rate_per_sec, Config::default().rate_burst),
        (20.0, 40.0),
        "the limit this test is about"
    );
    let dir = std::env::temp_dir().join(format!("athlas-bots-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (_hub, _, url) = support::server(&dir).await;
    let server_url = url.clone();

    let games = tokio::task::spawn_blocking(move || {
        let common = ["--server", &url, "--max-actions", "60", "--fail-on-error", "--linger-ms", "200"];
        let mut creator = athlas(&[&["--bot", "--create", "--seed", "1"][..], &common[..]].concat()).spawn().unwrap();
        let mut out = BufReader::new(creator.stdout.take().unwrap());
        let mut first = String::new();
        out.read_line(&mut first).unwrap();
        let created: Value = serde_json::from_str(&first).unwrap_or_else(|_| panic!("a created line: {first}"));
        let code = created["join_code"].as_str().unwrap().to_owned();
        // Keep draining the creator's frames, or its full pipe stalls the game.
        let drain = std::thread::spawn(move || {
            let mut rest = String::new();
            std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
            rest
        });
        let joiner = athlas(&[&["--bot", "--join", &code, "--seed", "2"][..], &common[..]].concat()).output().unwrap();
        let rest = drain.join().unwrap();
        let status = creator.wait().unwrap();
        let mut err = String::new();
        std::io::Read::read_to_string(&mut creator.stderr.take().unwrap(), &mut err).unwrap();
        let match_id = created["match_id"].as_str().unwrap().to_owned();
        ((status, rest, err), joiner, match_id)
    })
    .await
    .unwrap();
    let ((status0, out0, err0), joiner, match_id) = games;
    let out1 = String::from_utf8_lossy(&joiner.stdout).to_string();
    for (who, ok, out, err) in [
        ("creator", status0.success(), &out0, &err0),
        ("joiner", joiner.status.success(), &out1, &String::from_utf8_lossy(&joiner.stderr).to_string()),
    ] {
        let errors: Vec<&str> = out.lines().filter(|l| l.contains(r#""type":"error""#)).take(3).collect();
        assert!(ok && errors.is_empty(), "the {who} bot got error frames: {errors:?}\n{err}");
        assert_eq!(last_status(out)["status"], "finished", "the {who} bot saw the game end");
    }

    // The finished game's published log replays here to the same states,
    // commitments and outcome, by the library and by `athlas verify`.
    let url = server_url;
    let lobby = Lobby::new(ServerAddr::parse(&url).unwrap());
    let log = lobby.match_log(&match_id).await.unwrap();
    assert_eq!(log.commitments.len(), 2, "both seats committed");
    assert!(log.records.iter().all(|r| r.state_hash.is_some()), "every record is hashed");
    let checked = athlas_client::games::verify(&log).unwrap();
    assert_eq!(checked.lines.iter().filter(|l| l.contains("opens to the secret")).count(), 2, "{checked}");
    let mut forged = log.clone();
    let last = forged.records.len() - 1;
    forged.records[last].seat = 1 - forged.records[last].seat;
    assert!(athlas_client::games::verify(&forged).is_err(), "a record moved to the other seat is caught");
    let cli = {
        let url = url.clone();
        tokio::task::spawn_blocking(move || athlas(&["verify", &match_id, "--server", &url]).output().unwrap())
            .await
            .unwrap()
    };
    let said = String::from_utf8_lossy(&cli.stdout);
    assert!(
        cli.status.success() && said.trim_end().ends_with("verified"),
        "{said}{}",
        String::from_utf8_lossy(&cli.stderr)
    );

    // A match still going publishes nothing.
    let open = lobby.create("duel", serde_json::json!({}), false).await.unwrap();
    match lobby.match_log(&open.match_id).await {
        Err(athlas_client::net::NetError::Refused { status: 409, code, .. }) => assert_eq!(code, "not_finished"),
        other => panic!("an unfinished match's log is refused: {other:?}"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watching_an_unknown_match_says_so_at_once() {
    let dir = std::env::temp_dir().join(format!("athlas-watch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (_hub, _, url) = support::server(&dir).await;
    let unknown = "00000000-0000-4000-8000-000000000000";
    let out = tokio::time::timeout(
        std::time::Duration::from_secs(20),
        tokio::task::spawn_blocking(move || athlas(&["watch", unknown, "--server", &url]).output().unwrap()),
    )
    .await
    .expect("watch answers instead of waiting")
    .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(said.contains(unknown) && said.contains("no match"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}
