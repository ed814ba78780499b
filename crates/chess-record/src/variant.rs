//! The chess variants a PGN game can name in its `Variant` tag, and the position a game starts
//! from.
//!
//! Names are matched without regard to case, with the aliases lichess, python-chess and
//! cutechess write: `Chess960`, `Fischerandom` and `Fischer Random` are [`GameVariant::Chess960`];
//! `Antichess` and `Giveaway` are lichess's antichess (no castling; a stalemated side wins);
//! `From Position` and an absent tag are standard chess. The rules come from shakmaty's
//! [`variant`](shakmaty::variant) module.
//!
//! ```
//! use arbiter_chess_record::GameVariant;
//!
//! assert_eq!("fischerandom".parse(), Ok(GameVariant::Chess960));
//! assert_eq!("King of the Hill".parse(), Ok(GameVariant::KingOfTheHill));
//! assert_eq!(GameVariant::ThreeCheck.to_string(), "Three-check");
//! assert!("Bughouse".parse::<GameVariant>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

use shakmaty::fen::Fen;
use shakmaty::variant::{Variant, VariantPosition};
use shakmaty::{
    CastlingMode, Chess, EnPassantMode, FromSetup, Outcome, Position, PositionError, Setup, attacks,
};

/// A chess variant, as a `Variant` tag names it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GameVariant {
    /// Standard chess (also `From Position`, and a game with no `Variant` tag).
    #[default]
    Standard,
    /// Fischer random chess: standard rules, any back rank, castling by the king's and the
    /// rook's files.
    Chess960,
    /// Lichess's antichess (`Giveaway`): captures are compulsory, the king is an ordinary piece,
    /// no castling; losing every piece, or being stalemated, wins.
    Antichess,
    /// Atomic chess: a capture explodes the pieces around it.
    Atomic,
    /// Crazyhouse: captured pieces change sides and may be dropped (`N@f3`).
    Crazyhouse,
    /// King of the Hill: bringing the king to a centre square wins.
    KingOfTheHill,
    /// Three-check: giving the third check wins.
    ThreeCheck,
    /// Racing Kings: no checks; bringing the king to the eighth rank wins.
    RacingKings,
    /// Horde: white's 36 pawns against black's army.
    Horde,
}

/// Each variant's canonical name (lichess's) and the other names it is known by, in lower case.
const NAMES: [(GameVariant, &str, &[&str]); 9] = [
    (
        GameVariant::Standard,
        "Standard",
        &["standard", "chess", "classical", "normal", "from position", "fromposition"],
    ),
    (
        GameVariant::Chess960,
        "Chess960",
        &["chess960", "chess 960", "fischerandom", "fischerrandom", "fischer random", "960"],
    ),
    (
        GameVariant::Antichess,
        "Antichess",
        &[
            "antichess",
            "anti chess",
            "anti",
            "giveaway",
            "giveaway chess",
            "give away",
            "give away chess",
        ],
    ),
    (GameVariant::Atomic, "Atomic", &["atomic", "atom", "atomic chess"]),
    (GameVariant::Crazyhouse, "Crazyhouse", &["crazyhouse", "crazy house", "house", "zh"]),
    (
        GameVariant::KingOfTheHill,
        "King of the Hill",
        &["king of the hill", "kingofthehill", "koth"],
    ),
    (
        GameVariant::ThreeCheck,
        "Three-check",
        &[
            "three-check",
            "three check",
            "threecheck",
            "three check chess",
            "3-check",
            "3 check",
            "3check",
        ],
    ),
    (GameVariant::RacingKings, "Racing Kings", &["racing kings", "racingkings", "racing", "race"]),
    (GameVariant::Horde, "Horde", &["horde", "horde chess"]),
];

impl GameVariant {
    /// Every variant, standard chess first.
    pub const ALL: [GameVariant; 9] = [
        GameVariant::Standard,
        GameVariant::Chess960,
        GameVariant::Antichess,
        GameVariant::Atomic,
        GameVariant::Crazyhouse,
        GameVariant::KingOfTheHill,
        GameVariant::ThreeCheck,
        GameVariant::RacingKings,
        GameVariant::Horde,
    ];

