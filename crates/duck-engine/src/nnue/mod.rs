//! An efficiently updatable neural network (NNUE) evaluation: [`features`], the inputs a position
//! gives, shared with the trainer; [`network`], the quantised [`Network`], its `.nnue` file and a
//! from-scratch evaluation, the reference for the search's incremental one.

pub mod features;
pub mod network;

pub use network::{Network, NetworkError};
