//! The commands lichess, chess.com and most GUIs embed in comments: `[%clk 0:02:58]`, the
//! clock of the side that just moved, and `[%eval 0.17]` or `[%eval #-3]`, an engine's
//! evaluation (pawns from white's side, or a mate in so many moves, negative when black mates).
//!
//! The one place where their syntax is written: the check warns of a clock written otherwise,
//! and tables of games read the values.
//!
//! ```
//! use arbiter_chess_record::pgn::{Eval, comment_clock, comment_eval};
//!
//! let comment = b"{ [%eval -1.5] [%clk 0:02:58] }";
//! assert_eq!(comment_clock(comment), Some(178.0));
//! assert_eq!(comment_eval(comment), Some(Eval::Centipawns(-150)));
//! assert_eq!(comment_eval(b"{ [%eval #-3] }"), Some(Eval::Mate(-3)));
//! ```

/// An engine's evaluation, from white's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// In hundredths of a pawn.
    Centipawns(i32),
    /// Mate in so many moves: positive when white mates, negative when black does.
    Mate(i32),
}

/// A command of a comment: `[%name value]`, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Command<'a> {
    /// The whole command, from `[` to `]` (or to the comment's end when it is not closed).
    pub(crate) whole: &'a [u8],
    /// Its value, blanks around it left out.
    pub(crate) value: &'a [u8],
    /// Whether a `]` closes it.
    pub(crate) closed: bool,
}

/// The commands named `name` (with its `%`, as `b"%clk"`) of a comment, in order. The name must
/// follow `[` at once and be followed by anything but a letter; the value runs to the next `]`.
///
/// Comments are short (`{ [%clk 0:02:58] }`): plain loops find their bytes sooner than
/// `memchr`, whose setup costs more than such a search.
pub(crate) fn commands<'a>(
    comment: &'a [u8],
    name: &'static [u8],
) -> impl Iterator<Item = Command<'a>> + 'a {
    let mut from = 0;
    std::iter::from_fn(move || {
        loop {
            let percent = from + comment.get(from..)?.iter().position(|&b| b == b'%')?;
            from = percent + 1;
            if percent == 0 || comment[percent - 1] != b'[' {
                continue;
            }
            let after = percent + name.len();
            if comment.get(percent..after) != Some(name)
                || comment.get(after).is_some_and(u8::is_ascii_alphabetic)
            {
                continue;
            }
            let (end, closed) = match comment[after..].iter().position(|&b| b == b']') {
                Some(i) => (after + i, true),
                None => (comment.len(), false),
            };
            from = end;
            let whole = &comment[percent - 1..(end + usize::from(closed)).min(comment.len())];
            return Some(Command { whole, value: comment[after..end].trim_ascii(), closed });
        }
    })
}

/// The clock of a comment's first `[%clk ...]`, in seconds, when it is written right.
pub fn comment_clock(comment: &[u8]) -> Option<f64> {
    let command = commands(comment, b"%clk").next()?;
    if command.closed { parse_clock(command.value) } else { None }
}

/// The evaluation of a comment's first `[%eval ...]`, when it is written right.
pub fn comment_eval(comment: &[u8]) -> Option<Eval> {
    let command = commands(comment, b"%eval").next()?;
    if command.closed { parse_eval(command.value) } else { None }
}

/// The seconds of a clock written `H:MM:SS`, with any number of hour digits and an optional
/// fraction of a second (`0:03:00`, `1:59:59.9`); `None` for anything else.
pub(crate) fn parse_clock(value: &[u8]) -> Option<f64> {
    match read_clock(value) {
        Some((seconds, len)) if len == value.len() => Some(seconds),
        _ => None,
    }
}

/// The clock written at the start of `bytes` (see [`parse_clock`]), and how many bytes it
/// takes; its fraction is read as far as its digits go.
fn read_clock(bytes: &[u8]) -> Option<(f64, usize)> {
    let len = clock_len(bytes)?;
    let hours = bytes.iter().position(|&b| b == b':')?;
    let two = |at: usize| f64::from((bytes[at] - b'0') * 10 + bytes[at + 1] - b'0');
    let fraction = match bytes.get(hours + 6..len) {
        Some([b'.', digits @ ..]) => number(digits) / 10f64.powi(digits.len().min(300) as i32),
        _ => 0.0,
    };
    let seconds = number(&bytes[..hours]) * 3600.0 + two(hours + 1) * 60.0 + two(hours + 4);
    Some((seconds + fraction, len))
}

