//! The official judge end to end (parse, judge, write) on a generated 1,000,000-command game.
//!
//! `cargo bench -p arbiter-duck --bench judge`; see BENCHMARKS.md.

use std::hint::black_box;
use std::io;

use arbiter_duck::{bench_input, judge};
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

criterion_group!(benches, judge_long_game);
criterion_main!(benches);
