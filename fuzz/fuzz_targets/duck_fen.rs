//! Duck Chess FEN on arbitrary text: no panic; a FEN that reads writes back as text that reads
//! to the same thing; a position it describes has a consistent move list (each move legal, made
//! and unmade back to the same position and key) and perft to depth 2 agrees with the move count.

#![no_main]

use arbiter_duck::{Fen, Position, perft};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(fen) = text.parse::<Fen>() else { return };
    let written = fen.to_string();
    let again: Fen = written.parse().expect("a written FEN reads");
    assert_eq!(again.to_string(), written);
    let Ok(position) = Position::from_fen(&fen) else { return };
    assert_eq!(position.fen().to_string().parse::<Position>().as_ref(), Ok(&position));
    let moves = position.moves();
    assert_eq!(moves.len() as u64, position.count_moves());
    assert_eq!(perft::perft(&position, 1), position.count_moves());
    let mut child = position.clone();
    let mut leaves = 0;
    for &mv in moves.iter() {
        assert!(position.is_legal(mv), "{mv:?} listed but not legal in {written}");
        let undo = child.make(mv);
        leaves += child.count_moves();
        child.unmake(mv, undo);
        assert_eq!(child, position);
        assert_eq!(child.key(), position.key());
    }
    assert_eq!(perft::perft(&position, 2), leaves);
});