    /// The canonical name, as lichess writes it in a `Variant` tag.
    pub fn name(self) -> &'static str {
        NAMES.iter().find(|(variant, ..)| *variant == self).map_or("Standard", |(_, name, _)| name)
    }

    /// shakmaty's rules for this variant (Chess960 plays by standard chess's).
    pub fn rules(self) -> Variant {
        match self {
            GameVariant::Standard | GameVariant::Chess960 => Variant::Chess,
            GameVariant::Antichess => Variant::Antichess,
            GameVariant::Atomic => Variant::Atomic,
            GameVariant::Crazyhouse => Variant::Crazyhouse,
            GameVariant::KingOfTheHill => Variant::KingOfTheHill,
            GameVariant::ThreeCheck => Variant::ThreeCheck,
            GameVariant::RacingKings => Variant::RacingKings,
            GameVariant::Horde => Variant::Horde,
        }
    }

    /// The position a game of this variant starts from: the variant's initial position, or the
    /// one of `fen` (a `FEN` tag's value).
    ///
    /// Castling rights are read in Chess960's way (a king and rook on any files, Shredder-FEN's
    /// file letters or X-FEN's `KQkq`) for Chess960, and for any other variant when the rights
    /// make sense only that way, as python-chess does.
    pub fn start(self, fen: Option<&[u8]>) -> Result<Start, StartError> {
        let Some(fen) = fen else {
            return Ok(match (self, self.rules()) {
                (GameVariant::Chess960, _) => {
                    let setup = Chess::default().to_setup(EnPassantMode::Legal);
                    Start::Chess(
                        Chess::from_setup(setup, CastlingMode::Chess960)
                            .map_err(|e| StartError::Position(e.to_string()))?,
                    )
                }
                (_, Variant::Chess) => Start::Chess(Chess::default()),
                (_, rules) => Start::Variant(VariantPosition::new(rules)),
            });
        };
        let setup = Fen::from_ascii(fen).map_err(|e| StartError::Fen(e.to_string()))?.into_setup();
        let mode = match self {
            GameVariant::Chess960 => CastlingMode::Chess960,
            _ => CastlingMode::detect(&setup),
        };
        let position = |e: String| StartError::Position(e);
        match self.rules() {
            Variant::Chess => Chess::from_setup(setup, mode)
                .map(Start::Chess)
                .map_err(|e| position(e.to_string())),
            rules => VariantPosition::from_setup(rules, setup, mode)
                .map(Start::Variant)
                .map_err(|e| position(e.to_string())),
        }
    }
}

impl fmt::Display for GameVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error when a `Variant` tag names a variant arbiter does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown variant `{0}` (arbiter knows Standard, Chess960, Antichess, Atomic, Crazyhouse, \
     King of the Hill, Three-check, Racing Kings and Horde)"
)]
pub struct ParseVariantError(pub String);

impl FromStr for GameVariant {
    type Err = ParseVariantError;

    fn from_str(name: &str) -> Result<GameVariant, ParseVariantError> {
        let lower = name.trim().to_ascii_lowercase();
        NAMES
            .iter()
            .find(|(_, _, aliases)| aliases.contains(&lower.as_str()))
            .map(|(variant, ..)| *variant)
            .ok_or_else(|| ParseVariantError(name.to_owned()))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for GameVariant {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// Why a game cannot start: its `FEN` tag is no FEN, or not a legal position of its variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// The text is not FEN.
    #[error("{0}")]
    Fen(String),
    /// The position is not one the variant's rules allow.
    #[error("{0}")]
    Position(String),
}

/// The position a game starts from: standard chess (Chess960 included), checked at full speed,
/// or any other variant.
#[derive(Clone, Debug)]
pub enum Start {
    /// Standard chess or Chess960.
    Chess(Chess),
    /// Another variant.
    Variant(VariantPosition),
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for shakmaty::Chess {}
    impl Sealed for shakmaty::variant::VariantPosition {}
}

/// A position moves can be read in: standard chess ([`Chess`]) or any variant
/// ([`VariantPosition`]). Sealed: the reading of moves knows each of them.
pub trait Playable: Position + Clone + sealed::Sealed {
    /// Whether the rules are standard chess's, which lets the reading skip the variants' checks.
    const STANDARD: bool;

    /// shakmaty's variant.
    fn rules(&self) -> Variant;

    /// The position after the side to move passes (a null move), or `None` when passing is
    /// impossible (the side to move is in check, whose king the other side could then take).
    /// The move counters go on as after a move.
    fn pass(&self) -> Option<Self>;

    /// Whether the game has ended with a win (checkmate, or a variant's goal reached), which
    /// standard SAN marks with `#`; `check` tells whether the side to move is in check.
    fn is_won(&self, check: bool) -> bool;

    /// Whether the side to move has no legal move and is not in check: a stalemate; `check`
    /// tells whether the side to move is in check.
    fn is_stalemated(&self, check: bool) -> bool;
}

/// The setup after a pass in `pos`.
fn passed<P: Position>(pos: &P) -> Setup {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    if setup.turn.is_black() {
        setup.fullmoves = setup.fullmoves.saturating_add(1);
    }
    setup.halfmoves = setup.halfmoves.saturating_add(1);
    setup.swap_turn();
    setup
}

impl Playable for Chess {
    const STANDARD: bool = true;

    fn rules(&self) -> Variant {
        Variant::Chess
    }

    fn pass(&self) -> Option<Chess> {
        if self.is_check() {
            return None;
        }
        let mode = self.castles().mode();
        Chess::from_setup(passed(self), mode).or_else(PositionError::ignore_invalid_ep_square).ok()
    }

    fn is_won(&self, check: bool) -> bool {
        // Most checks leave the king a square to step to, which is quicker to find than every
        // answer to the check.
        check && !king_can_step(self) && self.is_checkmate()
    }

    fn is_stalemated(&self, check: bool) -> bool {
        // Nearly always the king has a square to step to: no move list needed.
        !check && !king_can_step(self) && self.is_stalemate()
    }
}

/// Whether the king of the side to move has a square to step to: one that is not ours and that
/// no enemy piece attacks once the king has left its square (a slider's line through it goes
/// on). A king that can step is not mated.
///
/// Kept out of line: only the moves that give check and the end of a game need it, and inlined
/// into the reading of every move it made that reading slower.
#[inline(never)]
fn king_can_step(pos: &Chess) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return false;
    };
    let occupied = board.occupied().without(king);
    (attacks::king_attacks(king) & !pos.us())
        .into_iter()
        .any(|to| board.attacks_to(to, !us, occupied).is_empty())
}

