//! The Duck Chess move notations on arbitrary text: the judge's `x1 y1 x2 y2`, the square
//! notation `e1e2` (`UciMove`) and square names. No panic; an error points inside the text; a
//! move that reads is written back as text that reads to the same move, and the square notation
//! has one spelling of each move.

#![no_main]

use arbiter_duck::{Move, Square, UciMove};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let chars = text.chars().count();
    match text.parse::<UciMove>() {
        Ok(mv) => {
            assert_eq!(mv.to_string(), text, "a square-notation move has one spelling");
            assert_eq!(mv.0.to_string().parse::<Move>(), Ok(mv.0));
        }
        Err(error) => assert!(error.index <= chars, "{error} in {text:?}"),
    }
    match text.parse::<Move>() {
        Ok(mv) => {
            assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
            assert_eq!(UciMove(mv).to_string().parse::<Move>(), Ok(mv));
        }
        Err(error) => assert!(error.index <= chars, "{error} in {text:?}"),
    }
    if let Some(square) = Square::from_name(&text) {
        assert_eq!(square.name().to_string(), text);
    }
});
