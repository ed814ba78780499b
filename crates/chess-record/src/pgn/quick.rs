//! The check of a game that holds no finding, in one quick pass over its text.
//!
//! The full check ([`GameText::check_with`]) cuts the text into tokens that each know their
//! line and column, for the messages of its findings. Nearly every game of a real file has no
//! finding, and needs no place: this pass reads the shapes an export-format game is made of (tag
//! pairs, move numbers, moves, `{comments}` and the result) straight from the bytes, checks
//! every move and every clock comment as the full check does, and gives up at the first thing
//! it does not expect (a variation, a glyph, a `FEN` or `Variant` tag, ...) or the first
//! finding. The full check then reads that game from its start, and its report is the one
//! given. So this pass only ever answers "no finding", for games where the full check answers
//! the same, which a property test holds it to.

use arbiter_scan::{Place, is_space};
use shakmaty::Chess;

use crate::reading::{Canonical, play_canonical, read_move};
use crate::spelling::Dialect;
use crate::token::is_null_move;
use crate::turn::Turn;

use super::commands::{bad_clocks, clock_len};
use super::lex::{Word, ends_word, tag_pair, word_kind};
use super::outcome::{board_result, contradicts_board};
use super::report::GameReport;
use super::split::GameText;
use super::tags::Tags;

/// The report on `game` when it has no finding in either mode, or `None` when the full check
/// must read it: it has a finding, or something this pass does not read.
pub(super) fn check(game: &GameText) -> Option<GameReport> {
    let text = game.text();
    let (mut tags, mut i) = read_tags(text, game.at.line)?;
    let mut pos = Chess::default();
    let mut plies = 0u32;
    // Whether the side to move is in check: the start position is not.
    let mut in_check = false;
    // A move number has been read and its move not yet.
    let mut numbered = false;
    let mut result: Option<&[u8]> = None;
    while let Some(&byte) = text.get(i) {
        if is_space(byte) {
            i += 1;
            continue;
        }
        // Only blanks may follow the result here (the full check reads comments after it).
        if result.is_some() {
            return None;
        }
        match byte {
            b'{' => i = after_space(text, comment(text, i)?),
            b'a'..=b'z' | b'A'..=b'Z' => {
                let len = text[i..].iter().position(|&b| ends_word(b)).unwrap_or(text.len() - i);
                in_check = play(&mut pos, &text[i..i + len], in_check)?;
                numbered = false;
                plies += 1;
                i = after_space(text, i + len);
            }
            b'1'..=b'9' if !numbered && let Some(len) = move_number(&pos, &text[i..]) => {
                numbered = true;
                i = after_space(text, i + len);
            }
            _ => {
                // A result, or what the full check reads (a move number that is not the
                // move's, castling with zeros, a variation, a glyph, `;` and `%` comments...).
                let len = text[i..].iter().position(|&b| ends_word(b)).unwrap_or(text.len() - i);
                let word = &text[i..i + len];
                if numbered || len == 0 || word_kind(word) != Word::Result {
                    return None;
                }
                result = Some(word);
                i += len;
            }
        }
    }
    if numbered {
        return None;
    }
    let written = String::from_utf8_lossy(result?);
    let tag = tags.result.as_ref().map(|(_, tag)| tag.as_str());
    if tag.is_some_and(|tag| tag != written) {
        return None;
    }
    if let Some((expected, _)) = board_result(&pos)
        && [Some(&*written), tag]
            .into_iter()
            .flatten()
            .any(|text| contradicts_board(text, expected))
    {
        return None;
    }
    let mut report = game.report(&mut tags);
    report.plies = plies;
    Some(report)
}

/// `i`, or past the space at `i`: a move, a number or a comment is followed by one space
/// nearly always, skipped here at once rather than by a turn of the reading loop.
fn after_space(text: &[u8], i: usize) -> usize {
    i + usize::from(text.get(i) == Some(&b' '))
}

/// Plays the move written `word` (a word of the movetext starting with a letter) when it is
/// written canonically, and tells whether it gives check; `None` for any other word. `in_check`
/// says whether the side to move is in check.
fn play(pos: &mut Chess, word: &[u8], in_check: bool) -> Option<bool> {
    match play_canonical(pos, word, in_check) {
        Canonical::Played { check } => return Some(check),
        Canonical::Suffix => return None,
        Canonical::Unread => {}
    }
    // Castling and promotions, and every word the full check refuses.
    let token = std::str::from_utf8(word).ok()?;
    if matches!(token, "e.p." | "ep") || is_null_move(token) {
        return None;
    }
    let reading = read_move(pos, token, Dialect::Standard).ok()?;
    reading.rule.is_none().then_some(reading.check)
}

