//! What a ruleset must be for this server to host it: a room task owns its
//! values and the audit and replay fold them on any thread. Its own module,
//! below the room, the audit and the replay that all take it as a bound, so
//! none of them imports another for it.

use athlas_engine::Ruleset;

/// A ruleset a room task can own: its values may cross threads.
pub trait Hosted:
    Ruleset<State: Send + Sync, Options: Send + Sync, Action: Send + Sync, Event: Send + Sync, View: Send + Sync> + 'static
{
}

impl<R> Hosted for R where
    R: Ruleset<State: Send + Sync, Options: Send + Sync, Action: Send + Sync, Event: Send + Sync, View: Send + Sync>
        + 'static
{
}
