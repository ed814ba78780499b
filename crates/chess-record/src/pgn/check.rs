//! The check of one game: its tags read, then its mainline move by move, each token held to
//! the mode's rules.

use std::fmt;

use arbiter_scan::Place;
use shakmaty::Move;

use crate::fault::{Fault, Mistake, Rule};
use crate::reading::read_move;
use crate::shown::ShownBytes;
use crate::spelling::{Dialect, SanText};
use crate::token::is_null_move;
use crate::turn::Turn;
use crate::variant::{Playable, Start};

use super::commands::bad_clocks;
use super::lex::{Kind, Lexer, SyntaxError, Token};
use super::listener::Listener;
use super::outcome::{board_result, contradicts_board};
use super::report::{GameReport, Located, Mode, Problem};
use super::split::GameText;
use super::tags::Tags;

impl GameText {
    /// Reads and checks the game.
    ///
    /// A game without a finding, as nearly every game of a real file is, is read by one quick
    /// pass (see [`quick`](super::quick)); any other is read again by the full check, which
    /// places each finding.
    pub fn check(&self, mode: Mode) -> GameReport {
        match super::quick::check(self) {
            Some(report) => report,
            None => self.check_with(mode, &mut ()),
        }
    }

    /// Reads and checks the game, telling `listener` its start and each move of its mainline
    /// as they are read.
    pub fn check_with<L: Listener>(&self, mode: Mode, listener: &mut L) -> GameReport {
        let mut lexer = Lexer::new(self.text(), self.at.line);
        let (mut tags, first) = Tags::read_section(&mut lexer, listener);
        let mut report = self.report(&mut tags);
        // A game cut off stops in the middle of its last line: the input ends without a line break.
        let cut = self.last && !self.bytes.ends_with(b"\n");
        let ending = Ending { tag: tags.result.take(), cut };
        if let Ok(variant) = tags.variant() {
            report.variant = variant;
        }
        let mut movetext = Movetext { lexer, first, mode, report, listener, ending };
        let start = tags.start();
        if let Ok(start) = &start {
            movetext.listener.start(start);
        }
        let result = match start {
            Ok(Start::Chess(pos)) => movetext.check(pos),
            Ok(Start::Variant(pos)) => movetext.check(pos),
            Err(problem) => Err(problem),
        };
        let mut report = movetext.report;
        if let Err(problem) = result {
            report.fail(problem);
        }
        report
    }

    /// The report on the game before its movetext is read: where it is, and what its tags
    /// name (taken from `tags`, but the `Result` tag, which the movetext is held to).
    pub(super) fn report(&self, tags: &mut Tags) -> GameReport {
        let mut report = GameReport::new(self.index, self.at);
        report.offset = self.start_offset();
        report.white = tags.white.take().unwrap_or_else(|| "?".to_owned());
        report.black = tags.black.take().unwrap_or_else(|| "?".to_owned());
        report.id = tags.site.take().or_else(|| tags.game_id.take());
        report.result = tags.result.as_ref().map(|(_, text)| text.clone());
        report
    }
}

/// The movetext of a game being checked, the report being written and who listens.
struct Movetext<'a, 'l, L> {
    lexer: Lexer<'a>,
    /// The token that ended the tags.
    first: Option<Result<Token<'a>, Box<SyntaxError>>>,
    mode: Mode,
    report: GameReport,
    listener: &'l mut L,
    ending: Ending,
}

/// What the game's end is held against: its `Result` tag, and whether the input stops in the
/// middle of its last line.
struct Ending {
    tag: Option<(Place, String)>,
    cut: bool,
}

/// A move number read and not yet matched with its move.
struct Number<'a> {
    text: &'a [u8],
    at: Place,
}

/// The last move of the mainline: where its token ends, and its turn and spelling, for a glyph
/// glued to it or a lone `e.p.` after it.
struct LastMove<'a> {
    end: usize,
    at: Place,
    turn: Turn,
    token: &'a [u8],
    canonical: SanText,
    played: Move,
}

