//! An engine as the match runner drives it: a child process spoken to in UCI, with a deadline
//! on every answer.
//!
//! ```
//! use arbiter_duck_match::process::EngineSpec;
//!
//! // The command is split as a shell splits it.
//! let spec: EngineSpec = "/usr/games/fairy-stockfish 'with space' \"two words\"".parse().unwrap();
//! assert_eq!(spec.command, ["/usr/games/fairy-stockfish", "with space", "two words"]);
//! assert!("engine 'unclosed".parse::<EngineSpec>().is_err());
//! ```
//!
//! The engine's standard output is read by a thread of its own, line by line, each line stamped
//! with the moment it was read, so the runner can wait for an answer with a deadline and measure
//! how long the engine took. Lines are read with a bounded buffer (a line longer than
//! [`MAX_LINE`] bytes is cut there), and the thread stops reading while the runner is behind, so
//! an engine that writes without end costs no memory. Its standard error goes to a log file or
//! nowhere, never to the terminal.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::str::FromStr;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::thread;
use std::time::{Duration, Instant};

use arbiter_duck_protocol::{EngineMessage, GuiCommand, IdField, OptionDecl};

use super::clock::TimeControl;
use super::machine;

/// The longest line read from an engine, in bytes; the rest of a longer line is dropped.
pub const MAX_LINE: usize = 64 * 1024;

/// How many lines may wait to be read before the reading thread pauses.
const QUEUE: usize = 4096;

/// How long an engine has to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// How to start an engine and set it up.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EngineSpec {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// `setoption` values sent after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// The name to show instead of the engine's `id name`.
    pub name: Option<String>,
    /// A depth limit for this engine alone, in place of the match's (`go depth`).
    pub depth: Option<u32>,
    /// A node limit for this engine alone, in place of the match's (`go nodes`).
    pub nodes: Option<u64>,
    /// A time control for this engine alone, in place of the match's (time odds).
    pub clock: Option<TimeControl>,
}

/// An engine command that cannot be split into words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected {expected}, found `{found}`")]
pub struct ParseEngineSpecError {
    /// What was expected.
    pub expected: &'static str,
    /// The command as given.
    pub found: String,
}

impl FromStr for EngineSpec {
    type Err = ParseEngineSpecError;

    /// Splits a command line as a POSIX shell would (quotes and backslashes; no variables or
    /// globs), without options.
    fn from_str(text: &str) -> Result<EngineSpec, ParseEngineSpecError> {
        let error = |expected| ParseEngineSpecError { expected, found: text.to_owned() };
        let command = shlex::split(text).ok_or_else(|| error("a command with closed quotes"))?;
        if command.is_empty() {
            return Err(error("a command to start the engine"));
        }
        Ok(EngineSpec {
            command,
            options: Vec::new(),
            name: None,
            depth: None,
            nodes: None,
            clock: None,
        })
    }
}

impl fmt::Display for EngineSpec {
    /// The command, quoted for a shell where needed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words = self.command.iter().map(String::as_str);
        match shlex::try_join(words) {
            Ok(line) => f.write_str(&line),
            Err(_) => f.write_str(&self.command.join(" ")),
        }
    }
}

/// A line an engine wrote, and when it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The text, without its line break (invalid UTF-8 replaced).
    pub text: String,
    /// When the runner read it.
    pub at: Instant,
}

/// What waiting for an engine's next line gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// A line.
    Line(Line),
    /// Nothing before the deadline.
    Timeout,
    /// The engine closed its output: it has exited, or is about to.
    Closed,
}

/// Why an engine could not be started or set up.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The program could not be run.
    #[error("cannot run `{command}`: {source}")]
    Spawn {
        /// The command.
        command: String,
        /// Why.
        source: io::Error,
    },
    /// The engine did not answer in time.
    #[error("no `{expected}` within {} s after `{sent}`", timeout.as_secs_f64())]
    Timeout {
        /// The command sent.
        sent: &'static str,
        /// The answer awaited.
        expected: &'static str,
        /// How long the runner waited.
        timeout: Duration,
    },
    /// The engine exited (or closed its output) before answering.
    #[error("it {status} before answering `{sent}` with `{expected}`")]
    Exited {
        /// The command sent.
        sent: &'static str,
        /// The answer awaited.
        expected: &'static str,
        /// How it ended, in words.
        status: String,
    },
}