/// The length of the move number at the start of `rest` when it is the number of the move to
/// play in `pos` (`12.` before white's twelfth move, `12...` before black's), as the full check
/// reads move numbers (a move may be glued to it: `12.e4`).
fn move_number(pos: &Chess, rest: &[u8]) -> Option<usize> {
    // The first digit is not 0 (no leading zero, no castling with zeros): this is the word's
    // move number as the full check cuts it, its digits then its dots.
    Turn::of(pos).number_at(rest)
}

/// The end of the `{comment}` starting at `start` when it holds no badly written clock; `None`
/// when it does (or is never closed).
fn comment(text: &[u8], start: usize) -> Option<usize> {
    // Most comments of a lichess file are exactly a clock, `{ [%clk 0:02:58] }`: read directly.
    // The bytes are compared as arrays, which the compiler compares whole, where comparing
    // slices calls `memcmp` for a few bytes.
    const CLOCK: &[u8; 8] = b"{ [%clk ";
    let rest = &text[start..];
    if rest.first_chunk() == Some(CLOCK)
        && let Some(len) = clock_len(&rest[CLOCK.len()..])
        && rest[CLOCK.len() + len..].first_chunk() == Some(b"] }")
    {
        return Some(start + CLOCK.len() + len + 3);
    }
    let close = start + 1 + memchr::memchr(b'}', &text[start + 1..])?;
    let mut fine = true;
    bad_clocks(&text[start..=close], |_| fine = false);
    fine.then_some(close + 1)
}

