//! A live game's state machine: who holds which seat, the moves played (each judged by
//! [`arbiter_duck::Game`]), the clocks, the draw offer and the takeback request, and how the game
//! ended. [`LiveGame::apply`] is the only way a game changes; it refuses, with a [`Refusal`], any
//! action the game's state does not allow, and then leaves the game as it was.

use arbiter_duck::Game;
use arbiter_duck::judge::Command;
use arbiter_duck::rules::{EndReason, MAX_PLIES};
use serde::{Deserialize, Serialize};

use crate::clock::{Clocks, TimeControl};
use crate::seat::{GameId, Seat, Token};

/// The longest player name kept, in characters.
pub const NAME_LEN: usize = 40;

/// A new game as its creator asks for it.
#[derive(Debug, Clone, Default)]
pub struct New {
    /// The creator's name, as typed (trimmed and cut to [`NAME_LEN`]).
    pub name: String,
    /// The creator's seat; `None` draws it at random.
    pub seat: Option<Seat>,
    /// The time control; `None` plays without clocks.
    pub time: Option<TimeControl>,
}

/// What a seat does.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "action", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Action {
    /// Takes up the seat (the invited player's first visit), giving the player's name.
    Join {
        /// The name as typed.
        #[serde(default)]
        name: String,
    },
    /// Plays the official command `x1 y1 x2 y2`.
    Move {
        /// The command.
        command: String,
    },
    /// Gives up the game.
    Resign,
    /// Offers a draw, or accepts the other side's offer.
    OfferDraw,
    /// Accepts the other side's draw offer.
    AcceptDraw,
    /// Declines the other side's draw offer (or withdraws one's own).
    DeclineDraw,
    /// Asks to take back one's last move.
    RequestTakeback,
    /// Accepts the other side's takeback request.
    AcceptTakeback,
    /// Declines the other side's takeback request (or withdraws one's own).
    DeclineTakeback,
    /// Once the game is over: offers a rematch, or accepts the other side's offer.
    OfferRematch,
    /// Accepts the other side's rematch offer.
    AcceptRematch,
    /// Declines the other side's rematch offer (or withdraws one's own).
    DeclineRematch,
}

