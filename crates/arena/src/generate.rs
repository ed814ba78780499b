//! Deterministic random inputs within the statement's limits, for benchmarks and stress tests.
//!
//! ```
//! use arbiter_arena::generate::{Size, input};
//! use arbiter_arena::{judge, rules::Rules};
//!
//! let text = input(Size { games: 2, side: 8, pieces: 12, rounds: 50 }, 7);
//! assert_eq!(text, input(Size { games: 2, side: 8, pieces: 12, rounds: 50 }, 7));
//! judge(&text, Rules::official(), |_| {}).unwrap();
//! ```
//!
//! Every skill appears with the same probability; backward never reaches before round 1 (its l
//! is below the piece's first cooldown, and a piece never casts before that round).

use std::fmt::Write;

use crate::skill::SkillKind;

/// The dimensions of a generated input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Size {
    /// T.
    pub games: usize,
    /// N = M.
    pub side: usize,
    /// K.
    pub pieces: usize,
    /// R.
    pub rounds: usize,
}

impl Size {
    /// The largest input the statement allows: T = 20, N = M = 100, K = 200, R = 1000.
    pub const MAX: Size = Size { games: 20, side: 100, pieces: 200, rounds: 1000 };
}

/// A small xorshift generator: reproducible everywhere, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `low..=high`.
    fn range(&mut self, low: u64, high: u64) -> u64 {
        low + self.next() % (high - low + 1)
    }
}

/// The input text of `size`, the same for the same `seed`.
pub fn input(size: Size, seed: u64) -> String {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut text = String::new();
    let _ = writeln!(text, "{}", size.games);
    for _ in 0..size.games {
        let n = size.side;
        let _ = writeln!(text, "{n} {n} {} {}", size.pieces, size.rounds);
        let blocked: Vec<bool> = (0..n * n).map(|_| rng.range(0, 9) == 0).collect();
        for row in blocked.chunks(n) {
            let line: Vec<&str> = row.iter().map(|&b| if b { "1" } else { "0" }).collect();
            let _ = writeln!(text, "{}", line.join(" "));
        }
        let free: Vec<usize> = (0..n * n).filter(|&c| !blocked[c]).collect();
        for _ in 0..size.pieces {
            let cell = free[rng.range(0, free.len() as u64 - 1) as usize];
            let a = rng.range(0, 1000);
            let b = rng.range(0, a);
            let first = rng.range(1, 10);
            let _ = write!(
                text,
                "{} {} {a} {b} {} {} {first} {} {}",
                cell / n + 1,
                cell % n + 1,
                rng.range(0, 1),
                rng.range(0, 3),
                rng.range(1, 10),
                rng.range(1, 10),
            );
            let kind = SkillKind::ALL[rng.range(0, 9) as usize];
            let _ = write!(text, " {kind}");
            match kind {
                SkillKind::Onepunch => {
                    let _ = write!(text, " {} {}", rng.range(0, 1000), rng.range(1, 10));
                }
                SkillKind::Rabiribi => {
                    let _ = write!(text, " {}", rng.range(0, 10));
                }
                SkillKind::Firework => {
                    let _ = write!(text, " {}", rng.range(1, 5));
                }
                SkillKind::Dsaigao => {
                    let (o, v, l) = (rng.range(0, 20), rng.range(0, 5), rng.range(1, 5));
                    let _ = write!(text, " {o} {v} {l}");
                }
                SkillKind::Backward => {
                    let _ = write!(text, " {}", rng.range(0, first - 1));
                }
                _ => {}
            }
            text.push('\n');
        }
    }
    text
}
