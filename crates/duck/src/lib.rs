//! duck rules.