impl Action {
    /// Whether the action answers the end of the game: a rematch's offer or answer, which only a
    /// finished game takes (see [`LiveGame::answer_rematch`]).
    pub fn is_rematch(&self) -> bool {
        matches!(self, Action::OfferRematch | Action::AcceptRematch | Action::DeclineRematch)
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct End {
    /// The winner; `None` for a draw.
    pub winner: Option<Seat>,
    /// Why: `captain` (a captain captured), `no-move` (the side to move is blocked: a draw),
    /// `ply-cap` (300 plies: a draw), `resign`, `time` (a clock ran out), `agreement` (a draw).
    pub reason: &'static str,
}

impl End {
    /// The reasons, as stored.
    pub const REASONS: [&'static str; 6] =
        ["captain", "no-move", "ply-cap", "resign", "time", "agreement"];

    /// The end for `winner` and a `reason` read back from the store, if it is one.
    pub fn from_stored(winner: Option<Seat>, reason: &str) -> Option<End> {
        End::REASONS.iter().find(|known| **known == reason).map(|&reason| End { winner, reason })
    }

    /// One line for people: `red wins: blue resigned`.
    pub fn text(&self) -> String {
        let why = match (self.reason, self.winner) {
            ("captain", Some(w)) => format!("the {} captain is captured", w.other()),
            ("resign", Some(w)) => format!("{} resigned", w.other()),
            ("time", Some(w)) => format!("{} ran out of time", w.other()),
            ("no-move", _) => "the side to move has no valid move".to_owned(),
            ("ply-cap", _) => format!("{MAX_PLIES} plies without a captured captain"),
            ("agreement", _) => "agreed".to_owned(),
            (other, _) => other.to_owned(),
        };
        match self.winner {
            Some(winner) => format!("{winner} wins: {why}"),
            None => format!("draw: {why}"),
        }
    }
}

/// One move played, with the time it took.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Played {
    /// The official command.
    pub command: String,
    /// From the start of the turn to the move, in milliseconds.
    pub took_ms: u64,
    /// When it was played (ms since the epoch).
    pub at: u64,
    /// Both clocks once it was played (the increment added), when the game has clocks.
    pub clocks: Option<(u64, u64)>,
}

/// Why an action is refused. Nothing changes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// The seat moved out of turn.
    #[error("it is {0}'s turn")]
    NotYourTurn(Seat),
    /// The command is not four integers: where and why.
    #[error("a command is four integers `x1 y1 x2 y2`: {0}")]
    Malformed(String),
    /// The rules refuse the move.
    #[error("invalid move: {0}")]
    Invalid(String),
    /// A clock ran out before the move arrived.
    #[error("{0}'s time is up")]
    TimeUp(Seat),
    /// There is no offer or request of the other side to answer.
    #[error("there is no {0} to answer")]
    NothingToAnswer(&'static str),
    /// A takeback needs a move of one's own to take back.
    #[error("there is no move of yours to take back")]
    NothingToTakeBack,
    /// The seat is already taken up.
    #[error("the seat is already taken")]
    Joined,
    /// A rematch is offered once the game is over.
    #[error("the game is not over")]
    NotOver,
    /// The rematch is agreed already: it is the game named.
    #[error("the rematch is agreed already: game {0}")]
    Rematched(GameId),
}

/// A live game: its seats, moves, clocks, offers and end.
#[derive(Debug, Clone)]
pub struct LiveGame {
    /// Its id.
    pub id: GameId,
    /// Each seat's token, red first.
    pub tokens: [Token; 2],
    /// Each seat's name as typed, red first; `None` until the seat is taken up.
    pub names: [Option<String>; 2],
    /// The time control, if any.
    pub time: Option<TimeControl>,
    /// The clocks, when there is a time control.
    pub clocks: Option<Clocks>,
    /// The moves played.
    pub moves: Vec<Played>,
    /// The seat whose draw offer stands.
    pub draw_offer: Option<Seat>,
    /// The seat whose takeback request stands.
    pub takeback: Option<Seat>,
    /// How it ended, once it has.
    pub end: Option<End>,
    /// The seat whose rematch offer stands, once the game is over.
    pub rematch_offer: Option<Seat>,
    /// The rematch, once both seats agreed to one: its game, where each token holds the other
    /// seat.
    pub rematch: Option<GameId>,
    /// When it was created (ms since the epoch).
    pub created_at: u64,
    /// When its last turn began (ms since the epoch).
    pub turn_since: u64,
    /// Changes committed so far: every view carries it, so that clients keep the newest.
    pub version: u64,
    /// The rules' game after the moves.
    game: Game,
}

/// A game as everyone may see it: no token in it.
#[derive(Debug, Clone, Serialize)]
pub struct View {
    /// The id.
    pub id: GameId,
    /// Changes committed so far.
    pub version: u64,
    /// Each seat's name, or `null` while it is not taken up.
    pub red: Option<String>,
    /// Blue's name.
    pub blue: Option<String>,
    /// The time control as text (`5+3`), or `null`.
    pub time: Option<String>,
    /// The clocks as of `now`: each side's time left and the side whose clock runs.
    pub clocks: Option<ClockView>,
    /// Every command played, in order.
    pub commands: Vec<String>,
    /// Every move with the time it took.
    pub moves: Vec<Played>,
    /// The side to move.
    pub turn: Seat,
    /// The seat whose draw offer stands.
    pub draw_offer: Option<Seat>,
    /// The seat whose takeback request stands.
    pub takeback: Option<Seat>,
    /// `ongoing` or `over`.
    pub status: &'static str,
    /// How the game ended, once it has.
    pub end: Option<EndView>,
    /// The seat whose rematch offer stands.
    pub rematch_offer: Option<Seat>,
    /// The rematch's game, once agreed: the same two seat tokens, the colours swapped.
    pub rematch: Option<GameId>,
    /// The position as FEN.
    pub fen: String,
    /// When it was created (ms since the epoch).
    pub created_at: u64,
}

/// The clocks in a [`View`].
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ClockView {
    /// Red's time left.
    pub red_ms: u64,
    /// Blue's time left.
    pub blue_ms: u64,
    /// The side whose clock runs.
    pub running: Option<Seat>,
}

/// The end in a [`View`].
#[derive(Debug, Clone, Serialize)]
pub struct EndView {
    /// `red`, `blue` or `null` for a draw.
    pub winner: Option<Seat>,
    /// The reason's code (see [`End::reason`]).
    pub reason: &'static str,
    /// One line for people.
    pub text: String,
}

/// A command's four integers, read as the judge reads them ([`Command`]'s one reader): any
/// integers, a huge one being an ordinary move off the board, which the rules then refuse.
fn parse_command(text: &str) -> Result<Command, Refusal> {
    text.parse::<Command>().map_err(|error| Refusal::Malformed(error.to_string()))
}

/// A name as typed, trimmed, without control characters, cut to [`NAME_LEN`] characters.
pub fn clean_name(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_control())
        .collect::<String>()
        .trim()
        .chars()
        .take(NAME_LEN)
        .collect()
}

impl LiveGame {
    /// A new game whose creator holds `creator`, created at `now`.
    pub fn new(
        id: GameId,
        tokens: [Token; 2],
        creator: Seat,
        name: &str,
        time: Option<TimeControl>,
        now: u64,
    ) -> LiveGame {
        let mut names = [None, None];
        names[creator.index()] = Some(clean_name(name));
        LiveGame {
            id,
            tokens,
            names,
            time,
            clocks: time.map(Clocks::start),
            moves: Vec::new(),
            draw_offer: None,
            takeback: None,
            end: None,
            rematch_offer: None,
            rematch: None,
            created_at: now,
            turn_since: now,
            version: 0,
            game: Game::new(),
        }
    }

