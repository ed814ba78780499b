//! Prints the benchmark's maximum-size input (T = 20, N = M = 100, K = 200, R = 1000):
//! `cargo run --release -p arbiter-arena --example max_input [SEED] > max.in`.

use arbiter_arena::generate::{Size, input};

fn main() {
    let seed = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(2018);
    print!("{}", input(Size::MAX, seed));
}
