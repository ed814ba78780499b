//! Running the program under test: input on its standard input, output from its standard output,
//! a time limit, and nothing left behind.
//!
//! ```
//! use std::time::Duration;
//! use arbiter_contest::runner::{Program, Termination, run};
//!
//! let program = Program::new(["sh".into(), "-c".into(), "tr a-z A-Z".into()]).unwrap();
//! let mut output = Vec::new();
//! let outcome = run(&program, b"yes\n", Duration::from_secs(10), &mut output).unwrap();
//! assert!(matches!(outcome.termination, Termination::Exited(status) if status.success()));
//! assert_eq!(output, b"YES\n");
//! ```
//!
//! Each run starts the program in a process group of its own. When the time is up, or when the
//! program exits, the whole group is killed, so that a program that starts helpers (a shell
//! script, say) leaves none running; helpers that left the group are adopted and killed by the
//! `orphans` module (a child subreaper). Input and output go through non-blocking pipes watched
//! with `poll`, together with a pidfd (Linux) that says when the program has exited, so a run
//! costs one process start and a few system calls, and a program that neither reads its input
//! nor exits cannot make the runner wait past the limit.

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::process::{Pid, Resource, Rlimit, Signal, kill_process_group};

use crate::orphans;

/// A program to run, its path resolved once.
#[derive(Debug, Clone)]
pub struct Program {
    path: PathBuf,
    args: Vec<OsString>,
}

/// Why a command line does not name a program that can be started.
#[derive(Debug, thiserror::Error)]
pub enum ProgramError {
    /// Nothing after `--`.
    #[error("no program given after `--`")]
    Missing,
    /// A bare name not found on `PATH`.
    #[error("`{0}` is not found on PATH")]
    NotFound(String),
    /// A path that does not name an executable file.
    #[error("`{0}` is not an executable file")]
    NotExecutable(String),
}

impl Program {
    /// The program and arguments of `command`; a name without `/` is looked up on `PATH`, as a
    /// shell does, once rather than at every start.
    pub fn new(command: impl IntoIterator<Item = OsString>) -> Result<Program, ProgramError> {
        let mut command = command.into_iter();
        let name = command.next().ok_or(ProgramError::Missing)?;
        let args = command.collect();
        let shown = name.to_string_lossy().into_owned();
        let path = if name.to_string_lossy().contains('/') {
            let path = PathBuf::from(&name);
            if !is_executable(&path) {
                return Err(ProgramError::NotExecutable(shown));
            }
            path
        } else {
            std::env::var_os("PATH")
                .iter()
                .flat_map(std::env::split_paths)
                .map(|dir| dir.join(&name))
                .find(|path| is_executable(path))
                .ok_or(ProgramError::NotFound(shown))?
        };
        Ok(Program { path, args })
    }

    /// The resolved path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Termination {
    /// The program exited (or was killed by a signal) within the limit.
    Exited(ExitStatus),
    /// The time limit passed; the program was killed.
    TimedOut,
    /// The program wrote more than its output limit ([`Limits::output`]); it was killed.
    OutputLimit,
    /// The program's peak resident memory passed its memory limit ([`Limits::memory`]).
    MemoryLimit,
}

/// What a run gives besides the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// How it ended.
    pub termination: Termination,
    /// Wall-clock time from start to exit (or kill).
    pub elapsed: Duration,
    /// The program's peak resident memory in bytes, as the kernel reports it for the reaped
    /// process (`wait4`'s `ru_maxrss`); `None` where it is not known.
    pub peak_memory: Option<u64>,
}

/// The most output kept from one run by default: far above any answer of these games.
pub const OUTPUT_LIMIT: usize = 64 << 20;

/// What one run may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time from start to exit.
    pub time: Duration,
    /// Bytes of standard output: past them the program is killed, and no more is read.
    pub output: usize,
    /// Bytes of peak resident memory; past them the run is [`Termination::MemoryLimit`]. The
    /// program's address space is also limited to [`address_space`] of it, so that a runaway
    /// program stops.
    pub memory: Option<u64>,
}

