//! The server under load: an `arbiter serve` started here on a fresh data directory, or one
//! already running; and its memory, read from `/proc/PID/status`.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use crate::LoadError;

/// An `arbiter serve` started by the load, stopped when dropped.
pub struct Started {
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
}

impl Started {
    /// Starts `binary serve --port 0 --data-dir DIR`, allowing at least `connections`
    /// connections, and reads the address it listens on.
    pub fn start(binary: &Path, data_dir: &Path, connections: usize) -> Result<Started, LoadError> {
        let failed = |error: String| LoadError::Server(format!("{}: {error}", binary.display()));
        let mut child = Command::new(binary)
            .args(["serve", "--port", "0", "--data-dir"])
            .arg(data_dir)
            .args(["--max-connections", &connections.max(1024).to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| failed(e.to_string()))?;
        let mut line = String::new();
        let stdout = child.stdout.take().ok_or_else(|| failed("no standard output".into()))?;
        BufReader::new(stdout).read_line(&mut line).map_err(|e| failed(e.to_string()))?;
        let addr = line
            .split_whitespace()
            .find_map(|word| word.strip_prefix("http://"))
            .and_then(|url| url.trim_end_matches('/').parse().ok());
        match addr {
            Some(addr) => Ok(Started { child, addr }),
            None => {
                let _ = child.kill();
                let _ = child.wait();
                Err(failed(format!("no address in its first line `{}`", line.trim())))
            }
        }
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Started {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A process's resident memory now and at its peak, in KiB (`VmRSS`, `VmHWM`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Memory {
    /// Resident now.
    pub now_kib: u64,
    /// The peak so far.
    pub peak_kib: u64,
}

/// The memory of process `pid`, if it can be read.
pub fn memory(pid: u32) -> Option<Memory> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        status.lines().find_map(|line| {
            line.strip_prefix(name)?.trim().trim_end_matches("kB").trim().parse::<u64>().ok()
        })
    };
    Some(Memory { now_kib: field("VmRSS:")?, peak_kib: field("VmHWM:")? })
}

/// A fresh directory for the server's data, under the system's temporary directory.
pub fn fresh_dir() -> Result<PathBuf, LoadError> {
    let dir = std::env::temp_dir().join(format!("arbiter-live-load-{}", std::process::id()));
    if dir.exists() {
        std::fs::remove_dir_all(&dir)?;
    }
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}