/// How many bytes the clock written at the start of `bytes` takes, if one is written there:
/// hour digits, `:MM:SS` below sixty, and a fraction as far as its digits go.
#[inline]
pub(super) fn clock_len(bytes: &[u8]) -> Option<usize> {
    let hours = bytes.iter().position(|&b| !b.is_ascii_digit()).unwrap_or(bytes.len());
    let [b':', m1, m2, b':', s1, s2, rest @ ..] = &bytes[hours..] else {
        return None;
    };
    let sixty = |tens: &u8, units: &u8| (b'0'..b'6').contains(tens) && units.is_ascii_digit();
    if hours == 0 || !sixty(m1, m2) || !sixty(s1, s2) {
        return None;
    }
    match rest {
        [b'.', digits @ ..] => match digits.iter().position(|b| !b.is_ascii_digit()) {
            Some(0) => None,
            Some(n) => Some(hours + 7 + n),
            None if digits.is_empty() => None,
            None => Some(hours + 7 + digits.len()),
        },
        _ => Some(hours + 6),
    }
}

/// Calls `bad` with each `[%clk ...]` command of a comment whose value is not a clock (see
/// [`parse_clock`]) or that no `]` closes, as written: what [`commands`] and [`parse_clock`]
/// find, read in one pass over the comment, since most comments of lichess's files hold a
/// clock.
pub(crate) fn bad_clocks(comment: &[u8], mut bad: impl FnMut(&[u8])) {
    const NAME: &[u8] = b"%clk";
    let mut from = 0;
    while let Some(found) =
        comment.get(from..).and_then(|rest| rest.iter().position(|&b| b == b'%'))
    {
        let percent = from + found;
        from = percent + 1;
        let after = percent + NAME.len();
        if percent == 0
            || comment[percent - 1] != b'['
            || comment.get(percent..after) != Some(NAME)
            || comment.get(after).is_some_and(u8::is_ascii_alphabetic)
        {
            continue;
        }
        let blanks =
            |at: usize| at + comment[at..].iter().take_while(|b| b.is_ascii_whitespace()).count();
        let start = blanks(after);
        if let Some(len) = clock_len(&comment[start..]) {
            let end = blanks(start + len);
            if comment.get(end) == Some(&b']') {
                from = end + 1;
                continue;
            }
        }
        let command = commands(&comment[percent - 1..], NAME).next();
        if let Some(command) = command {
            bad(command.whole);
            from = percent - 1 + command.whole.len();
        }
    }
}

/// The value of a run of digits.
fn number(digits: &[u8]) -> f64 {
    digits.iter().fold(0.0, |n, &b| n * 10.0 + f64::from(b - b'0'))
}

/// An evaluation written in pawns (`0.17`, `-1.5`, `+3`) or as a mate (`#3`, `#-2`), optionally
/// followed by the search depth (`0.17,21`); `None` for anything else or out of range.
pub(crate) fn parse_eval(value: &[u8]) -> Option<Eval> {
    let value = match memchr::memchr(b',', value) {
        Some(comma) if is_digits(&value[comma + 1..]) => &value[..comma],
        Some(_) => return None,
        None => value,
    };
    if let Some(mate) = value.strip_prefix(b"#") {
        let (negative, moves) = signed(mate);
        if !is_digits(moves) || moves.len() > 6 {
            return None;
        }
        let n = moves.iter().fold(0i32, |n, &b| n * 10 + i32::from(b - b'0'));
        return Some(Eval::Mate(if negative { -n } else { n }));
    }
    let (negative, pawns) = signed(value);
    let (whole, fraction) = match memchr::memchr(b'.', pawns) {
        Some(dot) => (&pawns[..dot], Some(&pawns[dot + 1..])),
        None => (pawns, None),
    };
    if !is_digits(whole) || whole.len() > 6 || !fraction.is_none_or(is_digits) {
        return None;
    }
    let fraction = fraction.unwrap_or_default();
    let mut cp = whole.iter().fold(0i64, |n, &b| n * 10 + i64::from(b - b'0')) * 100;
    let tenths = [10, 1];
    for (digit, weight) in fraction.iter().zip(tenths) {
        cp += i64::from(digit - b'0') * weight;
    }
    // A third decimal rounds the hundredths, half away from zero.
    if fraction.get(2).is_some_and(|&digit| digit >= b'5') {
        cp += 1;
    }
    let cp = i32::try_from(cp).ok()?;
    Some(Eval::Centipawns(if negative { -cp } else { cp }))
}

