//! Training the engine's NNUE network: [`record`], the compact binary file of self-play
//! positions; [`selfplay`], the games that fill it; [`net`], the float network the trainer
//! fits and its quantisation to the engine's [`Network`](arbiter_duck_engine::nnue::Network);
//! [`trainer`], the training loop; [`output`], the network file written at the end of a run
//! without ever destroying an input.

pub mod net;
pub mod output;
pub mod record;
pub mod selfplay;
pub mod trainer;
