//! Arbitrary input never panics, and what is printed before an error is exactly one line per
//! complete command.

use arbiter_duck::judge::{self, JudgeError};
use proptest::prelude::*;

/// Text made mostly of what the format uses, with some noise.
fn almost_commands() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            8 => (-2i64..12).prop_map(|n| n.to_string()),
            3 => Just(" ".to_owned()),
            2 => Just("\n".to_owned()),
            1 => Just("\t\r\n".to_owned()),
            1 => "[a-z+\\-.é]{1,3}",
            1 => any::<i64>().prop_map(|n| n.to_string()),
        ],
        0..200,
    )
    .prop_map(|parts| parts.join(" "))
}

proptest! {
    #[test]
    fn never_panics_on_any_text(text in any::<String>()) {
        let _ = judge::run(&text, &mut Vec::new());
    }

    #[test]
    fn output_has_one_line_per_complete_command(text in almost_commands()) {
        let mut out = Vec::new();
        let result = judge::run(&text, &mut out);
        let lines = out.iter().filter(|&&b| b == b'\n').count() as u64;
        match result {
            Ok(summary) => prop_assert_eq!(lines, summary.commands),
            Err(JudgeError::Input(error)) => {
                // The error names a real place in the text.
                let line_count = text.split('\n').count() as u32;
                prop_assert!(error.place.line >= 1 && error.place.line <= line_count.max(1));
                prop_assert!(error.to_string().contains("expected"));
            }
            Err(JudgeError::Output(error)) => prop_assert!(false, "{error}"),
        }
        // Every printed line is an official verdict.
        for line in String::from_utf8(out).unwrap().lines() {
            prop_assert!(line == "Invalid command" || line.split(';').count() == 4, "{line}");
        }
    }
}
