//! The players' names in a live room: read from the store when the room
//! loads (with its log, [`super::rebuild::rebuild_with_log`]) and again
//! when a seat without a name yet says hello (it took its seat, named,
//! after the room loaded), then told to everyone already here with a
//! `names` frame. A name is fixed once set, so nothing else changes it.
//! Lines told before a seat had its name keep "Seat N" until the room
//! next loads; in a duel no line names a seat before it joined.

use athlas_engine::{SeatNames, Viewer};
use athlas_protocol::ServerMsg;

use super::{Hosted, Room};

impl<R> Room<R>
where
    R: Hosted,
{
    /// Before `viewer`'s welcome: learn its seat's name if the room has
    /// none for it yet, and tell the others.
    pub(super) async fn learn_names(&mut self, viewer: Viewer) {
        let Viewer::Seat(seat) = viewer else { return };
        if self.table.names.get(seat).is_some() {
            return;
        }
        let names = match self.ctx.store.seat_names(self.id, self.record.seats).await {
            Ok(n) => SeatNames::new(n),
            Err(e) => {
                tracing::warn!(error = %e, "seat names not read");
                return;
            }
        };
        if names == self.table.names || names.is_empty() {
            return;
        }
        self.table.names = names;
        let msg = ServerMsg::Names { names: self.table.names.as_slice().to_vec() };
        for s in &self.subs {
            s.out.send(&msg);
        }
    }
}
