//! Chess game records: is every move legal and written in its canonical SAN?
//!
//! Built on [`shakmaty`] for the rules and [`pgn_reader`] for PGN files; nothing here generates
//! chess moves by hand. The contest format (seed 002) is a line `1. e4 d5 2. exd5 ...` whose
//! moves must be spelled exactly as standard SAN writes them, except that a promotion has no `=`
//! (`e8Q`) and a mate is marked `+`.
//!
//! ```
//! use arbiter_chess_record::{check_record, Verdict};
//!
//! assert_eq!(check_record("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7+").to_string(), "Yes");
//! assert_eq!(check_record("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#").to_string(), "No");
//! ```

#![warn(missing_docs)]

mod fault;
pub mod fix;
pub mod judge;
pub mod pgn;
pub mod random;
mod reading;
mod record;
mod shown;
mod spelling;
mod token;
mod turn;
pub mod validate;
mod variant;

pub use arbiter_scan::Shown;
pub use fault::{CastlingBar, DropBar, Ending, Fault, Illegal, Mistake, Rule};
pub use reading::{Reading, read_move, read_token};
pub use record::{RecordCheck, Verdict, check_record, check_record_in};
pub use shown::{ShownBytes, escaped};
pub use spelling::{Dialect, ParseDialectError, SanText};
pub use token::{MoveToken, ParseMoveTokenError, is_null_move};
pub use variant::{GameVariant, ParseVariantError, Playable, Start, StartError};

pub use shakmaty;