impl Limits {
    /// A time limit, with the default output limit [`OUTPUT_LIMIT`] and no memory limit.
    pub fn time(time: Duration) -> Limits {
        Limits { time, output: OUTPUT_LIMIT, memory: None }
    }
}

/// The address space (`RLIMIT_AS`) a program with memory limit `memory` gets: four times the
/// limit and 256 MiB more. An address space counts virtual memory, which runs far ahead of the
/// resident memory the limit is about: thread stacks, the allocator's arenas (64 MiB reserved
/// per thread by glibc), runtimes that reserve large ranges up front, shared libraries. The
/// margin lets a correct program map what it never touches, while a runaway program stops at a
/// bounded size instead of taking the machine's memory.
pub fn address_space(memory: u64) -> u64 {
    memory.saturating_mul(4).saturating_add(256 << 20)
}

/// The most of standard error kept by [`run_capturing`].
pub const ERROR_LIMIT: usize = 64 << 10;

/// Runs `program` on `input` with a time limit; its standard output replaces the contents of
/// `output`, its standard error is discarded. An error means the program could not be started
/// or watched.
pub fn run(
    program: &Program,
    input: &[u8],
    limit: Duration,
    output: &mut Vec<u8>,
) -> io::Result<Outcome> {
    run_limited(program, input, &Limits::time(limit), output, None)
}

/// [`run`], keeping the start of standard error in `errors` (at most [`ERROR_LIMIT`] bytes).
pub fn run_capturing(
    program: &Program,
    input: &[u8],
    limit: Duration,
    output: &mut Vec<u8>,
    errors: &mut Vec<u8>,
) -> io::Result<Outcome> {
    run_limited(program, input, &Limits::time(limit), output, Some(errors))
}

