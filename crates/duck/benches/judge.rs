//! The official judge end to end (parse, judge, write) on a generated 1,000,000-command game, and
//! its parts: check detection and move generation.
//!
//! `cargo bench -p arbiter-duck --bench judge`; see BENCHMARKS.md.

use std::hint::black_box;
use std::io;

use arbiter_duck::{Position, bench_input, judge, perft::perft};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const COMMANDS: usize = 1_000_000;

fn judge_long_game(c: &mut Criterion) {
    let input = bench_input::long_game(COMMANDS, 2019);
    let mut group = c.benchmark_group("judge");
    group.throughput(Throughput::Elements(COMMANDS as u64));
    group.sample_size(20);
    group.bench_function("1M commands to a sink", |b| {
        b.iter(|| judge::run(black_box(&input), &mut io::sink()).unwrap())
    });
    let mut out = Vec::with_capacity(24 * COMMANDS);
    group.bench_function("1M commands to memory", |b| {
        b.iter(|| {
            out.clear();
            judge::run(black_box(&input), &mut out).unwrap()
        })
    });
    group.finish();
}

fn perft_3(c: &mut Criterion) {
    let start = Position::new();
    let mut group = c.benchmark_group("perft");
    group.throughput(Throughput::Elements(perft(&start, 3)));
    group.bench_function("depth 3 from the start", |b| b.iter(|| perft(black_box(&start), 3)));
    group.finish();
}

criterion_group!(benches, judge_long_game, perft_3);
criterion_main!(benches);