    /// The rematch of this game, agreed at `now`, as the game `id`: the same players and time
    /// control, the colours swapped. Each seat's token carries over to the other colour, so that
    /// the link each player holds leads to the new game too.
    pub fn rematch_game(&self, id: GameId, now: u64) -> LiveGame {
        let [red, blue] = self.tokens.clone();
        let [red_name, blue_name] = self.names.clone();
        LiveGame {
            tokens: [blue, red],
            names: [blue_name, red_name],
            ..LiveGame::new(id, self.tokens.clone(), Seat::Red, "", self.time, now)
        }
    }

    /// A game read back from the store: `moves` are replayed (they were valid when played), and
    /// the clocks are `clocks` (red's and blue's time left as of the last change) or else those
    /// after the last move. The turn under way restarts at `now`: the time the server was down
    /// is not charged.
    #[allow(clippy::too_many_arguments)]
    pub fn restore(
        id: GameId,
        tokens: [Token; 2],
        names: [Option<String>; 2],
        time: Option<TimeControl>,
        (moves, kept): (Vec<Played>, Option<(u64, u64)>),
        offers: (Option<Seat>, Option<Seat>),
        end: Option<End>,
        created_at: u64,
        version: u64,
        now: u64,
    ) -> Result<LiveGame, Refusal> {
        let mut game = Game::new();
        for played in &moves {
            let Command { from, to } = parse_command(&played.command)?;
            game.play_coords(from, to).map_err(|invalid| Refusal::Invalid(invalid.to_string()))?;
        }
        let clocks = time.map(|control| {
            let mut clocks = Clocks::start(control);
            if let Some((red_ms, blue_ms)) = kept.or_else(|| moves.last().and_then(|m| m.clocks)) {
                clocks.red_ms = red_ms;
                clocks.blue_ms = blue_ms;
            }
            clocks.since = (end.is_none() && moves.len() >= 2).then_some(now);
            clocks
        });
        Ok(LiveGame {
            id,
            tokens,
            names,
            time,
            clocks,
            moves,
            draw_offer: offers.0,
            takeback: offers.1,
            end,
            rematch_offer: None,
            rematch: None,
            created_at,
            turn_since: now,
            version,
            game,
        })
    }

