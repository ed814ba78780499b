//! Writes reproducible random legal games, one contest record per line.
//!
//! `cargo run --release -p arbiter-chess-record --example gen_games -- [GAMES] [SEED] > games.txt`
//! (defaults: 10000 games, seed 2026).

use std::io::{self, BufWriter, Write};

use arbiter_chess_record::random::RandomGames;

fn main() -> io::Result<()> {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(10_000);
    let seed: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(2026);
    let mut out = BufWriter::new(io::stdout().lock());
    for record in RandomGames::new(seed).take(games) {
        writeln!(out, "{record}")?;
    }
    out.flush()
}