/// [`run`] within `limits`, keeping the start of standard error in `errors` when given.
pub fn run_limited(
    program: &Program,
    input: &[u8],
    limits: &Limits,
    output: &mut Vec<u8>,
    mut errors: Option<&mut Vec<u8>>,
) -> io::Result<Outcome> {
    output.clear();
    if let Some(errors) = errors.as_deref_mut() {
        errors.clear();
    }
    let start = Instant::now();
    let deadline = start + limits.time;
    let mut command = Command::new(&program.path);
    command
        .args(&program.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(if errors.is_some() { Stdio::piped() } else { Stdio::null() })
        .process_group(0);
    if let Some(memory) = limits.memory {
        let most = address_space(memory);
        // SAFETY: the closure runs in the child between fork and exec, where only
        // async-signal-safe calls may be made: `setrlimit` is one, and nothing is allocated.
        unsafe {
            command.pre_exec(move || {
                let limit = Rlimit { current: Some(most), maximum: Some(most) };
                rustix::process::setrlimit(Resource::As, limit).map_err(io::Error::from)
            });
        }
    }
    let mut child = orphans::spawn(&mut command)?;
    let mut watch = match Watch::new(&mut child) {
        Ok(watch) => watch,
        Err(error) => {
            // Not watched, so not run: it goes at once, with its group.
            let _ = kill_process_group(Pid::from_child(&child), Signal::KILL);
            let _ = reap(&child);
            orphans::finished(Pid::from_child(&child));
            return Err(error);
        }
    };
    let result = watch.pump(input, deadline, limits.output, output, errors);
    // The leader has exited or is to be killed: nothing of its group may outlive the run. The
    // leader is not reaped yet, so its pid still names this group.
    if !watch.exited {
        let _ = kill_process_group(watch.pid, Signal::KILL);
    }
    drop(watch);
    let reaped = reap(&child);
    orphans::finished(Pid::from_child(&child));
    // Whatever left the group and outlived its parent is arbiter's now: it goes too.
    orphans::sweep();
    let (status, peak_memory) = reaped?;
    let elapsed = start.elapsed();
    let over_memory = limits.memory.zip(peak_memory).is_some_and(|(limit, peak)| peak > limit);
    let termination = match result? {
        // Memory first: a program stopped by its address space fails in its own way (an abort,
        // a signal), and a program that went past its limit has failed whatever it printed.
        _ if over_memory => Termination::MemoryLimit,
        Pumped::Done => Termination::Exited(status),
        Pumped::TimedOut => Termination::TimedOut,
        Pumped::OutputLimit => Termination::OutputLimit,
    };
    Ok(Outcome { termination, elapsed, peak_memory })
}

/// How the pumping loop ended.
enum Pumped {
    Done,
    TimedOut,
    OutputLimit,
}

/// The pipes of a running child and a handle that says when it exits.
struct Watch {
    pid: Pid,
    stdin: Option<std::process::ChildStdin>,
    stdout: Option<std::process::ChildStdout>,
    stderr: Option<std::process::ChildStderr>,
    /// Readable once the child has exited; `None` where pidfds are not available.
    exit: Option<OwnedFd>,
    exited: bool,
}

impl Watch {
    fn new(child: &mut Child) -> io::Result<Watch> {
        let pid = Pid::from_child(child);
        let (stdin, stdout, stderr) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take());
        for fd in [stdin.as_ref().map(|f| f.as_fd()), stdout.as_ref().map(|f| f.as_fd())]
            .into_iter()
            .chain([stderr.as_ref().map(|f| f.as_fd())])
            .flatten()
        {
            rustix::io::ioctl_fionbio(fd, true)?;
        }
        Ok(Watch { pid, stdin, stdout, stderr, exit: exit_fd(pid), exited: false })
    }

    /// Feeds `input` and collects output until the child has exited and closed its output, or
    /// the deadline passes.
    fn pump(
        &mut self,
        input: &[u8],
        deadline: Instant,
        output_limit: usize,
        output: &mut Vec<u8>,
        mut errors: Option<&mut Vec<u8>>,
    ) -> io::Result<Pumped> {
        let mut written = 0;
        // A new pipe is empty: most inputs fit in it at once, without waiting to be told so.
        self.feed(input, &mut written);
        loop {
            if self.stdout.is_none() && self.stderr.is_none() && self.exited {
                return Ok(Pumped::Done);
            }
            let now = Instant::now();
            if now >= deadline {
                return Ok(Pumped::TimedOut);
            }
            let mut wait = deadline - now;
            if self.exit.is_none() && !self.exited {
                // Without a pidfd, exit is noticed by asking now and then.
                self.exited = exited_without_pidfd(self.pid);
                wait = wait.min(Duration::from_millis(1));
            }
            let [stdin_ready, stdout_ready, stderr_ready, exit_ready] = self.poll(wait)?;
            if stdin_ready {
                self.feed(input, &mut written);
            }
            if stdout_ready && drain(&mut self.stdout, output, output_limit)? {
                return Ok(Pumped::OutputLimit);
            }
            if stderr_ready {
                match errors.as_deref_mut() {
                    // Past its limit, standard error is read and dropped: closing it would kill
                    // the program with SIGPIPE, a verdict of its own.
                    Some(errors) => {
                        drain(&mut self.stderr, errors, ERROR_LIMIT)?;
                    }
                    None => self.stderr = None,
                }
            }
            if exit_ready {
                self.exited = true;
                // Helpers the program left running could keep its output open: the run is over
                // when the program is, so they go now, and the pipes drain to their end.
                let _ = kill_process_group(self.pid, Signal::KILL);
            }
        }
    }
}

