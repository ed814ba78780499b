//! The judge reading a stream: the same answers as from a string however the input arrives, and
//! every answer written before the judge waits for more input.

use std::cell::RefCell;
use std::io::{self, Read, Write};
use std::rc::Rc;

use arbiter_duck::judge::{self, JudgeError};
use proptest::prelude::*;

/// Hands out `bytes` in pieces of the given sizes, cycling, like a pipe fed by several writes.
struct Pieces {
    bytes: Vec<u8>,
    sizes: Vec<usize>,
    next: usize,
}

impl Read for Pieces {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let size = self.sizes[self.next % self.sizes.len()].min(buf.len()).min(self.bytes.len());
        self.next += 1;
        buf[..size].copy_from_slice(&self.bytes[..size]);
        self.bytes.drain(..size);
        Ok(size)
    }
}

/// What `judge::run` or `run_reader` gives: the output, then the summary or the error message.
fn outcome(result: Result<judge::Summary, JudgeError>, out: Vec<u8>) -> (Vec<u8>, String) {
    let end = match result {
        Ok(summary) => format!("{summary:?}"),
        Err(error) => error.to_string(),
    };
    (out, end)
}

proptest! {
    #[test]
    fn a_stream_is_judged_like_the_string(
        text in "\u{feff}?[0-9]{1,2}( +|\n)([-+]?[0-9]{1,2}[ \t\r\n]{1,3}|x ){0,60}",
        sizes in prop::collection::vec(1usize..20, 1..4),
    ) {
        let mut out = Vec::new();
        let whole = outcome(judge::run(&text, &mut out), out);
        let reader = Pieces { bytes: text.clone().into_bytes(), sizes, next: 0 };
        let mut out = Vec::new();
        let streamed = outcome(judge::run_reader(reader, &mut out), out);
        prop_assert_eq!(streamed, whole);
    }
}

/// The output, shared with a reader that records what had been written when each read began.
#[derive(Clone, Default)]
struct Shared(Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Delivers one part of the input per read, and notes the output written before each read.
struct Turns {
    parts: Vec<&'static [u8]>,
    output: Shared,
    seen: Vec<String>,
}

impl Read for Turns {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.seen.push(String::from_utf8_lossy(&self.output.0.borrow()).into_owned());
        if self.parts.is_empty() {
            return Ok(0);
        }
        let part = self.parts.remove(0);
        buf[..part.len()].copy_from_slice(part);
        Ok(part.len())
    }
}

#[test]
fn each_answer_is_written_before_the_next_read() {
    let output = Shared::default();
    let mut turns = Turns {
        parts: vec![b"3\n0 3 1 4\n", b"9 4 8 4\n", b"1 4 0 3", b"\n"],
        output: output.clone(),
        seen: Vec::new(),
    };
    let mut out = output.clone();
    judge::run_reader(&mut turns, &mut out).unwrap();
    let first = "red guard;NA;no;no\n";
    let second = "blue captain;NA;no;no\n";
    let third = "red guard;NA;no;no\n";
    // One read per part, and one that finds the end; each answer is out before the read after it.
    assert_eq!(turns.seen[0], "");
    assert_eq!(turns.seen[1], first);
    assert_eq!(turns.seen[2], format!("{first}{second}"));
    // `1 4 0 3` may go on (`1 4 0 35`): the third command is answered after the line ends.
    assert_eq!(turns.seen[3], format!("{first}{second}"));
    assert_eq!(turns.seen[4], format!("{first}{second}{third}"));
    assert_eq!(turns.seen.len(), 5);
}
