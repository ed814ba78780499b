//! The Duck Chess engine and the tools around it, built on the rules of [`arbiter_duck`].
//!
//! [`protocol`] is the Universal Chess Interface as engines and GUIs speak it for this game: the
//! commands a GUI sends and the messages an engine answers, each a type that is parsed and
//! printed in one place, so the engine's front end and the match runner that hosts engines read
//! and write exactly the same lines.

#![warn(missing_docs)]

pub mod match_runner;
pub mod protocol;