/// A running engine.
#[derive(Debug)]
pub struct EngineProcess {
    child: Child,
    input: ChildStdin,
    lines: Receiver<Line>,
    /// The name from its `id name` line (or the spec's name, or the program's file name).
    pub name: String,
    /// The options it declared.
    pub options: Vec<OptionDecl>,
    /// Options of the spec that the engine did not declare (they are sent anyway).
    pub undeclared: Vec<String>,
    /// The spec's own depth limit.
    pub depth: Option<u32>,
    /// The spec's own node limit.
    pub nodes: Option<u64>,
    /// The spec's own time control.
    pub clock: Option<TimeControl>,
}

impl EngineProcess {
    /// Starts the engine of `spec`, its standard error going to `stderr` (or nowhere), and
    /// shakes hands: `uci` until `uciok`, the spec's options, then `isready` until `readyok`,
    /// each answer awaited at most `timeout`.
    pub fn start(
        spec: &EngineSpec,
        stderr: Option<File>,
        timeout: Duration,
    ) -> Result<EngineProcess, EngineError> {
        EngineProcess::start_on(spec, stderr, timeout, None)
    }

    /// [`start`](EngineProcess::start), the process pinned to `core` if one is given (see
    /// [`machine`](super::machine)).
    pub fn start_on(
        spec: &EngineSpec,
        stderr: Option<File>,
        timeout: Duration,
        core: Option<usize>,
    ) -> Result<EngineProcess, EngineError> {
        let mut command = Command::new(&spec.command[0]);
        command.args(&spec.command[1..]).stdin(Stdio::piped()).stdout(Stdio::piped());
        command.stderr(stderr.map_or_else(Stdio::null, Stdio::from));
        if let Some(core) = core {
            machine::pin(&mut command, core)
                .map_err(|source| EngineError::Spawn { command: spec.to_string(), source })?;
        }
        let mut child = command
            .spawn()
            .map_err(|source| EngineError::Spawn { command: spec.to_string(), source })?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            unreachable!("both pipes were asked for");
        };
        let (send, lines) = mpsc::sync_channel(QUEUE);
        thread::spawn(move || read_lines(output, &send));
        let program = std::path::Path::new(&spec.command[0]);
        let fallback = program.file_name().unwrap_or(program.as_os_str()).to_string_lossy();
        let mut engine = EngineProcess {
            child,
            input,
            lines,
            name: fallback.into_owned(),
            options: Vec::new(),
            undeclared: Vec::new(),
            depth: spec.depth,
            nodes: spec.nodes,
            clock: spec.clock,
        };
        engine.handshake(spec, timeout)?;
        if let Some(name) = &spec.name {
            engine.name.clone_from(name);
        }
        Ok(engine)
    }

    fn handshake(&mut self, spec: &EngineSpec, timeout: Duration) -> Result<(), EngineError> {
        self.command("uci", &GuiCommand::Uci, "uciok")?;
        let deadline = Instant::now() + timeout;
        loop {
            match self.wait("uci", "uciok", deadline, timeout)? {
                EngineMessage::UciOk => break,
                EngineMessage::Id { field: IdField::Name, value } if !value.is_empty() => {
                    self.name = value;
                }
                EngineMessage::Option(option) => self.options.push(option),
                _ => {}
            }
        }
        for (name, value) in &spec.options {
            if !self.options.iter().any(|option| option.name.eq_ignore_ascii_case(name)) {
                self.undeclared.push(name.clone());
            }
            let command = GuiCommand::SetOption { name: name.clone(), value: Some(value.clone()) };
            self.command("setoption", &command, "readyok")?;
        }
        self.ready(timeout)
    }

    /// `isready`, and waits for `readyok`.
    pub fn ready(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.command("isready", &GuiCommand::IsReady, "readyok")?;
        let deadline = Instant::now() + timeout;
        while self.wait("isready", "readyok", deadline, timeout)? != EngineMessage::ReadyOk {}
        Ok(())
    }

    /// `ucinewgame`, then `isready` until `readyok`: the engine is ready for a new game.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.drain();
        self.command("ucinewgame", &GuiCommand::UciNewGame, "readyok")?;
        self.ready(timeout)
    }

    /// Sends `command` during the handshake, reporting a closed pipe as an early exit.
    fn command(
        &mut self,
        sent: &'static str,
        command: &GuiCommand,
        expected: &'static str,
    ) -> Result<(), EngineError> {
        match self.send(command) {
            Ok(_) => Ok(()),
            Err(_) => Err(EngineError::Exited { sent, expected, status: self.exit_status() }),
        }
    }

    /// The next message that reads as UCI, before `deadline`; other lines are skipped.
    fn wait(
        &mut self,
        sent: &'static str,
        expected: &'static str,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<EngineMessage, EngineError> {
        loop {
            match self.next_line(deadline) {
                Next::Line(line) => {
                    if let Ok(message) = line.text.parse::<EngineMessage>() {
                        return Ok(message);
                    }
                }
                Next::Timeout => return Err(EngineError::Timeout { sent, expected, timeout }),
                Next::Closed => {
                    let status = self.exit_status();
                    return Err(EngineError::Exited { sent, expected, status });
                }
            }
        }
    }

    /// Writes one command line; returns the moment it was written.
    pub fn send(&mut self, command: &GuiCommand) -> io::Result<Instant> {
        // One write for the whole line: the pipe is unbuffered, and a `position` command
        // written piece by piece costs a system call per move for both processes.
        let line = format!("{command}\n");
        self.input.write_all(line.as_bytes())?;
        self.input.flush()?;
        Ok(Instant::now())
    }

    /// Drops the lines already read but not taken (what an engine says between moves).
    pub fn drain(&mut self) {
        while self.lines.try_recv().is_ok() {}
    }

    /// The next line the engine writes, waiting until `deadline` at most.
    pub fn next_line(&mut self, deadline: Instant) -> Next {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Next::Line(line),
            Err(RecvTimeoutError::Timeout) => Next::Timeout,
            Err(RecvTimeoutError::Disconnected) => Next::Closed,
        }
    }

    /// How the process ended, in words (`exited with status 3`, `was killed by signal 9`), or
    /// `closed its output` if it is still running a moment after closing it.
    pub fn exit_status(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return describe(status),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => return "closed its output".to_owned(),
            }
        }
    }

    /// Asks the engine to quit: whether it exited within `grace` (it is killed otherwise).
    pub fn quits_within(mut self, grace: Duration) -> bool {
        let _ = self.send(&GuiCommand::Quit);
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            thread::sleep(Duration::from_millis(5));
        }
        false
    }

    /// Asks the engine to quit, and kills it if it has not after a moment.
    pub fn quit(mut self) {
        let _ = self.send(&GuiCommand::Quit);
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        // Dropping kills it.
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// An exit status in words.
fn describe(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("was killed by signal {signal}");
        }
    }
    match status.code() {
        Some(code) => format!("exited with status {code}"),
        None => "exited".to_owned(),
    }
}

