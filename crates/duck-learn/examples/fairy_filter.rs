//! Drops from a collection of puzzles those fairy-stockfish does not agree with
//! (`tests/support/fairy.rs` says what it must find at each solver move), and writes the rest.
//!
//! ```text
//! cargo run -p arbiter-duck-learn --example fairy_filter -- IN.jsonl.zst OUT.jsonl.zst
//! ```

#[path = "../tests/support/fairy.rs"]
mod fairy;

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};

use arbiter_duck_learn::puzzle::Collection;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output] = &args[..] else {
        eprintln!("usage: fairy_filter IN.jsonl.zst OUT.jsonl.zst");
        std::process::exit(2);
    };
    let file = File::open(input).unwrap_or_else(|error| {
        eprintln!("{input}: {error}");
        std::process::exit(2);
    });
    let collection = Collection::read_zstd(BufReader::new(file)).unwrap_or_else(|error| {
        eprintln!("{input}: {error}");
        std::process::exit(2);
    });
    let mut engine = fairy::Engine::start();
    let mut kept = Vec::new();
    let total = collection.puzzles().len();
    for (index, puzzle) in collection.puzzles().iter().enumerate() {
        match fairy::judge(&mut engine, puzzle) {
            None => kept.push(puzzle.clone()),
            Some(why) => println!("{}: {why}", puzzle.id),
        }
        if (index + 1) % 100 == 0 {
            eprintln!("{} of {total} puzzles, {} kept", index + 1, kept.len());
        }
    }
    let kept = Collection::new(kept);
    let out = File::create(output).unwrap_or_else(|error| {
        eprintln!("{output}: {error}");
        std::process::exit(2);
    });
    let mut out = BufWriter::new(out);
    if let Err(error) = kept.write_zstd(&mut out).and_then(|()| out.flush()) {
        eprintln!("{output}: {error}");
        std::process::exit(2);
    }
    eprintln!("{output}: {} of {total} puzzles kept", kept.puzzles().len());
}
