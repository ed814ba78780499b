//! Which seats of which live games have a page open on them (a player's socket, one that said
//! hello with the seat's token), and since when a seat has had none: what the lobby's rule of
//! claiming a game whose opponent is gone reads. Counted by the sockets of this server only.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use arbiter_live::{GameId, Seat};

/// Which seats of which games have a page open on them, and since when each has had none.
#[derive(Debug, Default)]
pub(crate) struct Presence(Mutex<HashMap<(GameId, Seat), Seen>>);

#[derive(Debug, Clone, Copy)]
struct Seen {
    sockets: usize,
    /// Since when no socket holds the seat.
    gone_since: Option<u64>,
}

impl Presence {
    fn seen(&self) -> MutexGuard<'_, HashMap<(GameId, Seat), Seen>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A page of `seat` in game `id` opened its socket.
    pub(crate) fn arrived(&self, id: &GameId, seat: Seat) {
        let mut seen = self.seen();
        let entry = seen.entry((id.clone(), seat)).or_insert(Seen { sockets: 0, gone_since: None });
        entry.sockets += 1;
        entry.gone_since = None;
    }

    /// A page of `seat` in game `id` closed its socket at `now`.
    pub(crate) fn left(&self, id: &GameId, seat: Seat, now: u64) {
        let mut seen = self.seen();
        if let Some(entry) = seen.get_mut(&(id.clone(), seat)) {
            entry.sockets = entry.sockets.saturating_sub(1);
            if entry.sockets == 0 {
                entry.gone_since = Some(now);
            }
        }
    }

    /// Since when `seat` of game `id` has had no page open: `None` while one is open, or if
    /// none ever was on this server (nobody is known gone then).
    pub(crate) fn gone_since(&self, id: &GameId, seat: Seat) -> Option<u64> {
        self.seen().get(&(id.clone(), seat)).and_then(|seen| seen.gone_since)
    }

    /// Forgets the game `id`, once over.
    pub(crate) fn forget(&self, id: &GameId) {
        self.seen().retain(|(game, _), _| game != id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_is_gone_once_its_last_socket_closed() {
        let presence = Presence::default();
        let id = GameId::parse("abcdefghij").unwrap();
        assert_eq!(presence.gone_since(&id, Seat::Red), None, "never seen: not known gone");
        presence.arrived(&id, Seat::Red);
        presence.arrived(&id, Seat::Red);
        presence.left(&id, Seat::Red, 100);
        assert_eq!(presence.gone_since(&id, Seat::Red), None, "one page still open");
        presence.left(&id, Seat::Red, 200);
        assert_eq!(presence.gone_since(&id, Seat::Red), Some(200));
        assert_eq!(presence.gone_since(&id, Seat::Blue), None);
        presence.arrived(&id, Seat::Red);
        assert_eq!(presence.gone_since(&id, Seat::Red), None, "back");
        presence.forget(&id);
        assert!(presence.seen().is_empty());
    }
}
