//! Actions and events in words: the engine's describer
//! (`athlas_engine::divinity::words`), the one every screen of Divinity
//! shares, the web page through the words the server sends with each frame.

use athlas_engine::divinity::{DivinityAction as A, DivinityEvent as E};
use athlas_engine::Seat;

use super::table::Names;

/// `seat`'s legal action in words, for the menu.
pub fn action(n: Names<'_>, seat: Seat, a: &A) -> String {
    athlas_engine::divinity::words::action(n, seat, a).text
}

/// An event in words, for the log.
pub fn event(n: Names<'_>, e: &E) -> String {
    athlas_engine::divinity::words::event(n, e)
}
