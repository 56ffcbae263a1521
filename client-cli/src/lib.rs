//! The Athlas terminal client as a library; `main.rs` is a thin shell over it.
//!
//! Modules by noun: [`cli`] (the command line), [`net`] (the HTTP lobby and
//! the WebSocket link that reconnects by itself), [`session`] (saved seat
//! tokens), [`campaign`] (campaign commands and a seat playing match after
//! match), [`script`] (actions from a file, frames to stdout), [`bot`]
//! (random legal play from the legal lists the server sends),
//! [`games`] (one folder per game behind one trait, and their registry;
//! the duel's drafting of Alphas and a DI stack, the game screens) and [`tui`] (the
//! interactive terminal UI, its drawing as pure functions).
//!
//! **Architecture Invariant:** the client never decides what is legal. It
//! offers the actions the server listed (each frame's `legal` lists, or the
//! duel's `view.legal`), and the server's
//! answer is the truth.

pub mod bot;
pub mod campaign;
pub mod cli;
pub mod games;
pub mod net;
pub mod player;
pub mod screen;
pub mod script;
pub mod session;
// The player's fast frame read (`player`); the load generator
// (`athlas-load`, tools/load) reads every frame through it.
mod skim;
pub mod tui;
pub mod verify;
