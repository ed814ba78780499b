//! What the tests share.

pub mod postgres;