fn is_digits(part: &[u8]) -> bool {
    !part.is_empty() && part.iter().all(u8::is_ascii_digit)
}

/// A number's sign and its digits.
fn signed(text: &[u8]) -> (bool, &[u8]) {
    match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_are_read_and_held_to_their_syntax() {
        assert_eq!(parse_clock(b"0:02:58"), Some(178.0));
        assert_eq!(parse_clock(b"12:00:00"), Some(43_200.0));
        assert_eq!(parse_clock(b"0:00:07.5"), Some(7.5));
        for wrong in
            [&b"0:2:58"[..], b"0:02:60", b"2:58", b"0:02:58.", b"a:02:58", b"", b"0:02:58:1"]
        {
            assert_eq!(parse_clock(wrong), None, "{}", String::from_utf8_lossy(wrong));
        }
    }

    proptest::proptest! {
        /// The one-pass check finds the clocks that the commands and their parse find wrong.
        #[test]
        fn bad_clocks_are_the_commands_not_parsed(comment in "[{} \\[\\]%clk0-9:.a]{0,40}") {
            let comment = comment.as_bytes();
            let mut found = Vec::new();
            bad_clocks(comment, |whole| found.push(whole.to_vec()));
            let expected: Vec<Vec<u8>> = commands(comment, b"%clk")
                .filter(|c| !c.closed || parse_clock(c.value).is_none())
                .map(|c| c.whole.to_vec())
                .collect();
            proptest::prop_assert_eq!(found, expected);
        }
    }

    #[test]
    fn commands_are_found_by_name() {
        let comment = b"{ [%evalx 1] [%eval 0.25] [%clk  0:01:00 ] [%clkx] [%clk 9 }";
        let clocks: Vec<_> = commands(comment, b"%clk").collect();
        assert_eq!(clocks.len(), 2);
        assert_eq!((clocks[0].value, clocks[0].closed), (&b"0:01:00"[..], true));
        assert_eq!(clocks[0].whole, b"[%clk  0:01:00 ]");
        assert_eq!((clocks[1].whole, clocks[1].closed), (&b"[%clk 9 }"[..], false));
        assert_eq!(comment_eval(comment), Some(Eval::Centipawns(25)));
        assert_eq!(comment_clock(b"{ no command }"), None);
        assert_eq!(comment_clock(b"{ 100% sure [%clk 0:00:01] }"), Some(1.0));
    }

    #[test]
    fn evaluations_in_pawns_and_mates() {
        let cp = |text: &[u8]| parse_eval(text);
        assert_eq!(cp(b"0.17"), Some(Eval::Centipawns(17)));
        assert_eq!(cp(b"-1.5"), Some(Eval::Centipawns(-150)));
        assert_eq!(cp(b"+3"), Some(Eval::Centipawns(300)));
        assert_eq!(cp(b"0.125"), Some(Eval::Centipawns(13)));
        assert_eq!(cp(b"-0.17,21"), Some(Eval::Centipawns(-17)));
        assert_eq!(cp(b"#4"), Some(Eval::Mate(4)));
        assert_eq!(cp(b"#-2"), Some(Eval::Mate(-2)));
        for wrong in [&b"#"[..], b"", b"1.", b".5", b"x", b"1,", b"99999999"] {
            assert_eq!(cp(wrong), None, "{}", String::from_utf8_lossy(wrong));
        }
    }
}
