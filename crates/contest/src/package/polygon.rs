//! A Polygon package.

use super::Package;
use super::contents::Contents;

/// The package of `contents` in Polygon's layout.
pub fn layout(_contents: &Contents) -> Package {
    Package::default()
}
