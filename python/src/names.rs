//! Short names of faults and rules for Python code to match on: the variant's name in snake
//! case, `Fault::MissingBlackMove` → `missing_black_move`, `Rule::ZeroCastling` →
//! `zero_castling`.
//!
//! The names are taken from the variants themselves, so a variant added to the library has its
//! name here without a second list to keep.

use std::fmt::Debug;

use arbiter_chess_record::{Fault, Rule};

/// The name of `fault`'s kind: `illegal`, `misspelled`, `move_number`, ...
pub fn fault(fault: &Fault) -> String {
    snake_case(fault)
}

/// The name of `rule`: `zero_castling`, `missing_check`, `uci`, ...
pub fn rule(rule: Rule) -> String {
    snake_case(&rule)
}

/// The rule a fault breaks, when it is a misspelling.
pub fn rule_of(fault: &Fault) -> Option<String> {
    match fault {
        Fault::Misspelled { rule: broken, .. } => Some(rule(*broken)),
        _ => None,
    }
}

/// The canonical spelling the fault names: one for a misspelling, none otherwise.
pub fn canonical(fault: &Fault) -> Option<&str> {
    match fault {
        Fault::Misspelled { canonical, .. } => Some(canonical),
        _ => None,
    }
}

/// Every canonical spelling that fits: the one of a misspelling, the candidates of an ambiguous
/// move or of a promotion that names no piece.
pub fn alternatives(fault: &Fault) -> Vec<String> {
    match fault {
        Fault::Misspelled { canonical, .. } => vec![canonical.clone()],
        Fault::Ambiguous { alternatives, .. } | Fault::MissingPromotion { alternatives } => {
            alternatives.clone()
        }
        _ => Vec::new(),
    }
}

/// The variant name at the start of `value`'s `Debug` form, in snake case.
fn snake_case(value: &impl Debug) -> String {
    let debug = format!("{value:?}");
    let mut name = String::new();
    for c in debug.chars().take_while(char::is_ascii_alphanumeric) {
        if c.is_ascii_uppercase() && !name.is_empty() {
            name.push('_');
        }
        name.push(c.to_ascii_lowercase());
    }
    name
}
