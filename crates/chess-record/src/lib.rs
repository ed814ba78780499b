//! chess-record rules.
