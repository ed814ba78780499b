//! Processes a program under test leaves behind outside its process group, found and killed.
//!
//! The runner kills a program's whole process group, but a descendant that called `setsid` (or
//! `setpgid`) has left it. On Linux arbiter makes itself a *child subreaper*
//! (`PR_SET_CHILD_SUBREAPER`): a descendant whose parent dies is then adopted by arbiter rather
//! than by `init`. After each run, [`sweep`] kills and reaps every adopted child that is not a
//! program still running, again until none is left, since killing one makes its own children
//! orphans in turn.
//!
//! What is caught: any descendant that has left the group, however deep, once the chain of
//! processes between it and the program has died (the run kills the group, so it does at the
//! end of the run). What is not: a process that another process started on the program's
//! behalf (a daemon asked over a socket, `systemd-run`, `at`), a descendant that makes itself a
//! subreaper and is killed while its own orphans are still adopting (they are then caught by the
//! next sweep), and anything on systems other than Linux. A process that leaves its group while
//! jobs run in parallel is killed by whichever run ends next, perhaps while its own program still
//! runs: a program under test must not leave its session.
//!
//! Only arbiter's children outside arbiter's own process group are swept: the programs are
//! started in groups of their own, and anything else arbiter starts (a compiler, in tests)
//! stays in arbiter's group and is left alone.

use std::io;
use std::process::{Child, Command};
use std::sync::{Mutex, Once};

use rustix::process::Pid;

/// The programs running now: a sweep leaves them to their runs.
static RUNNING: Mutex<Vec<Pid>> = Mutex::new(Vec::new());

/// Starts `command` (which must start a process group of its own) as a program a sweep leaves
/// alone until [`finished`] is called with it.
pub(crate) fn spawn(command: &mut Command) -> io::Result<Child> {
    adopt_orphans();
    // The lock spans the start: a sweep in another thread must not see the new child before it
    // is known to be running.
    let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    let child = command.spawn()?;
    running.push(Pid::from_child(&child));
    Ok(child)
}

/// The program `pid` has been reaped: no longer running.
pub(crate) fn finished(pid: Pid) {
    RUNNING.lock().unwrap_or_else(|e| e.into_inner()).retain(|&p| p != pid);
}

/// Makes arbiter the adopter of its descendants' orphans, once.
fn adopt_orphans() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        #[cfg(target_os = "linux")]
        {
            // Without it, nothing is adopted and sweeps find nothing: the group kill still holds.
            let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
        }
    });
}

/// The most rounds of a sweep: each round kills one more generation of descendants.
const ROUNDS: usize = 64;

/// Kills and reaps every adopted orphan, and the orphans that killing makes, until none is left.
pub(crate) fn sweep() {
    let own_group = rustix::process::getpgrp();
    for _ in 0..ROUNDS {
        let orphans: Vec<Pid> = {
            let running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
            children()
                .into_iter()
                .filter(|pid| !running.contains(pid))
                .filter(|&pid| rustix::process::getpgid(Some(pid)).is_ok_and(|g| g != own_group))
                .collect()
        };
        if orphans.is_empty() {
            return;
        }
        for &pid in &orphans {
            let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
        }
        for pid in orphans {
            let _ = rustix::process::waitpid(Some(pid), rustix::process::WaitOptions::empty());
        }
    }
}

/// arbiter's children, from every thread's `children` list in `/proc`; none where `/proc` does
/// not list them.
fn children() -> Vec<Pid> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for task in tasks.flatten() {
        let Ok(list) = std::fs::read_to_string(task.path().join("children")) else {
            continue;
        };
        found.extend(
            list.split_ascii_whitespace()
                .filter_map(|pid| pid.parse::<i32>().ok())
                .filter_map(Pid::from_raw),
        );
    }
    found
}
