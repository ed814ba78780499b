//! The evaluation's weights, in centipawns, in the order of [`GROUPS`](super::GROUPS).
//!
//! Provenance: tuned on 2026-11-23 by the `texel` example in two rounds, both on self-play games at
//! a fixed node count. Round one started from hand-set weights (material 900, 400, 200, 180, 0,
//! 250, 350; mobility, zone and escape terms by hand; no piece-square values) and fitted 3,610
//! games of that engine: 2,839 of a first `selfplay --games 4000` run stopped early (its other
//! options were not recorded) and 771 of `selfplay --nodes 3000 --seed 1` and `--seed 2`. Round two
//! started from round one's weights and added 421 games of the round-one engine (`selfplay --nodes
//! 5000 --threads 2 --seed 21`, stopped early), all merged into one file with the games numbered
//! apart, without the drawn games (as `--draws skip`, the default, does): 317,640 positions of
//! 2,611 decisive games, k = 0.002461, mean squared error 0.129089 before, 0.126522 after 3,000
//! epochs. Command: `cargo run --release -p arbiter-duck-engine --example texel -- tune --data
//! target/texel/decisive.txt --out crates/duck-engine/src/eval/weights.rs`. What each round is
//! worth in play is in BENCHMARKS.md.

use super::COUNT;

/// The weight of each term.
#[rustfmt::skip]
pub const WEIGHTS: [i32; COUNT] = [
    // material
    1272, 461, 185, 176, 0, 460, 334,
    // piece-square
    149, 140, 108, 219, 56, 195, 203, 216, 171, 116,
    -6, 160, -107, -6, 186, 118, 128, 63, 127, 194,
    73, 174, 169, 114, 205, 85, 75, 119, 153, 83,
    117, 84, 242, 91, 212, 164, 148, 278, 96, -70,
    85, 160, 196, 199, 64, 72, 166, -5, 87, -3,
    -110, -46, 63, 5, -263, -16, -59, -108, -8, 3,
    -31, -73, 86, 40, 120, -110, -41, 57, 66, 130,
    -167, 13, 7, 66, 53, -56, 52, 21, -9, 59,
    44, 44, 44, 66, 98, -17, 53, 160, -12, 77,
    81, 7, -44, 99, 89, -465, 116, -204, -11, -11,
    0, 0, -48, 0, 0, 0, 0, 0, 0, 0,
    -62, 0, 0, 0, 13, 0, 0, 0, 0, 0,
    0, 0, -26, 0, 0, 0, 0, 0, 0, 0,
    -49, 0, 0, 0, 6, 0, 0, 0, 0, 0,
    0, 0, 32, 0, 0, 0, 0, 0, 0, 0,
    0, -42, 0, -25, 0, -169, 0, 43, 0, 60,
    0, -25, 0, 33, 0, 75, 0, 17, 0, 18,
    0, -40, 0, 66, 0, -84, 0, -20, 0, 82,
    0, -60, 0, 79, 0, 56, 0, 131, 0, 321,
    0, -92, 0, 176, 0, -1001, 0, 101, 0, -11,
    -239, 1, 10, 10, 27, 20, 55, 25, -38, 56,
    -89, 113, 132, 72, -174, 92, 129, 181, 59, -69,
    -146, 152, 130, 232, -65, 92, 35, -186, 238, 325,
    -13, -62, -448, 267, 326, -575, 100, -309, 138, 303,
    -351, 28, 781, 726, 225, -1148, 253, -26, -220, 124,
    66, 339, 159, 231, 126, 125, 271, 350, 343, 344,
    178, 296, 296, 348, 334, 254, 296, 329, 359, 370,
    264, 303, 351, 373, 380, 192, 278, 324, 464, 429,
    237, 464, 413, 522, 489, 265, 470, 495, 553, 645,
    68, 422, 733, 616, 744, -552, 337, 505, 496, 753,
    -95, -115, -46, -222, -258, -273, -83, 48, -63, 0,
    -38, -130, -99, -218, 5, -113, -212, -164, -123, 50,
    -131, -59, -125, 58, -44, -87, -101, -48, -49, 12,
    -32, -123, -34, -143, 2, 607, 69, -118, 71, 17,
    -229, 73, 66, -227, -285, -65, -253, -232, -274, -89,
    // mobility
    -1, -16, -10, -9, -26, 8, -12,
    // zone attacker
    -54, -67, -63, -18, 0, -32, -83,
    // zone attackers
    -18, 45, -27, -281, 158, -735, -200, -250,
    // zone defender
    -39, 11, -41, 27, 0, 11, 11,
    // escapes
    21, -16, 12, -17, -74,
    // hanging
    48, -54, -33, -54, -10, -25, -73, -43, -60, -65,
    -89, -30, -84, -106,
    // threat
    -261, -10, 33, 40, 0, -23, 50, -171, -117, -7,
    -8, 0, -66, -33, -32, -56, 0, -48, 0, -133,
    5, -156, 4, -86, 0, 0, 3, 0, 0, 79,
    41, 137, 0, 0, -157, -78, 81, 14, 90, 0,
    3, 83, -142, 2, 29, -54, 0, -51, -179,
    // check threat
    -51, -11, -72, -21, -351, -87, 11,
    // tempo
    11,
];