    /// The seat `token` holds, if any.
    pub fn seat_of(&self, token: &str) -> Option<Seat> {
        [Seat::Red, Seat::Blue].into_iter().find(|seat| self.tokens[seat.index()].matches(token))
    }

    /// The side to move.
    pub fn turn(&self) -> Seat {
        Seat::of(self.game.turn())
    }

    /// The rules' game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Ends the game when the side to move's time has run out at `now`; returns whether it did.
    pub fn flag(&mut self, now: u64) -> bool {
        let turn = self.turn();
        let out = self.end.is_none()
            && self.clocks.is_some_and(|c| c.since.is_some() && c.left_at(turn, now) == 0);
        if out {
            if let Some(clocks) = &mut self.clocks {
                let left = clocks.left_at(turn, now);
                match turn {
                    Seat::Red => clocks.red_ms = left,
                    Seat::Blue => clocks.blue_ms = left,
                }
                clocks.since = None;
            }
            self.finish(End { winner: Some(turn.other()), reason: "time" });
        }
        out
    }

    /// When the side to move's time runs out, if its clock runs.
    pub fn deadline(&self) -> Option<u64> {
        let clocks = self.clocks?;
        let since = clocks.since?;
        self.end.is_none().then(|| since + clocks.left(self.turn()))
    }

    fn finish(&mut self, end: End) {
        self.end = Some(end);
        self.draw_offer = None;
        self.takeback = None;
        if let Some(clocks) = &mut self.clocks {
            clocks.since = None;
        }
    }

    /// Applies `action` by `seat` at `now`, or refuses it leaving the game as it was.
    pub fn apply(&mut self, seat: Seat, action: Action, now: u64) -> Result<(), Refusal> {
        if self.end.is_some() {
            return Err(Refusal::Over);
        }
        if let Action::Join { name } = &action {
            if self.names[seat.index()].is_some() {
                return Err(Refusal::Joined);
            }
            self.names[seat.index()] = Some(clean_name(name));
            return Ok(());
        }
        // A seat's first action takes it up, without a name, if it was not taken before.
        self.names[seat.index()].get_or_insert_with(String::new);
        // A clock that has run out is for the caller to settle first, with `flag`.
        match action {
            Action::Join { .. } => unreachable!("handled above"),
            Action::Move { command } => self.play(seat, &command, now)?,
            Action::Resign => self.finish(End { winner: Some(seat.other()), reason: "resign" }),
            Action::OfferDraw => {
                if self.draw_offer == Some(seat.other()) {
                    self.finish(End { winner: None, reason: "agreement" });
                } else {
                    self.draw_offer = Some(seat);
                }
            }
            Action::AcceptDraw => {
                if self.draw_offer != Some(seat.other()) {
                    return Err(Refusal::NothingToAnswer("draw offer"));
                }
                self.finish(End { winner: None, reason: "agreement" });
            }
            Action::DeclineDraw => {
                if self.draw_offer.is_none() {
                    return Err(Refusal::NothingToAnswer("draw offer"));
                }
                self.draw_offer = None;
            }
            Action::RequestTakeback => {
                if self.plies_to_take_back(seat) == 0 {
                    return Err(Refusal::NothingToTakeBack);
                }
                self.takeback = Some(seat);
            }
            Action::AcceptTakeback => {
                let Some(asker) = self.takeback.filter(|&asker| asker == seat.other()) else {
                    return Err(Refusal::NothingToAnswer("takeback request"));
                };
                self.take_back(asker, now)?;
            }
            Action::DeclineTakeback => {
                if self.takeback.is_none() {
                    return Err(Refusal::NothingToAnswer("takeback request"));
                }
                self.takeback = None;
            }
            // The game goes on: a rematch is for later (see `answer_rematch`).
            Action::OfferRematch | Action::AcceptRematch | Action::DeclineRematch => {
                return Err(Refusal::NotOver);
            }
        }
        Ok(())
    }

