//! Writes reproducible random legal games: one contest record per line, or PGN with `--pgn`.
//!
//! `cargo run --release -p arbiter-chess-record --example gen_games -- [--pgn] [GAMES] [SEED]`
//! (defaults: 10000 games, seed 2026). The same seed gives the same games in both formats.

use std::io::{self, BufWriter, Write};

use arbiter_chess_record::Dialect;
use arbiter_chess_record::random::{RandomGames, record};
use arbiter_chess_record::shakmaty::{Chess, Color, Move, Position};

fn main() -> io::Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let pgn = args.iter().any(|arg| arg == "--pgn");
    args.retain(|arg| arg != "--pgn");
    let games: usize = args.first().and_then(|n| n.parse().ok()).unwrap_or(10_000);
    let seed: u64 = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(2026);
    let mut out = BufWriter::new(io::stdout().lock());
    let mut random = RandomGames::new(seed);
    for game in 1..=games {
        let moves = random.next_moves();
        if pgn {
            let movetext = record(&moves, Dialect::Standard);
            let result = result(&moves);
            writeln!(out, "[Event \"Random game {game}\"]\n[Site \"?\"]\n[Date \"????.??.??\"]")?;
            writeln!(
                out,
                "[Round \"{game}\"]\n[White \"White {game}\"]\n[Black \"Black {game}\"]"
            )?;
            writeln!(out, "[Result \"{result}\"]\n\n{movetext} {result}\n")?;
        } else {
            writeln!(out, "{}", record(&moves, Dialect::Contest))?;
        }
    }
    out.flush()
}

/// The PGN result of a game: decided only by mate or stalemate, else unfinished (`*`).
fn result(moves: &[Move]) -> &'static str {
    let mut pos = Chess::default();
    for &m in moves {
        pos.play_unchecked(m);
    }
    match (pos.is_checkmate(), pos.is_stalemate(), pos.turn()) {
        (true, _, Color::White) => "0-1",
        (true, _, Color::Black) => "1-0",
        (_, true, _) => "1/2-1/2",
        _ => "*",
    }
}
