//! A short soak against a real server: the bots play while seats drop and
//! come back, spectators come and go, and misbehaving clients try garbage,
//! oversized frames, wrong tokens, silence, not reading and half-sent
//! requests. Every misbehaving client gets its documented answer, no
//! spectator sees a gap, no bot sees an error, and the server's memory and
//! open files are sampled throughout. (The hour-long run and its figures
//! are in docs/PERFORMANCE.md; the flatness of a 30-second run says little,
//! so this test checks that it is measured, not that it is flat.)

use std::time::Duration;

use athlas_client::net::ServerAddr;
use athlas_load::load::{self, LoadConfig, LoadGame};
use athlas_server::{Config, Hub, Registry};
use tokio::net::TcpListener;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_soak_answers_every_misbehaving_client_and_loses_no_update() {
    let dir = std::env::temp_dir().join(format!("athlas-soak-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let config = Config {
        data_dir: dir.clone(),
        listen: addr,
        // As an operator runs a soak: one address plays every seat.
        lobby_per_min: 0,
        max_connections_per_ip: 0,
        // So the silent client's answer comes within the run.
        hello_timeout_secs: 2,
        ..Config::default()
    };
    let hub = Hub::open(config, Registry::standard()).await.unwrap();
    let serving = athlas_server::serve(listener, hub.clone(), std::future::pending());
    tokio::spawn(async move { serving.await.unwrap() });

    let cfg = LoadConfig {
        addr: ServerAddr::parse(&format!("127.0.0.1:{}", addr.port())).unwrap(),
        game: LoadGame::Duel,
        matches: 4,
        duration: Duration::from_secs(20),
        seed: 11,
        points: 250,
        max_actions: 60,
        idle_matches: 0,
        idle: 0,
        // Under the per-connection limit of 20 frames a second.
        think: Duration::from_millis(60),
        soak: Some(Duration::from_secs(2)),
    };
    let report = load::run(cfg).await.unwrap();
    let soak = report.soak.as_ref().expect("a soak report");
    assert_eq!(report.total_errors(), 0, "{report}");
    assert!(report.acked > 100, "{report}");
    assert!(soak.samples.len() >= 8, "{report}");
    assert!(soak.samples.iter().all(|s| s.rss.is_some() && s.fds.is_some() && s.connections.is_some()), "{report}");
    let churn = |k: &str| soak.churn.get(k).copied().unwrap_or(0);
    assert!(churn("reconnects") + churn("leaves") > 0, "{report}");
    assert!(churn("spectators") > 0 && churn("spectator_frames") > churn("spectators"), "{report}");
    for kind in ["garbage", "oversized", "silent", "wrong_token"] {
        let t = soak.misbehaved.get(kind).copied().unwrap_or_default();
        assert!(t.answered > 0 && t.failed == 0, "{kind}: {t:?}\n{report}");
    }
    for kind in ["stops_reading", "half_open"] {
        assert!(soak.misbehaved.get(kind).is_some_and(|t| t.tried > 0 && t.failed == 0), "{kind}\n{report}");
    }
    let text = report.to_string();
    for line in ["soak:", "server RSS:", "open fds:", "churn:", "misbehaving:"] {
        assert!(text.contains(line), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
