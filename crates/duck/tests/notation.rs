//! The notations read back what they write, and any text either reads or gets an error that
//! points inside it: FEN, the official move form `x1 y1 x2 y2`, and the square notation `e1e2`.

use arbiter_duck::{
    Board, Color, Fen, Move, Piece, Position, PositionError, Role, Square, UciMove, bench_input,
};
use proptest::prelude::*;

fn square() -> impl Strategy<Value = Square> {
    (0..Square::COUNT).prop_map(|i| Square::from_index(i).unwrap())
}

fn piece() -> impl Strategy<Value = Piece> {
    (0..2usize, 0..7usize).prop_map(|(c, r)| Piece::new(Color::ALL[c], Role::ALL[r]))
}

/// Any board at all (a FEN describes boards no game reaches too), any counters.
fn fen() -> impl Strategy<Value = Fen> {
    let pieces = prop::collection::vec((square(), piece()), 0..90);
    (pieces, any::<bool>(), any::<u32>(), 1..=u32::MAX).prop_map(
        |(pieces, red, halfmoves, fullmoves)| {
            let mut board = Board::empty();
            for (sq, piece) in pieces {
                board.put(sq, piece);
            }
            let turn = if red { Color::Red } else { Color::Blue };
            Fen { board, turn, halfmoves, fullmoves }
        },
    )
}

/// Text made mostly of what FENs are made of.
fn almost_fen() -> impl Strategy<Value = String> {
    "[rhegcdsRHEGCDS0-9/ wb-]{0,80}|[ -~é\t]{0,40}"
}

proptest! {
    #[test]
    fn fens_read_back(fen in fen()) {
        let text = fen.to_string();
        prop_assert_eq!(text.parse::<Fen>(), Ok(fen), "{}", text);
    }

    #[test]
    fn any_text_is_a_fen_or_an_error_inside_it(text in almost_fen()) {
        match text.parse::<Fen>() {
            // What reads writes back the same, up to spacing, digits and left-out fields.
            Ok(fen) => prop_assert_eq!(fen.to_string().parse::<Fen>(), Ok(fen)),
            Err(error) => {
                prop_assert!(error.index <= text.chars().count());
                prop_assert!(error.to_string().contains("expected"));
            }
        }
        // A board that is a FEN may still be no position: an error, never a panic.
        if let Ok(fen) = text.parse::<Fen>() {
            match Position::from_fen(&fen) {
                Ok(position) => prop_assert_eq!(position.fen(), fen),
                Err(PositionError::TooMany { count, max, .. }) => prop_assert!(count > max),
                Err(PositionError::NoCaptain { color }) => {
                    prop_assert_eq!(color, !fen.turn);
                    prop_assert!(fen.board.captain(color).is_none());
                }
            }
        }
    }

    #[test]
    fn any_text_is_a_move_or_an_error_inside_it(text in "[a-j0-9 \t+-]{0,14}|[ -~é]{0,10}") {
        for result in [text.parse::<Move>(), text.parse::<UciMove>().map(|mv| mv.0)] {
            match result {
                Ok(mv) => {
                    prop_assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
                    prop_assert_eq!(mv.uci().to_string().parse::<Move>(), Ok(mv));
                }
                Err(error) => {
                    prop_assert!(error.index <= text.chars().count());
                    prop_assert!(error.to_string().contains("expected"));
                }
            }
        }
    }

    #[test]
    fn positions_read_back(seed: u64, plies in 0..200usize) {
        for position in [bench_input::random_game(seed, plies), bench_input::random_scatter(seed)] {
            let text = position.to_string();
            prop_assert_eq!(text.parse::<Position>(), Ok(position), "{}", text);
        }
    }
}

#[test]
fn every_move_reads_back_in_both_notations() {
    for from in Square::all() {
        for to in Square::all() {
            let mv = Move::new(from, to);
            let official = mv.to_string();
            let uci = mv.uci().to_string();
            assert_eq!(official.parse::<Move>(), Ok(mv));
            assert_eq!(uci.parse::<Move>(), Ok(mv));
            assert_eq!(uci.parse::<UciMove>(), Ok(UciMove(mv)));
            // The official form is not the square notation.
            assert!(official.parse::<UciMove>().is_err());
        }
    }
    // The statement's examples.
    assert_eq!("9 4 8 4".parse::<Move>().unwrap().uci().to_string(), "e10e9");
    assert_eq!("0 3 1 4".parse::<Move>().unwrap().uci().to_string(), "d1e2");
}
