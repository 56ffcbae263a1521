//! The legal actions the server sent (`legal: [{seat, actions}]`) as one
//! menu: the receiver's own seat first, then each seat handed to it, every
//! action described in words. An entry keeps the action exactly as the
//! server listed it, so Enter sends back what the engine accepts.

use athlas_engine::divinity::DivinityAction;
use athlas_engine::Seat;
use athlas_protocol::LegalFor;
use serde_json::Value;

use super::table::Names;
use super::words;

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The seat the action is for (the receiver's own, or a handed one).
    pub seat: Seat,
    pub label: String,
    pub action: Value,
}

/// The menu of `legal` for a receiver at `you` (own seat first).
pub fn menu(n: Names<'_>, legal: &[LegalFor], you: Option<Seat>) -> Vec<Entry> {
    let mut groups: Vec<&LegalFor> = legal.iter().collect();
    groups.sort_by_key(|g| (Some(g.seat) != you, g.seat));
    let mut out = Vec::new();
    for g in groups {
        // Ending the turn goes last, away from the top where the selection
        // starts: a stray Enter should not give up a whole turn.
        let (ends, rest): (Vec<&Value>, Vec<&Value>) =
            g.actions.iter().partition(|a| a.get("type").and_then(Value::as_str) == Some("end_turn"));
        for a in rest.into_iter().chain(ends) {
            let label = match serde_json::from_value::<DivinityAction>(a.clone()) {
                Ok(parsed) => words::action(n, g.seat, &parsed),
                // A shape this client does not know: still offered, as sent.
                Err(_) => a.to_string(),
            };
            out.push(Entry { seat: g.seat, label, action: a.clone() });
        }
    }
    out
}
