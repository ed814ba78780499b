//! Fits the expected-score curve of `arbiter_duck_learn::score` to self-play results.
//!
//! ```text
//! cargo run --release -p arbiter-duck-learn --example fit_curve -- DATA.bin...
//! ```
//!
//! Each data file is what `arbiter duck selfplay` writes: quiet positions, each with the search's
//! score for the side to move and the game's result for that side. Prints the fitted scale, its
//! loss, and a table of the mean result by score band beside what the fitted curve expects (the
//! table of docs/engine.md, "Game analysis").

use arbiter_duck_learn::score::{self, logistic};
use arbiter_duck_train::record::DataFile;

fn main() {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: fit_curve DATA.bin...");
        std::process::exit(2);
    }
    let mut samples = Vec::new();
    // The same positions split by the parity of their game's number, for the fit's spread.
    let mut halves = [Vec::new(), Vec::new()];
    let mut games = 0;
    for path in &paths {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(error) => {
                eprintln!("{path}: {error}");
                std::process::exit(2);
            }
        };
        let data = match DataFile::read(&bytes) {
            Ok(data) => data,
            Err(error) => {
                eprintln!("{path}: {error}");
                std::process::exit(2);
            }
        };
        games += data.next_game;
        for record in &data.records {
            let sample = (i32::from(record.score), f64::from(record.result.score()));
            samples.push(sample);
            halves[record.game as usize % 2].push(sample);
        }
    }
    let Some(fit) = score::fit(&samples) else {
        eprintln!("no positions");
        std::process::exit(2);
    };
    println!(
        "{} positions of {games} games: scale {:.1} centipawns, mean cross-entropy {:.5} (at the \
         shipped scale {}: {:.5})",
        fit.positions,
        fit.scale,
        fit.loss,
        score::SCALE,
        cross_entropy(&samples, score::SCALE)
    );
    let half = |i: usize| score::fit(&halves[i]).map_or(f64::NAN, |fit| fit.scale);
    println!("on the even games alone {:.1}, on the odd games {:.1}", half(0), half(1));
    println!("| score band (cp) | positions | mean result | fitted curve |");
    println!("|---|---|---|---|");
    let bands = [-100_000, -800, -400, -200, -100, -50, 50, 100, 200, 400, 800, 100_000];
    for pair in bands.windows(2) {
        let (low, high) = (pair[0], pair[1]);
        let inside: Vec<&(i32, f64)> =
            samples.iter().filter(|(cp, _)| *cp >= low && *cp < high).collect();
        if inside.is_empty() {
            continue;
        }
        let mean = inside.iter().map(|(_, r)| r).sum::<f64>() / inside.len() as f64;
        let curve = inside.iter().map(|(cp, _)| logistic(f64::from(*cp), fit.scale)).sum::<f64>()
            / inside.len() as f64;
        let band = match (low, high) {
            (-100_000, high) => format!("< {high}"),
            (low, 100_000) => format!("≥ {low}"),
            (low, high) => format!("{low} to {high}"),
        };
        println!("| {band} | {} | {mean:.3} | {curve:.3} |", inside.len());
    }
}

/// The mean cross-entropy of the results under the curve of `scale`.
fn cross_entropy(samples: &[(i32, f64)], scale: f64) -> f64 {
    samples
        .iter()
        .map(|&(cp, result)| {
            let p = logistic(f64::from(cp), scale).clamp(1e-12, 1.0 - 1e-12);
            -(result * p.ln() + (1.0 - result) * (1.0 - p).ln())
        })
        .sum::<f64>()
        / samples.len() as f64
}