impl Watch {
    /// Writes as much of the rest of `input` as the pipe takes now; closes it once all is
    /// written, which is the end of input for the program.
    fn feed(&mut self, input: &[u8], written: &mut usize) {
        let Some(stdin) = self.stdin.as_mut() else { return };
        while *written < input.len() {
            match stdin.write(&input[*written..]) {
                // A pipe never takes nothing; should one, waiting for room would never end.
                Ok(0) => break,
                Ok(n) => *written += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                // The program closed its input or exited without reading all of it: that is
                // its business, not an error of the run.
                Err(_) => break,
            }
        }
        self.stdin = None;
    }

    /// Waits up to `wait` for input room, output, error output or the exit; which are ready.
    fn poll(&self, wait: Duration) -> io::Result<[bool; 4]> {
        let exit = self.exit.as_ref().filter(|_| !self.exited);
        let watched = [
            (self.stdin.as_ref().map(|f| f.as_fd()), PollFlags::OUT),
            (self.stdout.as_ref().map(|f| f.as_fd()), PollFlags::IN),
            (self.stderr.as_ref().map(|f| f.as_fd()), PollFlags::IN),
            (exit.map(|f| f.as_fd()), PollFlags::IN),
        ];
        let mut fds: Vec<PollFd<'_>> = watched
            .iter()
            .filter_map(|&(fd, flags)| fd.map(|fd| PollFd::from_borrowed_fd(fd, flags)))
            .collect();
        let timeout = Timespec::try_from(wait).unwrap_or(Timespec { tv_sec: 1, tv_nsec: 0 });
        match poll(&mut fds, Some(&timeout)) {
            Ok(_) | Err(rustix::io::Errno::INTR) => {}
            Err(error) => return Err(error.into()),
        }
        let mut ready = [false; 4];
        let mut next = fds.iter();
        for (slot, (fd, _)) in ready.iter_mut().zip(watched) {
            if fd.is_some() {
                *slot = next.next().is_some_and(|p| !p.revents().is_empty());
            }
        }
        Ok(ready)
    }
}

