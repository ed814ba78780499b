//! Texel tuning of the evaluation's weights on positions from self-play games.
//!
//! ```text
//! cargo run --release -p arbiter-duck-engine --example texel -- selfplay \
//!     --games 4000 --nodes 3000 --threads 2 --seed 1 --out target/texel/games.txt
//! cargo run --release -p arbiter-duck-engine --example texel -- tune \
//!     --data target/texel/games.txt --out crates/duck-engine/src/eval/weights.rs
//! ```
//!
//! `selfplay` plays the engine against itself from openings of a few random moves, with a fixed
//! number of nodes per move, and writes each quiet position it met (the side to move not in
//! check, its best move not a capture, the game not yet decided) with the game's result for red
//! and the game's number: `FEN;1;G` (red won), `FEN;0.5;G` (a draw: no move, or 300 plies
//! without a captured captain) or `FEN;0;G`.
//!
//! `tune` reads those positions, leaving out the drawn games unless `--draws keep` is given: a
//! draw here is nearly always a game nobody converted before the ply cap, even a car up, so its
//! label says little about who stood better (tuning without them gained about 100 Elo over
//! tuning with them; BENCHMARKS.md). It fits the weights so that a logistic function of the
//! evaluation predicts the results:
//! it minimises the mean squared error of `1 / (1 + exp(-k * value))` against the result, first
//! choosing `k` for the current weights, then moving every weight by Adam gradient steps. The
//! evaluation is linear in its weights ([`eval::Trace`] lists each position's counts), so each
//! step costs one pass over the counts. It writes the weights as Rust source with their
//! provenance.

use std::fs::{self, File};
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use arbiter_duck::rules::MAX_PLIES;
use arbiter_duck::{Color, Position};
use arbiter_duck_engine::eval::{self, Trace};
use arbiter_duck_engine::random::RandomMover;
use arbiter_duck_engine::search::{Limits, Searcher, StopFlag};
use arbiter_duck_engine::value;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result =
        match args.first().map(String::as_str) {
            Some("selfplay") => selfplay(&Options::parse(&args[1..])),
            Some("tune") => tune(&Options::parse(&args[1..]), &args),
            _ => Err("usage: texel selfplay|tune [--option value ...] (see the source's docs)"
                .to_owned()),
        };
    if let Err(message) = result {
        eprintln!("texel: {message}");
        std::process::exit(2);
    }
}

/// `--name value` pairs.
struct Options(Vec<(String, String)>);

impl Options {
    fn parse(args: &[String]) -> Options {
        Options(
            args.chunks(2)
                .map(|pair| {
                    (
                        pair[0].trim_start_matches("--").to_owned(),
                        pair.get(1).cloned().unwrap_or_default(),
                    )
                })
                .collect(),
        )
    }

    fn get<T: std::str::FromStr>(&self, name: &str, default: T) -> Result<T, String> {
        match self.0.iter().find(|(n, _)| n == name) {
            None => Ok(default),
            Some((_, value)) => {
                value.parse().map_err(|_| format!("--{name}: cannot read `{value}`"))
            }
        }
    }

    fn path(&self, name: &str) -> Result<PathBuf, String> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, value)| PathBuf::from(value))
            .ok_or_else(|| format!("--{name} is required"))
    }
}

