//! The machine a match runs on: the cores its engines may be pinned to (`--affinity`), and the
//! load average that makes a timed match unfair.
//!
//! ```
//! use arbiter_duck_match::machine::load_warning;
//!
//! // 8 cores, 2 games at a time (4 engine processes, 2 cores each to spare): a load of 5.1 is
//! // more than the 4 cores left over.
//! let warning = load_warning("5.10 4.00 3.00 2/345 6789", 8, 2).unwrap();
//! assert!(warning.starts_with("the 1-minute load average is 5.10 on 8 cores"), "{warning}");
//! assert_eq!(load_warning("3.90 9.00 9.00 1/1 1", 8, 2), None);
//! assert_eq!(load_warning("garbage", 8, 2), None);
//! ```
//!
//! Time is measured by the runner, waiting for a CPU included (see [`clock`](super::clock)), so
//! a match with time limits is only fair when each engine gets a core when it wants one. Each
//! game runs two engine processes; the warning comes when the 1-minute load average of the
//! machine (from `/proc/loadavg`) is above the cores less two per concurrent game: the work
//! already there would have to share the engines' cores.
//!
//! With `--affinity`, each engine process is pinned to a core of its own, as fastchess does:
//! the `e`-th engine of worker `w` (from 0) to the `(w · engines + e)`-th of the cores this
//! process may run on, going round again when there are more processes than cores (they then
//! share cores, and the runner says so). On systems other than Linux pinning is not available
//! and the option is an error.

use std::io;

/// The cores this process may run on, in order: its affinity mask on Linux, else every core.
pub fn cores() -> Vec<usize> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `set` is a plain bit set that `sched_getaffinity` fills, of the size given.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        let size = std::mem::size_of::<libc::cpu_set_t>();
        // SAFETY: pid 0 is this thread; `set` is valid for writes of `size` bytes.
        if unsafe { libc::sched_getaffinity(0, size, &raw mut set) } == 0 {
            // SAFETY: `CPU_ISSET` only reads the set, at an index below its capacity.
            let cores: Vec<usize> = (0..libc::CPU_SETSIZE as usize)
                .filter(|&core| unsafe { libc::CPU_ISSET(core, &set) })
                .collect();
            if !cores.is_empty() {
                return cores;
            }
        }
    }
    let count = std::thread::available_parallelism().map_or(1, usize::from);
    (0..count).collect()
}

/// Pins the process that is about to run `command` to `core`: the child is pinned between
/// `fork` and `exec`, so that every thread the engine starts inherits the mask.
pub fn pin(command: &mut std::process::Command, core: usize) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: between fork and exec the closure only fills a set on the stack and makes one
        // system call, both async-signal-safe; it allocates nothing.
        unsafe {
            command.pre_exec(move || {
                let mut set: libc::cpu_set_t = std::mem::zeroed();
                libc::CPU_SET(core, &mut set);
                let size = std::mem::size_of::<libc::cpu_set_t>();
                if libc::sched_setaffinity(0, size, &raw const set) == 0 {
                    Ok(())
                } else {
                    Err(io::Error::last_os_error())
                }
            });
        }
        Ok(())
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (command, core);
        Err(io::Error::new(io::ErrorKind::Unsupported, "pinning to a core needs Linux"))
    }
}

/// The core of the `engine`-th engine process of worker `worker`, among `cores`.
pub fn core_of(cores: &[usize], engines: usize, worker: usize, engine: usize) -> Option<usize> {
    if cores.is_empty() {
        return None;
    }
    Some(cores[(worker * engines + engine) % cores.len()])
}

/// The load an idle machine shows anyway (a shell, the system's own daemons), which a match can
/// bear: a warning for a load of 0.1 would be given on every machine and soon ignored.
pub const IDLE_LOAD: f64 = 0.5;

/// The warning a timed match deserves on a machine whose `/proc/loadavg` reads `loadavg`, with
/// `cores` cores and `concurrency` games at a time; `None` if the load leaves the engines their
/// cores, give or take [`IDLE_LOAD`] (or cannot be read).
pub fn load_warning(loadavg: &str, cores: usize, concurrency: usize) -> Option<String> {
    let load: f64 = loadavg.split_whitespace().next()?.parse().ok()?;
    let spare = cores as f64 - 2.0 * concurrency as f64;
    (load.is_finite() && load > spare.max(0.0) + IDLE_LOAD).then(|| {
        format!(
            "the 1-minute load average is {load:.2} on {cores} cores, above the {} left beside \
             {concurrency} game(s) of two engines: the engines will wait for CPUs, and the time \
             they wait counts on their clocks (lower --concurrency, or limit depth or nodes)",
            spare.max(0.0)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engines_go_round_the_cores() {
        let cores = [2, 3, 5];
        let placed: Vec<Option<usize>> = (0..2)
            .flat_map(|worker| (0..2).map(move |engine| core_of(&cores, 2, worker, engine)))
            .collect();
        assert_eq!(placed, [Some(2), Some(3), Some(5), Some(2)]);
        assert_eq!(core_of(&[], 2, 0, 0), None);
        assert!(!super::cores().is_empty());
    }

    #[test]
    fn the_load_is_compared_with_the_cores_left() {
        assert!(load_warning("0.51 0 0", 2, 1).is_some(), "2 cores, both for the engines");
        assert_eq!(load_warning("0.16 0 0", 2, 1), None, "an idle machine's own load");
        assert_eq!(load_warning("2.49 0 0", 4, 1), None);
        assert!(load_warning("2.51 0 0", 4, 1).is_some());
        assert!(load_warning("0.60 0 0", 2, 2).is_some(), "more engines than cores");
        assert_eq!(load_warning("", 4, 1), None);
        assert_eq!(load_warning("NaN", 4, 1), None);
    }
}
