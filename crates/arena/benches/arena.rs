//! Criterion benchmarks: the official data (20 games), the generated maximum-size input and the
//! adversarial strength inputs.
//! Run with `cargo bench -p arbiter-arena --bench arena`.

use arbiter_arena::generate::{Size, input};
use arbiter_arena::judge;
use arbiter_arena::rules::Rules;
use criterion::{Criterion, criterion_group, criterion_main};

const OFFICIAL: &str = include_str!("../tests/fixtures/official/1.in");
const NEAR_TIES: &str = include_str!("../tests/fixtures/adversarial/1.in");
const EXACT_TIES: &str = include_str!("../tests/fixtures/adversarial/2.in");

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("arena");
    group.sample_size(20);
    group.bench_function("official data (20 games)", |b| {
        b.iter(|| judge(OFFICIAL, Rules::official(), |_| {}).expect("valid"))
    });
    let max = input(Size::MAX, 2018);
    group.bench_function("generated maximum input (seed 2018)", |b| {
        b.iter(|| judge(&max, Rules::official(), |_| {}).expect("valid"))
    });
    group.bench_function("official data, --rules statement", |b| {
        b.iter(|| judge(OFFICIAL, Rules::statement(), |_| {}).expect("valid"))
    });
    group.bench_function("adversarial near-ties (adversarial/1.in)", |b| {
        b.iter(|| judge(NEAR_TIES, Rules::official(), |_| {}).expect("valid"))
    });
    group.bench_function("adversarial exact ties (adversarial/2.in)", |b| {
        b.iter(|| judge(EXACT_TIES, Rules::official(), |_| {}).expect("valid"))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
