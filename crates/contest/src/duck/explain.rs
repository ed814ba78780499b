//! Why a line of the Duck Chess answer is what it is: the board before the command and, in words,
//! which piece moved and what it captured, who gives check from where, or why the command is
//! invalid. Every reason comes from the rule crate: the `Invalid` reasons of `Game::play` and the
//! movement table for attacks and blocked points.

use arbiter_duck::judge::Commands;
use arbiter_duck::movement::{self, Reach};
use arbiter_duck::{Board, Color, Game, Played};
use arbiter_scan::{Scanner, place_at};

use crate::problem::{Explanation, InputError};

/// Explains line `line` (1-based) of the answer to `input`: that of command `line`.
pub(super) fn explain(input: &str, line: usize) -> Result<Explanation, InputError> {
    let mut commands = Commands::new(input).map_err(|e| InputError(e.to_string()))?;
    let announced = commands.announced();
    let mut game = Game::new();
    for number in 1..=line {
        let Some(command) = commands.next() else {
            return Ok(Explanation {
                what: format!("line {line}"),
                why: format!(
                    "the input has {}, so the answer has {}",
                    crate::count(announced as usize, "commands"),
                    crate::count(announced as usize, "lines")
                ),
                ..Explanation::default()
            });
        };
        let command = command.map_err(|e| InputError(e.to_string()))?;
        if number < line {
            let _ = game.play_coords(command.from, command.to);
            continue;
        }
        let (place, written) = command_text(input, line);
        let mut context = vec![match game.winner() {
            Some(winner) => {
                format!("board before command {line} (the game is over: {winner} won):")
            }
            None => format!("board before command {line} ({} to move):", game.turn()),
        }];
        context.extend(game.board().to_string().lines().map(str::to_owned));
        let why = match game.play_coords(command.from, command.to) {
            Err(invalid) => format!("Invalid command: {invalid}"),
            Ok(played) => describe(&played, command.from, command.to, game.board()),
        };
        return Ok(Explanation {
            place,
            what: format!("command {line} `{written}`"),
            why,
            context,
        });
    }
    Err(InputError(format!("there is no line {line}")))
}

/// Where command `number` starts in `input`, and its four numbers as written.
fn command_text(input: &str, number: usize) -> (Option<arbiter_scan::Place>, String) {
    let mut scanner = Scanner::new(input);
    for _ in 0..1 + 4 * (number - 1) {
        scanner.next_token();
    }
    let tokens: Vec<_> = (0..4).filter_map(|_| scanner.next_token()).collect();
    let place = tokens.first().map(|t| place_at(input, t.offset));
    let text = tokens.iter().map(|t| arbiter_scan::Shown(t.text).to_string()).collect::<Vec<_>>();
    (place, text.join(" "))
}

/// A valid move in words, with the check that follows, from the board after it.
fn describe(played: &Played, from: (i64, i64), to: (i64, i64), after: &Board) -> String {
    let mut text =
        format!("{} moves from ({},{}) to ({},{})", played.piece, from.0, from.1, to.0, to.1);
    if let Some(captured) = played.captured {
        text.push_str(&format!(" and captures the {captured}"));
    }
    text.push_str(" (");
    text.push_str(&played.to_string());
    text.push_str("): ");
    if played.game_over {
        text.push_str("the game is over, and there is no check after the end");
        return text;
    }
    let attacks = attacks(after);
    if played.check {
        text.push_str("check, since ");
        text.push_str(&attacks.join(" and "));
    } else {
        text.push_str("no check: no piece of either side can capture a captain");
        let blocked = blocked(after);
        if !blocked.is_empty() {
            text.push_str(" (");
            text.push_str(&blocked.join("; "));
            text.push(')');
        }
    }
    text
}

/// Every piece that can capture the other side's captain, in words.
fn attacks(board: &Board) -> Vec<String> {
    let mut found = Vec::new();
    for color in Color::ALL {
        let Some(captain) = board.captain(!color) else { continue };
        for from in board.by_color(color) {
            if board.moves_from(from).contains(captain)
                && let (Some(piece), Some(target)) = (board.piece_at(from), board.piece_at(captain))
            {
                found.push(format!("the {piece} on {from} can capture the {target} on {captain}"));
            }
        }
    }
    found
}

/// Pieces whose pattern reaches the other side's captain but which a piece in the way stops, in
/// words (at most three).
fn blocked(board: &Board) -> Vec<String> {
    let mut found = Vec::new();
    for color in Color::ALL {
        let Some(captain) = board.captain(!color) else { continue };
        for from in board.by_color(color) {
            let Some(piece) = board.piece_at(from) else { continue };
            if let Reach::Blocked(point) =
                movement::reach(piece.role, from, captain, board.occupied())
                && let Some(by) = board.piece_at(point)
            {
                found.push(format!(
                    "the {piece} on {from} would reach the captain on {captain}, but its {} {point} holds the {by}",
                    piece.role.blocker_name()
                ));
            }
        }
    }
    found.truncate(3);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invalid_command_gets_the_rule_it_breaks() {
        let why = explain("1\n0 1  1 3\n", 1).unwrap();
        assert_eq!(why.what, "command 1 `0 1 1 3`");
        assert_eq!(why.place.map(|p| (p.line, p.column)), Some((2, 1)));
        assert_eq!(why.why, "Invalid command: horse leg (0,2) is occupied by red elephant");
        assert!(why.context[0].contains("red to move"));
    }

    #[test]
    fn a_check_names_the_attacker() {
        // The statement's sample: blue's captain walks into the reach of red's duck.
        let input = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../duck/tests/fixtures/sample/1.in"
        ))
        .unwrap();
        let why = explain(&input, 16).unwrap();
        assert!(why.why.starts_with("blue captain moves"), "{}", why.why);
        assert!(
            why.why.contains(
                "check, since the red duck on (6,6) can capture the blue captain on (9,4)"
            ),
            "{}",
            why.why
        );
        let over = explain(&input, 17).unwrap();
        assert!(over.why.contains("captures the blue captain"), "{}", over.why);
        assert!(explain(&input, 18).unwrap().why.contains("the game is over"));
    }

    #[test]
    fn no_check_names_the_blocked_attackers() {
        let why = explain("1\n0 3 1 4\n", 1).unwrap();
        assert_eq!(
            why.why,
            "red guard moves from (0,3) to (1,4) (red guard;NA;no;no): no check: no piece of either side can capture a captain"
        );
    }

    #[test]
    fn lines_past_the_answer_say_so() {
        let why = explain("1\n0 3 1 4\n", 3).unwrap();
        assert_eq!(why.why, "the input has 1 command, so the answer has 1 line");
    }
}
