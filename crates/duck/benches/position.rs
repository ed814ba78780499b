//! The search's building blocks: perft from the start (make/unmake, generation, bulk counting at
//! the last ply), and generating, making and unmaking every move of 1,000 random positions.
//!
//! `cargo bench -p arbiter-duck --bench position`; see BENCHMARKS.md.

use std::hint::black_box;

use arbiter_duck::{Position, bench_input, perft::perft};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn perft_from_the_start(c: &mut Criterion) {
    let start = Position::new();
    let mut group = c.benchmark_group("perft");
    for depth in [3, 4] {
        group.throughput(Throughput::Elements(perft(&start, depth)));
        group.bench_function(format!("depth {depth} from the start"), |b| {
            b.iter(|| perft(black_box(&start), depth))
        });
    }
    group.finish();
}

fn moves_of_random_positions(c: &mut Criterion) {
    let positions: Vec<Position> =
        (0..1_000).map(|seed| bench_input::random_game(seed, seed as usize % 100)).collect();
    let moves: u64 = positions.iter().map(Position::count_moves).sum();
    let mut group = c.benchmark_group("1,000 positions of random games");
    group.throughput(Throughput::Elements(moves));
    group.bench_function("generate all moves", |b| {
        b.iter(|| positions.iter().map(|p| black_box(p).moves().len()).sum::<usize>())
    });
    group.bench_function("generate, make and unmake all moves", |b| {
        let mut positions = positions.clone();
        b.iter(|| {
            let mut keys = 0;
            for position in &mut positions {
                for mv in position.moves() {
                    let undo = position.make(mv);
                    keys ^= position.key();
                    position.unmake(mv, undo);
                }
            }
            keys
        })
    });
    group.bench_function("captures only", |b| {
        b.iter(|| positions.iter().map(|p| black_box(p).captures().len()).sum::<usize>())
    });
    group.finish();
}

criterion_group!(benches, perft_from_the_start, moves_of_random_positions);
criterion_main!(benches);
