//! Throughput of the contest record check, in plies per second on one core.

use arbiter_chess_record::{check_record, random::RandomGames};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn records(c: &mut Criterion) {
    let games: Vec<String> = RandomGames::new(2026).take(200).collect();
    let plies: u64 = games
        .iter()
        .map(|record| match check_record(record) {
            arbiter_chess_record::Verdict::Yes { plies } => u64::from(plies),
            arbiter_chess_record::Verdict::No(_) => 0,
        })
        .sum();
    let mut group = c.benchmark_group("check_record");
    group.throughput(Throughput::Elements(plies));
    group.bench_function("200 random games", |b| {
        b.iter(|| games.iter().filter(|record| check_record(record).is_yes()).count())
    });
    group.finish();
}

criterion_group!(benches, records);
criterion_main!(benches);
