//! The real client across a server restart: two bots play through the
//! client's own link; mid-game the server shuts down gracefully (as on
//! SIGTERM) and starts again on the same port and store; the links reconnect
//! by themselves with their last seq, and the game plays on to its end with
//! no acknowledged action lost.

use std::{sync::Arc, time::Duration};

use athlas_client::{
    bot::Bot,
    net::{Backoff, Identity, Link, Lobby, ServerAddr},
    script::{self, Outcome, ScriptConfig},
};
use athlas_engine::duel::card::Catalogue;
use athlas_server::{Config, Hub, Registry};
use serde_json::json;
use tokio::{net::TcpListener, sync::oneshot, task::JoinHandle};

/// Start a server on `addr` over the SQLite file in `dir`; stop it by
/// sending on the returned channel, then await the handle.
async fn start(addr: std::net::SocketAddr, dir: &std::path::Path) -> (Arc<Hub>, oneshot::Sender<()>, JoinHandle<()>) {
    let config = Config { data_dir: dir.to_owned(), listen: addr, shutdown_grace_secs: 5, ..Config::default() };
    let listener = TcpListener::bind(addr).await.expect("the port is free again");
    let hub = Hub::open(config, Registry::standard()).await.unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let serving = athlas_server::serve(listener, hub.clone(), async move {
        let _ = stopped.await;
    });
    (hub, stop, tokio::spawn(async move { serving.await.unwrap() }))
}

fn accepted(hub: &Hub) -> u64 {
    let text = hub.metrics.render(&athlas_server::metrics::Gauges { connections: 0, rooms: 0, matches: vec![] });
    text.lines().find_map(|l| l.strip_prefix("athlas_actions_accepted_total ")).unwrap().parse().unwrap()
}

async fn play(addr: ServerAddr, token: String, seed: u64) -> Outcome {
    let backoff = Backoff { first: Duration::from_millis(50), max: Duration::from_millis(200), attempts: Some(100) };
    let link = Link::spawn(addr.ws(), Identity::Seat { token }, None, backoff);
    let mut bot = Bot::new(seed, Catalogue::standard());
    bot.max_actions = 60;
    let cfg = ScriptConfig { linger: Duration::from_millis(100), ..ScriptConfig::default() };
    script::run(link, Vec::new(), Some(bot), &mut std::io::sink(), cfg).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_play_on_through_a_graceful_restart() {
    let dir = std::env::temp_dir().join(format!("athlas-client-restart-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let (hub, stop, served) = start(port, &dir).await;
    let addr = ServerAddr::parse(&format!("http://{port}")).unwrap();
    let lobby = Lobby::new(addr.clone());
    let created = lobby.create("duel", json!({}), false).await.unwrap();
    let joined = lobby.join(&created.join_code).await.unwrap();
    let a = tokio::spawn(play(addr.clone(), created.token, 1));
    let b = tokio::spawn(play(addr.clone(), joined.token, 2));

    // Mid-game: shut down as on SIGTERM, then start again on the same port.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while accepted(&hub) < 20 {
        assert!(tokio::time::Instant::now() < deadline, "the bots did not get going");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    stop.send(()).unwrap();
    served.await.unwrap();
    let before = accepted(&hub);
    drop(hub);
    let (hub, stop, served) = start(port, &dir).await;

    let (a, b) = tokio::time::timeout(Duration::from_secs(60), async { (a.await.unwrap(), b.await.unwrap()) })
        .await
        .expect("the game ends");
    assert!(a.finished && b.finished, "{a:?} {b:?}");
    assert!(accepted(&hub) > 0, "the game went on after the restart");
    // Every acknowledged action is in the log: the final seq counts them all.
    let summary = lobby.get_match(&created.match_id).await.unwrap();
    assert_eq!(summary.status, "finished");
    assert!(summary.seq >= a.acked + b.acked, "seq {} < acked {} + {}", summary.seq, a.acked, b.acked);
    assert!(summary.seq >= before);
    stop.send(()).unwrap();
    served.await.unwrap();
}
