//! Prints a random input of a chosen size, for stress tests against another implementation:
//! `cargo run --release -p arbiter-arena --example random_input GAMES SIDE PIECES ROUNDS SEED`.

use arbiter_arena::generate::{Size, input};

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let [games, side, pieces, rounds, seed] = args[..] else {
        eprintln!("usage: random_input GAMES SIDE PIECES ROUNDS SEED");
        std::process::exit(2);
    };
    let size = Size {
        games: games as usize,
        side: side as usize,
        pieces: pieces as usize,
        rounds: rounds as usize,
    };
    print!("{}", input(size, seed));
}
