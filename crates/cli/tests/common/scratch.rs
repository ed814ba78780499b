//! A scratch directory for a test, under the build's target directory, removed at the end.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// A scratch directory, made empty, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// The directory `arbiter-NAME-PID` under the build's scratch space, made empty.
    pub fn new(name: &str) -> Scratch {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("arbiter-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// `name` in the directory.
    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
