//! The evaluation's weights, in centipawns, in the order of [`GROUPS`](super::GROUPS).
//!
//! Provenance: tuned on 2026-11-22 by the `texel` example on 575,167 quiet positions of 3,610
//! self-play games of the engine with the hand-set weights these replace (material 900, 400,
//! 200, 180, 0, 250, 350; mobility, zone and escape terms by hand; no piece-square values):
//! 2,839 games of a first `selfplay --games 4000` run stopped early (its other options were not
//! recorded), and 771 games of `selfplay --nodes 3000 --seed 1` and `--seed 2` with the
//! check-threat term, merged into `target/texel/all.txt` with the games numbered apart. Tuning
//! from the hand-set weights: k = 0.001181, mean squared error 0.104872 before, 0.085363 after
//! 3,000 epochs; command: `cargo run --release -p arbiter-duck-engine --example texel -- tune
//! --data target/texel/all.txt --out crates/duck-engine/src/eval/weights.rs`. What it is worth in
//! play (against the hand-set weights) is in BENCHMARKS.md.

use super::COUNT;

/// The weight of each term.
#[rustfmt::skip]
pub const WEIGHTS: [i32; COUNT] = [
    // material
    1258, 411, 156, 185, 0, 591, 291,
    // piece-square
    127, 140, 71, 182, 246, 152, 174, 162, 133, 95,
    -32, 77, -82, -12, 134, 86, 67, 5, 88, 119,
    4, 112, 73, 74, 133, 52, 37, 103, 89, 88,
    105, 55, 186, 82, 239, 128, 113, 175, 118, 163,
    58, 138, 162, 143, 109, 47, 111, 39, 84, 47,
    18, -32, 48, -26, -268, -16, -102, -60, 6, 1,
    -21, -31, 97, 14, 70, -75, -27, 46, 49, 123,
    -126, -1, -29, 60, 15, -71, 30, -41, 4, -7,
    -18, 10, 36, -5, -19, 2, 50, 79, -36, 43,
    -34, -86, -33, -22, -28, -252, 15, -112, -69, -58,
    0, 0, -35, 0, 0, 0, 0, 0, 0, 0,
    -58, 0, 0, 0, 17, 0, 0, 0, 0, 0,
    0, 0, -28, 0, 0, 0, 0, 0, 0, 0,
    -63, 0, 0, 0, -77, 0, 0, 0, 0, 0,
    0, 0, -28, 0, 0, 0, 0, 0, 0, 0,
    0, -61, 0, -12, 0, -119, 0, 60, 0, 38,
    0, -12, 0, 48, 0, 20, 0, 19, 0, 76,
    0, -22, 0, 67, 0, -22, 0, 39, 0, 69,
    0, 37, 0, 63, 0, 20, 0, 46, 0, 43,
    0, -28, 0, 43, 0, -307, 0, 47, 0, 5,
    -12, 0, -1, -20, 25, 51, 51, 25, -40, 14,
    -47, 68, 56, 38, -127, 41, 77, 88, 14, -26,
    -15, 90, 28, 7, -82, 16, 46, -83, 98, 74,
    -55, -43, -223, 7, 3, -124, 93, -110, 20, 59,
    -174, 0, 327, 209, -52, 94, 187, -110, -159, -6,
    -63, 182, 391, 213, -40, 12, 112, 267, 252, 290,
    134, 170, 194, 291, 263, 133, 188, 216, 245, 259,
    142, 199, 259, 277, 298, 94, 192, 225, 385, 346,
    142, 390, 327, 427, 465, 136, 402, 417, 528, 629,
    -62, 364, 738, 597, 693, -277, 474, 442, 519, 600,
    -80, -101, -142, -114, -209, -162, -90, 45, -48, 143,
    -2, -59, -19, -114, 38, -82, -163, -75, -49, 17,
    -67, -2, -77, 51, -31, -50, -85, 24, -14, 8,
    10, -74, 0, -78, -90, 21, 29, -69, 14, -117,
    -197, -114, -25, -141, -184, -63, -109, -193, -123, -86,
    // mobility
    0, -14, -15, -20, 3, 3, -14,
    // zone attacker
    -70, -55, -38, -17, 0, 16, -67,
    // zone attackers
    -27, 37, -15, -163, 17, 463, -200, -250,
    // zone defender
    -33, 5, -46, 14, 0, -34, -1,
    // escapes
    57, 17, 21, -39, -79,
    // hanging
    28, -39, -28, -35, -10, -22, -67, -61, -208, -97,
    -108, -30, -120, -96,
    // threat
    -269, -22, 35, 61, 0, -29, 59, -149, -45, 24,
    -40, 0, -97, -27, -67, -113, 0, -44, 0, -146,
    24, -128, -17, 19, 0, 0, -33, 53, 0, 12,
    -10, 3, 0, 0, -133, -76, 90, 36, 113, 0,
    22, 116, -138, 7, -7, -55, 0, -67, -50,
    // check threat
    -55, -10, -33, 20, -328, -108, -10,
    // tempo
    7,
];
