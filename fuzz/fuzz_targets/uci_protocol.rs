//! The UCI protocol's line reader on arbitrary text, both ways: what a GUI sends an engine
//! (`GuiCommand`) and what an engine answers (`EngineMessage`). No panic; an error names a
//! column inside the line (or one past its end); a line that reads is written back as a line
//! that reads to the same value; a `position` command's moves are played as the engine plays
//! them, without a panic whatever they are.

#![no_main]

use arbiter_duck_protocol::{EngineMessage, GuiCommand};
use arbiter_duck_engine::uci::position_after;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // The engine reads its input line by line.
    for line in text.lines() {
        let columns = line.chars().count() + 1;
        match line.parse::<GuiCommand>() {
            Ok(command) => {
                let written = command.to_string();
                assert_eq!(written.parse::<GuiCommand>().as_ref(), Ok(&command), "{written:?}");
                if let GuiCommand::Position { fen, moves } = &command {
                    let _ = position_after(fen.as_deref(), moves);
                }
            }
            Err(error) => assert!(error.column <= columns, "{error} in {line:?}"),
        }
        match line.parse::<EngineMessage>() {
            Ok(message) => {
                let written = message.to_string();
                assert_eq!(written.parse::<EngineMessage>().as_ref(), Ok(&message), "{written:?}");
            }
            Err(error) => assert!(error.column <= columns, "{error} in {line:?}"),
        }
    }
});
