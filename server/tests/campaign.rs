//! Campaigns over HTTP and WebSockets (rewritten in the next commit).

mod common;