/// Reads the tag section of `text`, a game's text starting on line `line`: the tags, and where
/// the movetext starts. `None` when the section holds anything but tag pairs (the full check
/// reads comments there too), a broken tag pair, or a tag that sets the start position.
fn read_tags(text: &[u8], line: u32) -> Option<(Tags, usize)> {
    let mut tags = Tags::default();
    let (mut line, mut line_start) = (line, 0);
    let mut i = 0;
    loop {
        while let Some(&b) = text.get(i)
            && is_space(b)
        {
            i += 1;
            if b == b'\n' {
                line = line.saturating_add(1);
                line_start = i;
            }
        }
        if text.get(i) != Some(&b'[') {
            return Some((tags, i));
        }
        let pair = tag_pair(text, i).ok()?;
        if matches!(pair.name, b"FEN" | b"Variant") {
            return None;
        }
        // A column counts characters: bytes that do not continue a UTF-8 sequence.
        let column = text[line_start..i].iter().filter(|&&b| b & 0xc0 != 0x80).count() + 1;
        let at = Place { line, column: u32::try_from(column).unwrap_or(u32::MAX) };
        tags.read(pair.name, pair.value, at);
        i = pair.end;
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rand_core::{Rng, SeedableRng};
    use rand_xoshiro::SplitMix64;
    use shakmaty::san::{San, SanPlus};
    use shakmaty::{Chess, Color, Move, Position};

    use super::super::{Mode, PgnGames};
    use super::*;
    use crate::random::RandomGames;

    /// Games that end on the board: a mate and a stalemate.
    const ENDINGS: [&str; 2] = [
        "f3 e5 g4 Qh4",
        "e3 a5 Qh5 Ra6 Qxa5 h5 h4 Rah6 Qxc7 f6 Qxd7 Kf7 Qxb7 Qd3 Qxb8 Qh7 Qxc8 Kg6 Qe6",
    ];

    /// The moves of a game written in SAN without suffixes.
    fn moves_of(sans: &str) -> Vec<Move> {
        let mut pos = Chess::default();
        let mut moves = Vec::new();
        for san in sans.split(' ') {
            let played = san.parse::<San>().ok().and_then(|san| san.to_move(&pos).ok());
            let played = played.unwrap_or_else(|| panic!("{san} in {sans}"));
            pos.play_unchecked(played);
            moves.push(played);
        }
        moves
    }

    /// A game in the style of lichess's files, from a seed: its tags, the moves of a random game
    /// (or of one that ends on the board) with clocks and sometimes evaluations in comments,
    /// black's moves numbered again after a comment, and a result that the board allows.
    fn lichess_style(seed: u64) -> String {
        let mut rng = SplitMix64::seed_from_u64(seed);
        let mut below = |n: u64| rng.next_u64() % n;
        let moves = match below(6) {
            0 => moves_of(ENDINGS[0]),
            1 => moves_of(ENDINGS[1]),
            _ => RandomGames::new(seed).next_moves(),
        };
        let mut end = Chess::default();
        for &m in &moves {
            end.play_unchecked(m);
        }
        let result = match board_result(&end) {
            Some((result, _)) => result,
            None => ["1-0", "0-1", "1/2-1/2", "*"][below(4) as usize],
        };
        let mut text = format!(
            "[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/{seed:x}\"]\n\
             [White \"player{}\"]\n[Black \"Pl\\\"ayer é\"]\n[Result \"{result}\"]\n\
             [WhiteElo \"{}\"]\n[TimeControl \"180+2\"]\n\n",
            below(1000),
            1000 + below(1500),
        );
        let clocks = below(3);
        let evals = below(3) == 0;
        let mut pos = Chess::default();
        let mut commented = false;
        for m in moves {
            let number = pos.fullmoves();
            match pos.turn() {
                Color::White => text.push_str(&format!("{number}. ")),
                Color::Black if commented => text.push_str(&format!("{number}... ")),
                Color::Black => {}
            }
            let san = SanPlus::from_move_and_play_unchecked(&mut pos, m);
            text.push_str(&format!("{san} "));
            commented = clocks > 0;
            if commented {
                let eval = if evals {
                    format!("[%eval {}.{}] ", below(3), below(100))
                } else {
                    String::new()
                };
                let fraction = if clocks == 2 { ".5" } else { "" };
                text.push_str(&format!(
                    "{{ {eval}[%clk 0:{:02}:{:02}{fraction}] }} ",
                    below(60),
                    below(60)
                ));
            }
        }
        text.push_str(result);
        text.push('\n');
        text
    }

    /// What a mutation may put into a game: bytes and pieces of PGN that the quick pass reads or
    /// gives up on.
    const SNIPPETS: [&str; 32] = [
        "K",
        "x",
        "=",
        "+",
        "#",
        "O",
        "-",
        "0",
        ".",
        " ",
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        "\"",
        "$1",
        "!?",
        ";",
        "%",
        "\n",
        "\n\n",
        "\r",
        "*",
        "1-0",
        "é",
        " (1... e5) ",
        " e.p.",
        " -- ",
        "[%clk 0:0:5]",
        "[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n",
    ];

    /// Changes `text` at `at`: deletes a byte, inserts or writes over it a snippet, or cuts the
    /// text there.
    fn mutate(text: &mut Vec<u8>, at: usize, kind: u8, snippet: &str) {
        let at = at.min(text.len());
        match kind {
            0 if at < text.len() => {
                text.remove(at);
            }
            1 => {
                text.splice(at..at, snippet.bytes());
            }
            2 => {
                let end = (at + snippet.len()).min(text.len());
                text.splice(at..end, snippet.bytes());
            }
            _ => text.truncate(at),
        }
    }

    /// Every game the quick pass answers, in either mode, is reported as the full check reports
    /// it; and `check` is the full check.
    fn same_as_the_full_check(text: &[u8]) -> Result<usize, TestCaseError> {
        let mut quick = 0;
        for game in PgnGames::new(text) {
            let answer = check(&game);
            for mode in [Mode::Strict, Mode::Lenient] {
                let full = game.check_with(mode, &mut ());
                if let Some(report) = &answer {
                    prop_assert_eq!(report, &full);
                }
                prop_assert_eq!(game.check(mode), full);
            }
            quick += usize::from(answer.is_some());
        }
        Ok(quick)
    }

    /// `Nxe5` gives check, so it needs a `+`; written without, it must not be read again in
    /// the position after it, where it is black's legal answer.
    #[test]
    fn a_misspelled_move_is_not_read_again_after_it() {
        let text = b"1. e4 e5 2. Nf3 Nc6 3. Bc4 d6 4. d3 Kd7 5. Nxe5 *\n";
        let game = PgnGames::new(text).next().expect("a game");
        assert_eq!(check(&game), None);
        assert!(!game.check(Mode::Strict).ok);
        assert_eq!(same_as_the_full_check(text).map_err(|e| e.to_string()), Ok(0));
    }

    #[test]
    fn clean_games_take_the_quick_pass() {
        for seed in 0..300 {
            let text = lichess_style(seed);
            let game = PgnGames::new(text.as_bytes()).next().expect("a game");
            assert!(game.check_with(Mode::Strict, &mut ()).ok, "{text}");
            let quick = same_as_the_full_check(text.as_bytes()).map_err(|e| e.to_string());
            assert_eq!(quick, Ok(1), "{text}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        /// Games spoilt at random are reported by the quick pass exactly as by the full check,
        /// or left to the full check.
        #[test]
        fn mutated_games_are_reported_as_the_full_check_does(
            seed in any::<u64>(),
            changes in proptest::collection::vec(
                (any::<prop::sample::Index>(), 0u8..4, any::<prop::sample::Index>()),
                1..4,
            ),
        ) {
            let mut text = lichess_style(seed).into_bytes();
            for (at, kind, snippet) in changes {
                let at = at.index(text.len() + 1);
                mutate(&mut text, at, kind, SNIPPETS[snippet.index(SNIPPETS.len())]);
            }
            same_as_the_full_check(&text)?;
        }
    }
}
