//! Training the engine's NNUE network: [`record`], the compact binary file of self-play
//! positions; [`selfplay`], the games that fill it.

pub mod record;
pub mod selfplay;