    /// Applies the rematch action `action` of `seat` to the finished game, or refuses it leaving
    /// the game as it was; `id` names the rematch should it be agreed now. Answers whether it
    /// was: the caller then creates [`LiveGame::rematch_game`] under `id`.
    pub fn answer_rematch(
        &mut self,
        seat: Seat,
        action: &Action,
        id: &GameId,
    ) -> Result<bool, Refusal> {
        if self.end.is_none() {
            return Err(Refusal::NotOver);
        }
        if let Some(agreed) = &self.rematch {
            return Err(Refusal::Rematched(agreed.clone()));
        }
        let from_other = self.rematch_offer == Some(seat.other());
        match action {
            Action::OfferRematch | Action::AcceptRematch if from_other => {
                self.rematch_offer = None;
                self.rematch = Some(id.clone());
                Ok(true)
            }
            Action::OfferRematch => {
                self.rematch_offer = Some(seat);
                Ok(false)
            }
            Action::AcceptRematch => Err(Refusal::NothingToAnswer("rematch offer")),
            Action::DeclineRematch if self.rematch_offer.is_some() => {
                self.rematch_offer = None;
                Ok(false)
            }
            Action::DeclineRematch => Err(Refusal::NothingToAnswer("rematch offer")),
            _ => Err(Refusal::Over),
        }
    }

    /// The plies a takeback by `seat` removes: its last move and any reply to it.
    fn plies_to_take_back(&self, seat: Seat) -> usize {
        let plies = self.moves.len();
        // The seat's moves are the plies of its parity: red plays 0, 2, ...
        let last_own = (0..plies).rev().find(|ply| ply % 2 == seat.index());
        last_own.map_or(0, |ply| plies - ply)
    }

    fn take_back(&mut self, asker: Seat, now: u64) -> Result<(), Refusal> {
        let count = self.plies_to_take_back(asker);
        if count == 0 {
            return Err(Refusal::NothingToTakeBack);
        }
        for _ in 0..count {
            self.moves.pop();
            self.game.undo();
        }
        self.takeback = None;
        self.draw_offer = None;
        self.turn_since = now;
        if let (Some(clocks), Some(control)) = (&mut self.clocks, self.time) {
            let (red_ms, blue_ms) = self
                .moves
                .last()
                .and_then(|m| m.clocks)
                .unwrap_or((control.initial_ms, control.initial_ms));
            clocks.red_ms = red_ms;
            clocks.blue_ms = blue_ms;
            clocks.since = (self.moves.len() >= 2).then_some(now);
        }
        Ok(())
    }