fn selfplay(options: &Options) -> Result<(), String> {
    let games: u64 = options.get("games", 1000)?;
    let nodes: u64 = options.get("nodes", 3000)?;
    let threads: usize = options.get("threads", 1)?;
    let seed: u64 = options.get("seed", 1)?;
    let random_plies: usize = options.get("random-plies", 8)?;
    let out = options.path("out")?;
    if let Some(dir) = out.parent() {
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let file = File::create(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let writer = Mutex::new(BufWriter::new(file));
    let next = AtomicU64::new(0);
    let tally = Mutex::new([0u64; 3]);
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                // The games the classical weights are fitted to are played with them.
                let mut engine = Searcher::new(8);
                engine.set_evaluation(eval::Evaluation::Classical);
                loop {
                    let game = next.fetch_add(1, Ordering::Relaxed);
                    if game >= games {
                        break;
                    }
                    let (positions, result) = play_game(
                        &mut engine,
                        seed.wrapping_mul(1_000_003) ^ game,
                        nodes,
                        random_plies,
                    );
                    let label = match result {
                        Some(Color::Red) => "1",
                        Some(Color::Blue) => "0",
                        None => "0.5",
                    };
                    {
                        let mut tally = tally.lock().unwrap();
                        tally[match result {
                            Some(Color::Red) => 0,
                            None => 1,
                            Some(Color::Blue) => 2,
                        }] += 1;
                        let done: u64 = tally.iter().sum();
                        if done.is_multiple_of(100) {
                            eprintln!(
                                "{done}/{games} games ({:?} red won / drawn / blue won), {:.0} s",
                                *tally,
                                start.elapsed().as_secs_f64()
                            );
                        }
                    }
                    let mut writer = writer.lock().unwrap();
                    for fen in positions {
                        let _ = writeln!(writer, "{fen};{label};{game}");
                    }
                }
            });
        }
    });
    writer.into_inner().unwrap().flush().map_err(|e| e.to_string())?;
    eprintln!(
        "{games} games in {:.0} s: {:?}",
        start.elapsed().as_secs_f64(),
        tally.into_inner().unwrap()
    );
    Ok(())
}

/// Plays one game; returns the quiet positions met and the winner (`None` for a draw).
fn play_game(
    engine: &mut Searcher,
    seed: u64,
    nodes: u64,
    random_plies: usize,
) -> (Vec<String>, Option<Color>) {
    engine.clear();
    let mut position = Position::new();
    let mut random = RandomMover::new(seed);
    let mut positions = Vec::new();
    let stop = StopFlag::new();
    let mut ply = 0;
    loop {
        // Games end as matches adjudicate them, the ply cap included.
        if let Some(outcome) = position.outcome_after(ply, MAX_PLIES) {
            return (positions, outcome.winner);
        }
        let mv = if ply < random_plies {
            random.choose(&position)
        } else {
            let result = engine.search(&position, &Limits::nodes(nodes), &stop, |_| {});
            let quiet = result.best.is_some_and(|mv| position.piece_at(mv.to).is_none());
            if quiet && !position.in_check() && !value::is_decisive(result.value) {
                positions.push(position.to_string());
            }
            result.best
        };
        let Some(mv) = mv else { return (positions, None) };
        let _ = position.make(mv);
        ply += 1;
    }
}

/// One training position: its counts and the result for red.
struct Sample {
    trace: Trace,
    result: f64,
}

