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
        // Most text shown (a player's name, a move) is short printable ASCII, shown as it is:
        // written at once, where going character by character costs ten times as much.
        if self.0.len() <= Self::MAX_CHARS
            && self.0.bytes().all(|b| b == b' ' || b.is_ascii_graphic())
        {
            return f.write_str(self.0);
        }
        show_chars(self.0, f)
    }
}

/// Writes `text` as [`Shown`] shows it, character by character.
fn show_chars(text: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    for (i, c) in text.chars().enumerate() {
        if i == Shown::MAX_CHARS {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Shows text character by character only.
    struct Slowly<'a>(&'a str);

    impl fmt::Display for Slowly<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            show_chars(self.0, f)
        }
    }

    proptest::proptest! {
        /// Text written at once is shown as it is when shown character by character.
        #[test]
        fn plain_text_is_shown_as_each_character_shows(text in "[ -~\t\n\u{feff}é]{0,45}") {
            proptest::prop_assert_eq!(Shown(&text).to_string(), Slowly(&text).to_string());
        }
    }

    #[test]
    fn text_longer_than_shown_is_cut() {
        let text = "x".repeat(Shown::MAX_CHARS);
        assert_eq!(Shown(&text).to_string(), text);
        assert_eq!(Shown(&format!("{text}y")).to_string(), format!("{text}…"));
    }
}
