//! What committing a game does for the accounts, inside the commit's transaction, in each store:
//! a paired game's first commit records its pairing, and the commit of a rated game's end rates
//! both players, once. The stores call these; nothing here reads the stores' own types.

pub(crate) mod postgres;
pub(crate) mod sqlite;
