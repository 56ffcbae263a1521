//! What the client's tests share: a real server in this process, with the
//! settings a player gets by default, on a free port.
#![allow(dead_code)] // each test file uses its own part

use std::{net::SocketAddr, path::Path, sync::Arc};

use athlas_server::{Config, Hub, Registry};
use tokio::net::TcpListener;

/// A server over the SQLite store in `dir`, serving until the test ends:
/// its hub, its address and its `http://` URL.
pub async fn server(dir: &Path) -> (Arc<Hub>, SocketAddr, String) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let config = Config { data_dir: dir.to_owned(), listen: addr, ..Config::default() };
    let hub = Hub::open(config, Registry::standard()).await.unwrap();
    let serving = athlas_server::serve(listener, hub.clone(), std::future::pending());
    tokio::spawn(async move { serving.await.unwrap() });
    (hub, addr, format!("http://{addr}"))
}
