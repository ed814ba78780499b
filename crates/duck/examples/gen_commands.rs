//! Writes a long Duck Chess input to standard output: `gen_commands [COMMANDS] [SEED]`
//! (default 1,000,000 commands, seed 2019). See `arbiter_duck::bench_input::long_game`.

use std::io::Write;

fn main() {
    let mut args = std::env::args().skip(1);
    let commands = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    let seed = args.next().and_then(|a| a.parse().ok()).unwrap_or(2019);
    let text = arbiter_duck::bench_input::long_game(commands, seed);
    if let Err(error) = std::io::stdout().lock().write_all(text.as_bytes()) {
        eprintln!("gen_commands: {error}");
        std::process::exit(1);
    }
}
