//! arena rules.
