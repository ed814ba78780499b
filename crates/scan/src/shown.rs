//! Text from the input as a message echoes it.

use std::fmt::{self, Write as _};

/// Text from the input as a message echoes it: at most [`Shown::MAX_CHARS`] characters, then `…`;
/// control characters, whitespace other than the space, and marks that print as nothing (a byte
/// order mark, a zero-width space, a direction override) written as escapes (`\t`, `\u{feff}`),
/// so that a message stays one short line that shows what is really there.
///
/// ```
/// use arbiter_scan::Shown;
///
/// assert_eq!(Shown("e4\u{b}").to_string(), "e4\\u{b}");
/// assert_eq!(Shown(&"x".repeat(100)).to_string(), format!("{}…", "x".repeat(40)));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Shown<'a>(pub &'a str);

impl Shown<'_> {
    /// The most characters of input text a message echoes.
    pub const MAX_CHARS: usize = 40;
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.0.chars().enumerate() {
            if i == Self::MAX_CHARS {
                return f.write_char('…');
            }
            match c {
                '\t' => f.write_str("\\t")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                ' ' => f.write_char(' ')?,
                c if c.is_control() || c.is_whitespace() || is_invisible(c) => {
                    write!(f, "\\u{{{:x}}}", u32::from(c))?;
                }
                c => f.write_char(c)?,
            }
        }
        Ok(())
    }
}

/// Format characters that print as nothing: the byte order mark (zero-width no-break space),
/// zero-width spaces and joiners, direction marks and overrides, the soft hyphen.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{feff}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{00ad}'
    )
}

/// The first [`Shown::MAX_CHARS`] characters of `text` and one more, which is all a message
/// shows of it.
pub(crate) fn shown_prefix(text: &str) -> String {
    match text.char_indices().nth(Shown::MAX_CHARS + 1) {
        Some((cut, _)) => text[..cut].to_owned(),
        None => text.to_owned(),
    }
}