impl<'a, L: Listener> Movetext<'a, '_, L> {
    /// Notes a departure from the export format: an error in strict mode, a warning in
    /// lenient mode.
    fn departure(&mut self, problem: Problem) -> Result<(), Problem> {
        match self.mode {
            Mode::Strict => Err(problem),
            Mode::Lenient => {
                self.report.warnings.push(problem);
                Ok(())
            }
        }
    }

    /// A departure made by the move `ply`, `played`: in strict mode the listener is told the
    /// move is refused.
    fn refuse(&mut self, problem: Problem, ply: u32, played: Move) -> Result<(), Problem> {
        let result = self.departure(problem);
        if result.is_err() {
            self.listener.refuse(ply, played);
        }
        result
    }

    fn check<P: Playable>(&mut self, mut pos: P) -> Result<(), Problem> {
        let strict = self.mode == Mode::Strict;
        let text = self.lexer.text();
        // Checked once: a token of a game that is UTF-8 is UTF-8 when it starts and ends on a
        // character's boundary, which `str::get` tells at once.
        let utf8 = std::str::from_utf8(text).ok();
        let mut number: Option<Number<'a>> = None;
        let mut last: Option<LastMove<'a>> = None;
        let mut ended = false;
        // The mainline's result token, where it stands.
        let mut result: Option<(Place, &'a [u8])> = None;
        let mut first = self.first.take();
        // The lexer is read directly, not as an iterator: the first error ends the reading.
        loop {
            let token = match first.take() {
                Some(token) => token.map_err(|error| Problem::Syntax(*error))?,
                None => match self.lexer.next_token().map_err(|error| Problem::Syntax(*error))? {
                    Some(token) => token,
                    None => break,
                },
            };
            if token.depth > 0 && !matches!(token.kind, Kind::Open) {
                continue;
            }
            match token.kind {
                Kind::Tag { .. } | Kind::Close => {}
                Kind::Comment => {
                    self.listener.comment(self.report.plies, &text[token.span.clone()]);
                    // A clock written otherwise than `[%clk H:MM:SS]` is told.
                    bad_clocks(&text[token.span.clone()], |whole| {
                        let found = ShownBytes(whole).to_string();
                        self.report.warnings.push(Problem::Clock { at: token.at, found });
                    });
                }
                Kind::Number(text) => {
                    if strict && let Some(before) = &number {
                        let found = format!("`{}`", ShownBytes(text));
                        return Err(move_expected(before, token.at, &found));
                    }
                    number = Some(Number { text, at: token.at });
                }
                Kind::Open | Kind::Result => {
                    if strict && let Some(before) = &number {
                        let found = format!("`{}`", ShownBytes(&text[token.span.clone()]));
                        return Err(move_expected(before, token.at, &found));
                    }
                    number = None;
                    if token.kind == Kind::Result {
                        ended = true;
                        result = Some((token.at, &text[token.span.clone()]));
                    }
                }
                Kind::Nag => {
                    let glyph = &text[token.span.clone()];
                    if let Some(last) = last.as_ref().filter(|last| last.end == token.span.start)
                        && matches!(glyph.first(), Some(b'!' | b'?'))
                    {
                        let fault = Fault::Misspelled {
                            canonical: last.canonical.to_string(),
                            rule: Rule::GluedAnnotation,
                        };
                        let token = format!("{}{}", ShownBytes(last.token), ShownBytes(glyph));
                        let mistake = Mistake::new(last.turn, &token, None, fault);
                        self.refuse(moved(last.at, mistake), self.report.plies, last.played)?;
                    }
                }
                Kind::Move(text) => {
                    let turn = Turn::of(&pos);
                    if let Some(number) = number.take()
                        && strict
                    {
                        check_number(&number, turn)?;
                    }
                    let at = token.at;
                    // Spelled out only for a message: most moves need none.
                    let mistake = |fault| {
                        let shown = ShownBytes(text).to_string();
                        moved(at, Mistake::new(turn, &shown, None, fault))
                    };
                    let token_text = match utf8 {
                        Some(whole) => whole.get(token.span.clone()),
                        None => std::str::from_utf8(text).ok(),
                    };
                    if let (Some("e.p." | "ep"), Some(before)) = (token_text, &last)
                        && before.played.is_en_passant()
                    {
                        let fault = Fault::Misspelled {
                            canonical: before.canonical.to_string(),
                            rule: Rule::EnPassantMark,
                        };
                        let shown = ShownBytes(text).to_string();
                        let wrong = Mistake::new(before.turn, &shown, None, fault);
                        self.refuse(moved(at, wrong), self.report.plies, before.played)?;
                        last = None;
                        continue;
                    }
                    let Some(token_text) = token_text else {
                        return Err(mistake(Fault::NotAMove));
                    };
                    if is_null_move(token_text) {
                        // Passing in check would leave the king to be taken: no reading of
                        // the file can go on from there.
                        let Some(passed) = pos.pass() else {
                            return Err(mistake(Fault::NullMove));
                        };
                        self.departure(mistake(Fault::NullMove))?;
                        pos = passed;
                        self.report.plies += 1;
                        self.listener.play(self.report.plies, token_text, None, "--");
                        last = None;
                        continue;
                    }
                    let reading =
                        read_move(&mut pos, token_text, Dialect::Standard).map_err(mistake)?;
                    if let Some(rule) = reading.rule {
                        let canonical = reading.canonical.to_string();
                        let problem = mistake(Fault::Misspelled { canonical, rule });
                        self.refuse(problem, self.report.plies + 1, reading.played)?;
                    }
                    self.report.plies += 1;
                    self.listener.play(
                        self.report.plies,
                        token_text,
                        Some(reading.played),
                        reading.canonical.as_str(),
                    );
                    last = Some(LastMove {
                        end: token.span.end,
                        at,
                        turn,
                        token: text,
                        canonical: reading.canonical,
                        played: reading.played,
                    });
                }
            }
        }
        // Where the game ends is found only for a message: it reads the game's text again.
        if let (Some(before), true) = (&number, strict) {
            return Err(move_expected(before, self.lexer.end_place(), &"the end of the game"));
        }
        self.hold_result(&pos, result);
        if !ended {
            let at = self.lexer.end_place();
            if self.ending.cut {
                self.report.warnings.push(Problem::Truncated { at });
            }
            self.departure(Problem::NoResult { at })?;
        }
        Ok(())
    }

    /// Warns when the result written disagrees: the token with the `Result` tag, or either with
    /// a mate or stalemate on the board (standard chess only: the variants end otherwise).
    fn hold_result<P: Playable>(&mut self, pos: &P, token: Option<(Place, &[u8])>) {
        let token = token.map(|(at, text)| (at, String::from_utf8_lossy(text).into_owned()));
        let tag = self.ending.tag.take();
        if let (Some((at, token)), Some((_, tag))) = (&token, &tag)
            && token != tag
        {
            self.report.warnings.push(Problem::Result {
                at: *at,
                written: format!("{token} (the result token)"),
                against: format!("the Result tag {tag}"),
            });
        }
        let Some((expected, why)) = board_result(pos) else {
            return;
        };
        let written = [
            token.map(|(at, text)| (at, text, "the result token")),
            tag.map(|(at, text)| (at, text, "the Result tag")),
        ];
        for (at, text, what) in written.into_iter().flatten() {
            if contradicts_board(&text, expected) {
                let written = format!("{text} ({what})");
                let against = why.to_owned();
                self.report.warnings.push(Problem::Result { at, written, against });
            }
        }
    }
}

/// A move problem at `at`.
fn moved(at: Place, mistake: Mistake) -> Problem {
    Problem::Move(Box::new(Located { at, mistake }))
}

/// The error when a move number is followed by something else than a move.
fn move_expected(number: &Number<'_>, at: Place, found: &dyn fmt::Display) -> Problem {
    Problem::Syntax(SyntaxError {
        at,
        expected: format!("a move after the move number `{}`", ShownBytes(number.text)).into(),
        found: found.to_string(),
    })
}

/// Strict mode: the number before a move must be the move's own, `12.` for white and `12...` for
/// black.
fn check_number(number: &Number<'_>, turn: Turn) -> Result<(), Problem> {
    if turn.is_numbered_by(number.text) { Ok(()) } else { Err(wrong_number(number, turn)) }
}

/// The error when `number` is not the number of the move at `turn`.
#[cold]
fn wrong_number(number: &Number<'_>, turn: Turn) -> Problem {
    let expected = turn.number();
    Problem::Syntax(SyntaxError {
        at: number.at,
        expected: format!("the move number `{expected}` before {}'s move", turn.side).into(),
        found: format!("`{}`", ShownBytes(number.text)),
    })
}
