//! What arbiter spends on one case of `test` besides running the program: generating the
//! input, writing its text and judging it, per profile.
//!
//! `cargo bench -p arbiter-contest --bench generate`; see BENCHMARKS.md.

use std::hint::black_box;

use arbiter_arena::rules::Rules;
use arbiter_contest::arena::{ArenaProblem, ArenaProfile};
use arbiter_contest::chess::{ChessProblem, ChessProfile};
use arbiter_contest::duck::{DuckProblem, DuckProfile};
use arbiter_contest::problem::Problem;
use criterion::{Criterion, criterion_group, criterion_main};

/// Generates, writes and answers one case per iteration, a new seed each time.
fn case_cost<P: Problem>(c: &mut Criterion, name: &str, problem: P) {
    let mut seed = 0u64;
    let mut input = Vec::new();
    c.bench_function(name, |b| {
        b.iter(|| {
            seed += 1;
            let case = problem.generate(seed);
            input.clear();
            problem.write_input(&case, &mut input);
            let text = std::str::from_utf8(&input).unwrap_or_default();
            black_box(problem.answer(text).ok())
        })
    });
}

fn cases(c: &mut Criterion) {
    for profile in [DuckProfile::Mixed, DuckProfile::Short, DuckProfile::Official] {
        case_cost(c, &format!("duck {profile}"), DuckProblem::new(profile, None));
    }
    for profile in [ChessProfile::Mixed, ChessProfile::Pinned] {
        case_cost(c, &format!("chess {profile}"), ChessProblem::new(profile, None));
    }
    for profile in [ArenaProfile::Mixed, ArenaProfile::Small] {
        case_cost(
            c,
            &format!("arena {profile}"),
            ArenaProblem::new(profile, None, Rules::official()),
        );
    }
}

criterion_group!(benches, cases);
criterion_main!(benches);
