//! The server's own tests, in one test binary: each file below is a module
//! of it. One binary per file linked the server, tokio, axum and sqlx
//! again for each, the larger part of a cold `cargo test` of this package
//! (server/Cargo.toml, `autotests`). Every test starts its own server on
//! 127.0.0.1:0 over its own SQLite directory or Postgres database, so they
//! run in parallel as they did in separate binaries. Run one file's tests
//! with a filter: `cargo test -p athlas-server --test server hostile::`.

mod common;

mod audit;
mod auto_pass;
mod campaign;
mod divinity;
mod duel;
mod fuzz;
mod hostile;
mod lease;
mod push;
mod reconnect_gap;
mod refusal_doc;
mod replay;
mod seats;
mod server;
mod store;
mod table;
