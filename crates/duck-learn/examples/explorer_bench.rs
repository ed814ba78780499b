//! Builds the opening explorer from generated games and times its queries, in CPU time (the
//! machines this runs on are shared; CPU time does not count the others' work).
//!
//! ```text
//! cargo run -p arbiter-duck-learn --example explorer_bench -- [GAMES] [SEED]
//! ```
//!
//! Each game is [`MAX_PLY`] plies from the start. Half of its moves are drawn like an opening
//! book's (a move's rank in the move list geometric: the first with probability ½, the next ¼,
//! ...), the other half uniformly, so that games share their first moves and part ways later,
//! as real games do. Prints the CPU time of the build, the (position, move) pairs held and the
//! peak memory, then the CPU time of queries: the start position, and 10,000 positions taken
//! along the games (each query generates the position's moves and looks each one up).

use std::time::Duration;

use arbiter_duck::{Color, Move, Position};
use arbiter_duck_learn::explorer::{Explorer, MAX_PLY};
use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The CPU time this thread has used.
fn cpu_time() -> Duration {
    let mut spec = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `spec` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut spec) };
    Duration::new(spec.tv_sec as u64, spec.tv_nsec as u32)
}

/// One generated game and its result.
fn game(rng: &mut Xoshiro256PlusPlus) -> (Vec<Move>, Option<Color>) {
    let mut position = Position::new();
    let mut moves = Vec::with_capacity(MAX_PLY);
    while moves.len() < MAX_PLY && !position.is_over() {
        let list = position.moves();
        if list.is_empty() {
            break;
        }
        let r = rng.next_u64();
        let index = if r & 1 == 0 {
            (r >> 1).trailing_zeros() as usize % list.len()
        } else {
            ((r >> 32) % list.len() as u64) as usize
        };
        let mv = list[index];
        let _ = position.make(mv);
        moves.push(mv);
    }
    let winner = match rng.next_u64() % 3 {
        0 => Some(Color::Red),
        1 => Some(Color::Blue),
        _ => None,
    };
    (moves, winner)
}

/// The largest resident memory of the process so far, from `/proc/self/status`.
fn peak_memory() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|line| line.starts_with("VmHWM:"))
                .map(|line| line[6..].trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".to_owned())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);

    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut explorer = Explorer::new();
    let start = Position::new();
    let mut generating = Duration::ZERO;
    let mut adding = Duration::ZERO;
    for _ in 0..games {
        let before = cpu_time();
        let (moves, winner) = game(&mut rng);
        let generated = cpu_time();
        explorer.add_game(&start, &moves, winner, &[]);
        adding += cpu_time() - generated;
        generating += generated - before;
    }
    println!(
        "{games} games of {MAX_PLY} plies: {} (position, move) pairs; adding them took {:.2} s \
         of CPU ({:.2} µs a game), generating them {:.2} s; peak memory {}",
        explorer.pairs(),
        adding.as_secs_f64(),
        adding.as_secs_f64() * 1e6 / games as f64,
        generating.as_secs_f64(),
        peak_memory()
    );

    // The start position: every game played one of its moves.
    let before = cpu_time();
    let rows = explorer.moves(&start);
    let first = cpu_time() - before;
    let total: u32 = rows.iter().map(|row| row.games).sum();
    println!(
        "the start position: {} moves, {total} games, in {:.1} µs of CPU",
        rows.len(),
        first.as_secs_f64() * 1e6
    );

    // Positions along games of the same kind: each query is a position some games reached.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut times = Vec::new();
    for _ in 0..10_000 {
        let (moves, _) = game(&mut rng);
        let ply = (rng.next_u64() % (moves.len() as u64 + 1)) as usize;
        let mut position = start.clone();
        for &mv in &moves[..ply] {
            let _ = position.make(mv);
        }
        let before = cpu_time();
        let rows = explorer.moves(&position);
        times.push(cpu_time() - before);
        std::hint::black_box(rows);
    }
    times.sort();
    let micros = |d: Duration| d.as_secs_f64() * 1e6;
    let mean = times.iter().sum::<Duration>() / times.len() as u32;
    println!(
        "10,000 positions along the games: CPU time per query mean {:.1} µs, median {:.1} µs, \
         99th percentile {:.1} µs, most {:.1} µs",
        micros(mean),
        micros(times[times.len() / 2]),
        micros(times[times.len() * 99 / 100]),
        micros(times[times.len() - 1])
    );
}