impl Playable for VariantPosition {
    const STANDARD: bool = false;

    fn rules(&self) -> Variant {
        self.variant()
    }

    fn pass(&self) -> Option<VariantPosition> {
        if self.is_check() {
            return None;
        }
        let mode = self.castles().mode();
        VariantPosition::from_setup(self.variant(), passed(self), mode)
            .or_else(PositionError::ignore_invalid_ep_square)
            .ok()
    }

    fn is_won(&self, check: bool) -> bool {
        // A variant's goal (an exploded king, the hill, the third check, ...) is no checkmate,
        // and python-chess and shakmaty mark it `#` all the same; a draw is not marked.
        (check || self.is_variant_end() || self.variant() == Variant::Antichess)
            && matches!(self.outcome(), Outcome::Known(shakmaty::KnownOutcome::Decisive { .. }))
    }

    fn is_stalemated(&self, check: bool) -> bool {
        !check && self.is_stalemate()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Role;

    #[test]
    fn names_and_aliases() {
        for variant in GameVariant::ALL {
            assert_eq!(variant.name().parse(), Ok(variant));
            assert_eq!(variant.name().to_uppercase().parse(), Ok(variant));
        }
        assert_eq!("Giveaway".parse(), Ok(GameVariant::Antichess));
        assert_eq!("From Position".parse(), Ok(GameVariant::Standard));
        assert_eq!("3check".parse(), Ok(GameVariant::ThreeCheck));
        assert_eq!("Suicide".parse::<GameVariant>(), Err(ParseVariantError("Suicide".into())));
    }

    #[test]
    fn chess960_castling_rights_in_both_fen_dialects() {
        // The king on b1, rooks on a1 and h1: X-FEN's KQkq and Shredder-FEN's HAha say the same.
        let x = b"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1";
        let shredder = b"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1";
        for fen in [&x[..], &shredder[..]] {
            let Ok(Start::Chess(pos)) = GameVariant::Chess960.start(Some(fen)) else {
                panic!("{}", String::from_utf8_lossy(fen))
            };
            assert_eq!(pos.castles().castling_rights().count(), 4);
        }
        // Without the tag, rights that only Chess960 can mean are read its way too.
        assert!(matches!(GameVariant::Standard.start(Some(&shredder[..])), Ok(Start::Chess(_))));
    }

    /// The king can step exactly when shakmaty finds a legal king move that is not castling, in
    /// every position of random games and of a few mates and near mates.
    #[test]
    fn king_steps_are_shakmatys() {
        let mut positions = Vec::new();
        let mut games = crate::random::RandomGames::new(11);
        for _ in 0..100 {
            let mut pos = Chess::default();
            for m in games.next_moves() {
                positions.push(pos.clone());
                pos.play_unchecked(m);
            }
            positions.push(pos);
        }
        for fen in [
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1",
            "6k1/5pp1/7p/8/8/8/8/R5K1 b - - 0 1",
            "7k/8/8/8/8/8/8/K6R b - - 0 1",
            "7k/6Q1/5K2/8/8/8/8/8 b - - 0 1",
            "k7/8/1K6/8/8/8/8/7R b - - 0 1",
        ] {
            let setup = fen.parse::<Fen>().expect(fen).into_setup();
            positions.push(Chess::from_setup(setup, CastlingMode::Standard).expect(fen));
        }
        let mut checks = 0;
        for pos in &positions {
            let steps = pos.legal_moves().iter().any(|m| m.role() == Role::King && !m.is_castle());
            assert_eq!(king_can_step(pos), steps, "{:?}", pos.board());
            checks += usize::from(pos.is_check());
        }
        assert!(checks > 300, "{checks}");
    }

    #[test]
    fn a_pass_counts_as_a_move() {
        let pos = Chess::default().pass().and_then(|pos| pos.pass());
        assert_eq!(pos.map(|pos| pos.fullmoves().get()), Some(2));
    }
}