/// Reads `output` line by line into `send` until the engine closes it.
fn read_lines(output: impl Read, send: &SyncSender<Line>) {
    let mut reader = BufReader::new(output);
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        let read = (&mut reader).take(MAX_LINE as u64).read_until(b'\n', &mut buffer);
        match read {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if buffer.last() != Some(&b'\n') && buffer.len() == MAX_LINE {
            // Too long: drop the rest of the line, a bounded piece at a time.
            let mut rest = Vec::new();
            loop {
                rest.clear();
                match (&mut reader).take(MAX_LINE as u64).read_until(b'\n', &mut rest) {
                    Ok(0) | Err(_) => break,
                    Ok(_) if rest.last() == Some(&b'\n') => break,
                    Ok(_) => {}
                }
            }
        }
        while matches!(buffer.last(), Some(b'\n' | b'\r')) {
            buffer.pop();
        }
        let line = Line { text: String::from_utf8_lossy(&buffer).into_owned(), at: Instant::now() };
        if send.send(line).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_like_a_shell() {
        let spec: EngineSpec = r#"  ./engine --hash=16 "a b" c\ d ''  "#.parse().unwrap();
        assert_eq!(spec.command, ["./engine", "--hash=16", "a b", "c d", ""]);
        assert_eq!(spec.to_string(), r#"./engine '--hash=16' 'a b' 'c d' ''"#);
        for bad in ["", "   ", "engine \"open"] {
            assert!(bad.parse::<EngineSpec>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn long_lines_are_cut_and_the_rest_dropped() {
        let mut text = "x".repeat(MAX_LINE * 3);
        text.push_str("\nbestmove e1e2\r\nlast");
        let (send, lines) = mpsc::sync_channel(QUEUE);
        read_lines(text.as_bytes(), &send);
        drop(send);
        let lines: Vec<String> = lines.iter().map(|line| line.text).collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].len(), MAX_LINE);
        assert_eq!(lines[1..], ["bestmove e1e2", "last"]);
    }
}