    fn play(&mut self, seat: Seat, command: &str, now: u64) -> Result<(), Refusal> {
        let turn = self.turn();
        if seat != turn {
            return Err(Refusal::NotYourTurn(turn));
        }
        let Command { from, to } = parse_command(command)?;
        let mut game = self.game.clone();
        game.play_coords(from, to).map_err(|invalid| Refusal::Invalid(invalid.to_string()))?;
        let mut clocks = self.clocks;
        if let (Some(clocks), Some(control)) = (&mut clocks, self.time) {
            let run_next = self.moves.len() + 1 >= 2;
            if !clocks.after_move(seat, now, control.increment_ms, run_next) {
                return Err(Refusal::TimeUp(seat));
            }
        }
        self.moves.push(Played {
            command: Command { from, to }.to_string(),
            took_ms: now.saturating_sub(self.turn_since),
            at: now,
            clocks: clocks.map(|c| (c.red_ms, c.blue_ms)),
        });
        self.game = game;
        self.clocks = clocks;
        self.turn_since = now;
        self.draw_offer = None;
        self.takeback = None;
        let outcome = self.game.position().outcome_after(self.moves.len(), MAX_PLIES);
        if let Some(outcome) = outcome {
            let reason = match outcome.reason {
                EndReason::CaptainCaptured => "captain",
                EndReason::NoMove { .. } => "no-move",
                EndReason::PlyCap { .. } => "ply-cap",
            };
            self.finish(End { winner: outcome.winner.map(Seat::of), reason });
        }
        Ok(())
    }

    /// The game as everyone may see it at `now`.
    pub fn view(&self, now: u64) -> View {
        let turn = self.turn();
        let clocks = self.clocks.map(|c| ClockView {
            red_ms: if turn == Seat::Red { c.left_at(Seat::Red, now) } else { c.red_ms },
            blue_ms: if turn == Seat::Blue { c.left_at(Seat::Blue, now) } else { c.blue_ms },
            running: c.since.map(|_| turn),
        });
        View {
            id: self.id.clone(),
            version: self.version,
            red: self.names[0].clone(),
            blue: self.names[1].clone(),
            time: self.time.map(|t| t.to_string()),
            clocks,
            commands: self.moves.iter().map(|m| m.command.clone()).collect(),
            moves: self.moves.clone(),
            turn,
            draw_offer: self.draw_offer,
            takeback: self.takeback,
            status: if self.end.is_some() { "over" } else { "ongoing" },
            end: self.end.map(|end| EndView {
                winner: end.winner,
                reason: end.reason,
                text: end.text(),
            }),
            rematch_offer: self.rematch_offer,
            rematch: self.rematch.clone(),
            fen: self.game.position().to_string(),
            created_at: self.created_at,
        }
    }

    /// The game as the official input: the number of commands, then one per line.
    pub fn official(&self) -> String {
        let mut text = format!("{}\n", self.moves.len());
        for played in &self.moves {
            text.push_str(&played.command);
            text.push('\n');
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> (LiveGame, [Token; 2]) {
        let tokens = [Token::from_stored("r".into()), Token::from_stored("b".into())];
        let id = GameId::parse("abcdefghij").unwrap();
        (LiveGame::new(id, tokens.clone(), Seat::Red, "", None, 0), tokens)
    }

    #[test]
    fn a_seats_first_action_takes_it_up_without_a_name() {
        let (mut game, _) = game();
        assert_eq!(game.names, [Some(String::new()), None]);
        game.apply(Seat::Red, Action::Move { command: "0 3 1 4".into() }, 1).unwrap();
        // A refused action takes nothing up: the caller keeps the game as it was.
        let mut refused = game.clone();
        assert!(refused.apply(Seat::Blue, Action::AcceptDraw, 2).is_err());
        game.apply(Seat::Blue, Action::Move { command: "9 4 8 4".into() }, 2).unwrap();
        assert_eq!(game.names, [Some(String::new()), Some(String::new())]);
        assert_eq!(
            game.apply(Seat::Blue, Action::Join { name: "Bob".into() }, 3),
            Err(Refusal::Joined)
        );
    }

    #[test]
    fn a_huge_coordinate_is_an_invalid_move_not_a_malformed_command() {
        let (mut game, _) = game();
        let huge = Action::Move { command: "99999999999999999999 0 0 0".into() };
        assert!(matches!(game.apply(Seat::Red, huge, 1), Err(Refusal::Invalid(_))));
        let garbage = Action::Move { command: "0 3 x 4".into() };
        assert!(matches!(game.apply(Seat::Red, garbage, 1), Err(Refusal::Malformed(_))));
    }
}