/// Reads what `pipe` holds into `into`, closing it at end of file; past `limit` bytes, the
/// output is cut there and `true` says so (what was read past it is dropped).
fn drain<R: Read>(pipe: &mut Option<R>, into: &mut Vec<u8>, limit: usize) -> io::Result<bool> {
    let Some(reader) = pipe.as_mut() else {
        return Ok(false);
    };
    let mut chunk = [0u8; 1 << 16];
    loop {
        match reader.read(&mut chunk) {
            Ok(0) => {
                *pipe = None;
                return Ok(false);
            }
            Ok(n) => {
                let room = limit.saturating_sub(into.len());
                into.extend_from_slice(&chunk[..n.min(room)]);
                if n > room {
                    return Ok(true);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(false),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// Waits for `child` to end: its exit status and peak resident memory in bytes.
fn reap(child: &Child) -> io::Result<(ExitStatus, Option<u64>)> {
    use std::os::unix::process::ExitStatusExt;
    let pid = Pid::from_child(child).as_raw_nonzero().get();
    let mut status = 0;
    // SAFETY: a zeroed `rusage` is a valid value for `wait4` to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: `pid` is a child of this process that nothing else waits for (the `Child` is
        // never waited through std), and both pointers are valid for writes.
        let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if waited == pid {
            break;
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
    // `ru_maxrss` is in KiB on Linux (and in bytes on macOS, which arbiter does not target).
    let peak = u64::try_from(usage.ru_maxrss).ok().filter(|&kib| kib > 0).map(|kib| kib * 1024);
    Ok((ExitStatus::from_raw(status), peak))
}

#[cfg(target_os = "linux")]
fn exit_fd(pid: Pid) -> Option<OwnedFd> {
    rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()).ok()
}

#[cfg(not(target_os = "linux"))]
fn exit_fd(_pid: Pid) -> Option<OwnedFd> {
    None
}

/// Whether the child has exited, asked without reaping it (its pid must keep naming its group).
fn exited_without_pidfd(pid: Pid) -> bool {
    use rustix::process::{WaitIdOptions, waitid};
    let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
    matches!(waitid(rustix::process::WaitId::Pid(pid), options), Ok(Some(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Program {
        Program::new(["sh".into(), "-c".into(), script.into()]).unwrap()
    }

    #[test]
    fn a_large_input_and_output_pass_through() {
        let input: Vec<u8> = (0..3_000_000u32).map(|i| b'a' + (i % 26) as u8).collect();
        let mut output = Vec::new();
        let outcome = run(&sh("cat"), &input, Duration::from_secs(60), &mut output).unwrap();
        assert!(matches!(outcome.termination, Termination::Exited(s) if s.success()));
        assert!(output == input);
    }

    #[test]
    fn a_program_that_ignores_its_input_is_fine() {
        let input = vec![b'x'; 1 << 20];
        let mut output = Vec::new();
        let outcome = run(&sh("echo done"), &input, Duration::from_secs(60), &mut output).unwrap();
        assert!(matches!(outcome.termination, Termination::Exited(s) if s.success()));
        assert_eq!(output, b"done\n");
    }

    #[test]
    fn exit_status_and_standard_error_are_kept() {
        let (mut output, mut errors) = (Vec::new(), Vec::new());
        let outcome = run_capturing(
            &sh("echo oops >&2; exit 3"),
            b"",
            Duration::from_secs(60),
            &mut output,
            &mut errors,
        )
        .unwrap();
        assert!(matches!(outcome.termination, Termination::Exited(s) if s.code() == Some(3)));
        assert_eq!(errors, b"oops\n");
    }

    #[test]
    fn the_time_limit_kills_the_whole_group() {
        let mut output = Vec::new();
        // The helper keeps standard output open: it must be killed with its parent.
        let outcome =
            run(&sh("sleep 30 & sleep 30"), b"", Duration::from_millis(200), &mut output).unwrap();
        assert_eq!(outcome.termination, Termination::TimedOut);
        assert!(outcome.elapsed < Duration::from_secs(20));
    }

    #[test]
    fn helpers_left_behind_are_killed_at_exit() {
        let mut output = Vec::new();
        let outcome = run(
            &sh("(sleep 30; echo late) & echo early"),
            b"",
            Duration::from_secs(20),
            &mut output,
        )
        .unwrap();
        assert!(matches!(outcome.termination, Termination::Exited(s) if s.success()));
        assert_eq!(output, b"early\n");
        assert!(outcome.elapsed < Duration::from_secs(10));
    }

    /// Whether a process whose command line holds `marker` is running.
    fn running(marker: &str) -> bool {
        Command::new("pgrep").args(["-f", marker]).output().is_ok_and(|out| out.status.success())
    }

    #[test]
    fn a_helper_that_leaves_the_session_is_killed_too() {
        // At the time limit, and at a normal exit.
        let scripts = [
            ("setsid sleep 1000.4242 & while :; do :; done", "sleep 1000.4242"),
            ("setsid sleep 1000.4243 & sleep 0.1; echo done", "sleep 1000.4243"),
        ];
        for (script, marker) in scripts {
            let mut output = Vec::new();
            let _ = run(&sh(script), b"", Duration::from_millis(500), &mut output).unwrap();
            assert!(!running(marker), "{script}");
        }
    }

    #[test]
    fn names_are_looked_up_on_the_path() {
        assert!(Program::new(["sh".into()]).unwrap().path().is_absolute());
        assert!(matches!(
            Program::new(["no-such-program-anywhere".into()]),
            Err(ProgramError::NotFound(_))
        ));
        assert!(matches!(
            Program::new(["./Cargo.toml".into()]),
            Err(ProgramError::NotExecutable(_))
        ));
        assert!(matches!(Program::new(Vec::<OsString>::new()), Err(ProgramError::Missing)));
    }
}