fn tune(options: &Options, args: &[String]) -> Result<(), String> {
    let data = options.path("data")?;
    let out = options.path("out")?;
    let epochs: usize = options.get("epochs", 3000)?;
    let rate: f64 = options.get("rate", 2.0)?;
    let limit: usize = options.get("positions", usize::MAX)?;
    let keep_draws = match options.get("draws", "skip".to_owned())?.as_str() {
        "skip" => false,
        "keep" => true,
        other => return Err(format!("--draws: expected skip or keep, found `{other}`")),
    };
    let file = File::open(&data).map_err(|e| format!("{}: {e}", data.display()))?;
    let mut samples = Vec::new();
    let mut games = std::collections::HashSet::new();
    for (number, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| e.to_string())?;
        let mut fields = line.split(';');
        let (Some(fen), Some(result), game) = (fields.next(), fields.next(), fields.next()) else {
            return Err(format!("{}:{}: expected FEN;RESULT;GAME", data.display(), number + 1));
        };
        let result: f64 =
            result.parse().map_err(|_| format!("{}:{}: bad result", data.display(), number + 1))?;
        if result == 0.5 && !keep_draws {
            continue;
        }
        games.insert(game.unwrap_or_default().to_owned());
        let position: Position =
            fen.parse().map_err(|e| format!("{}:{}: {e}", data.display(), number + 1))?;
        samples.push(Sample { trace: Trace::of(&position), result });
        if samples.len() >= limit {
            break;
        }
    }
    eprintln!("{} positions of {} games", samples.len(), games.len());
    let mut weights: Vec<f64> = eval::weights::WEIGHTS.iter().map(|&w| f64::from(w)).collect();
    let k = fit_scale(&samples, &weights);
    let initial_error = error(&samples, &weights, k);
    eprintln!("k = {k:.6}, error {initial_error:.6}");

    // Adam on the mean squared error.
    let n = weights.len();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (beta1, beta2) = (0.9f64, 0.999f64);
    let start = Instant::now();
    for epoch in 1..=epochs {
        let mut gradient = vec![0.0; n];
        for sample in &samples {
            let p = sigmoid(k * sample.trace.red_value(&weights));
            let g = (p - sample.result) * p * (1.0 - p) * k;
            for &(index, count) in &sample.trace.counts {
                gradient[usize::from(index)] += g * f64::from(count);
            }
        }
        for i in 0..n {
            let g = 2.0 * gradient[i] / samples.len() as f64;
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let m_hat = m[i] / (1.0 - beta1.powi(epoch as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(epoch as i32));
            weights[i] -= rate * m_hat / (v_hat.sqrt() + 1e-12);
        }
        if epoch % 100 == 0 || epoch == epochs {
            eprintln!(
                "epoch {epoch}: error {:.6} ({:.0} s)",
                error(&samples, &weights, k),
                start.elapsed().as_secs_f64()
            );
        }
    }
    let final_error = error(&samples, &weights, k);
    let rounded: Vec<i32> = weights.iter().map(|w| w.round() as i32).collect();
    let provenance = format!(
        "Tuned on {date} by the `texel` example: {positions} positions of {games} self-play games \
         from `{data}`, k = {k:.6}, mean squared error {initial_error:.6} before, \
         {final_error:.6} after; command: `cargo run --release -p arbiter-duck-engine --example \
         texel -- {command}`.",
        date = today(),
        positions = samples.len(),
        games = games.len(),
        data = data.display(),
        command = args.join(" "),
    );
    fs::write(&out, weights_source(&rounded, &provenance))
        .map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!("wrote {}", out.display());
    Ok(())
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn error(samples: &[Sample], weights: &[f64], k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = sigmoid(k * s.trace.red_value(weights));
            (p - s.result) * (p - s.result)
        })
        .sum();
    total / samples.len() as f64
}

/// The scale `k` that fits the current weights best (golden-section search).
fn fit_scale(samples: &[Sample], weights: &[f64]) -> f64 {
    let (mut low, mut high) = (1e-4, 0.05);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = high - phi * (high - low);
        let b = low + phi * (high - low);
        if error(samples, weights, a) < error(samples, weights, b) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

/// Today's date, `YYYY-MM-DD` (UTC).
fn today() -> String {
    let days =
        SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The weights as the source of `eval/weights.rs`.
fn weights_source(weights: &[i32], provenance: &str) -> String {
    let mut text = String::from(
        "//! The evaluation's weights, in centipawns, in the order of [`GROUPS`](super::GROUPS).\n//!\n",
    );
    for line in wrap(&format!("Provenance: {provenance}"), 96) {
        text.push_str(&format!("//! {line}\n"));
    }
    text.push_str("\nuse super::COUNT;\n\n/// The weight of each term.\n#[rustfmt::skip]\npub const WEIGHTS: [i32; COUNT] = [\n");
    for (name, start, len) in eval::GROUPS {
        text.push_str(&format!("    // {name}\n"));
        for row in weights[start..start + len].chunks(10) {
            let row: Vec<String> = row.iter().map(|w| format!("{w},")).collect();
            text.push_str(&format!("    {}\n", row.join(" ")));
        }
    }
    text.push_str("];\n");
    text
}

fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let line = lines.last_mut().unwrap();
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(word.to_owned());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines
}
