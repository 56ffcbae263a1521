//! `https://` and `wss://` servers: docs/OPERATIONS.md tells operators to put
//! TLS in front of Athlas, so the client must speak it. A TLS proxy with a
//! self-signed certificate (trusted through `SSL_CERT_FILE`, which the
//! client's system-roots loader honours) stands in front of a real server;
//! the `athlas` binary creates a match through it, and the client's link
//! says hello over `wss://`.
//!
//! Its own test binary, because it sets `SSL_CERT_FILE` for the process.

mod support;

use std::{sync::Arc, time::Duration};

use athlas_client::net::{Backoff, Identity, Link, LinkEvent, ServerAddr};
use serde_json::Value;
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::{
    rustls::{self, pki_types},
    TlsAcceptor,
};

/// A TLS proxy on a free port in front of `backend`; returns its port.
async fn tls_proxy(backend: std::net::SocketAddr, cert: &rcgen::CertifiedKey) -> u16 {
    let chain = vec![cert.cert.der().clone()];
    let key = pki_types::PrivateKeyDer::Pkcs8(cert.key_pair.serialize_der().into());
    let config = rustls::ServerConfig::builder().with_no_client_auth().with_single_cert(chain, key).unwrap();
    let acceptor = TlsAcceptor::from(Arc::new(config));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        loop {
            let (socket, _) = listener.accept().await.unwrap();
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(socket).await else { return };
                let mut plain = TcpStream::connect(backend).await.unwrap();
                let _ = tokio::io::copy_bidirectional(&mut tls, &mut plain).await;
            });
        }
    });
    port
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_plays_through_https_and_wss() {
    let root = std::env::temp_dir().join(format!("athlas-tls-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("players")).unwrap();

    let (_hub, backend, _) = support::server(&root.join("store")).await;

    let cert = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
    let ca = root.join("ca.pem");
    std::fs::write(&ca, cert.cert.pem()).unwrap();
    // Before any TLS is set up in this process: trust only our certificate.
    std::env::set_var("SSL_CERT_FILE", &ca);
    let port = tls_proxy(backend, &cert).await;
    let server = format!("https://localhost:{port}");

    // The lobby over https, with the real binary.
    let cwd = root.join("players");
    let created = tokio::task::spawn_blocking({
        let (cwd, server, ca) = (cwd.clone(), server.clone(), ca.clone());
        move || {
            std::process::Command::new(env!("CARGO_BIN_EXE_athlas"))
                .args(["create", "duel", "--no-ui", "--server", &server])
                .current_dir(cwd)
                .env("SSL_CERT_FILE", ca)
                .env_remove("ATHLAS_STATE_DIR")
                .output()
                .unwrap()
        }
    })
    .await
    .unwrap();
    let out = String::from_utf8_lossy(&created.stdout).to_string() + &String::from_utf8_lossy(&created.stderr);
    assert!(created.status.success(), "{out}");
    assert!(out.contains(&format!("--server {server}")), "the saved seat remembers https: {out}");
    let token = {
        let dir = cwd.join(".athlas");
        let sub = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).find(|p| p.is_dir()).unwrap();
        let file = std::fs::read_dir(sub).unwrap().next().unwrap().unwrap().path();
        let saved: Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
        saved["token"].as_str().unwrap().to_owned()
    };

    // Play over wss: the link says hello and is welcomed to seat 0.
    let addr = ServerAddr::parse(&server).unwrap();
    assert!(addr.ws().starts_with("wss://"));
    let mut link = Link::spawn(addr.ws(), Identity::Seat { token }, None, Backoff::default());
    let welcome = tokio::time::timeout(Duration::from_secs(15), async {
        loop {
            match link.next().await {
                Some(LinkEvent::Frame(f)) => {
                    let v: Value = serde_json::from_str(&f).unwrap();
                    if v["type"] == "welcome" {
                        return v;
                    }
                }
                Some(LinkEvent::GaveUp { reason }) => panic!("gave up: {reason}"),
                Some(_) => {}
                None => panic!("the link ended"),
            }
        }
    })
    .await
    .expect("a welcome over wss");
    assert_eq!(welcome["seat"], 0);
    let _ = std::fs::remove_dir_all(&root);
}
