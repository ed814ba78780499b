//! Writes reproducible PGN in the style of lichess's database: the 17 tags of its export, a
//! `{ [%clk 0:02:58] }` comment after every move, `[%eval ...]` in the comments of about one game
//! in ten (the games lichess has analysed), black's moves numbered again after a comment
//! (`1... c5`), the movetext on one line, and the game lengths, results, terminations and time
//! controls in about the shares lichess's files show.
//!
//! `cargo run --release -p arbiter-chess-record --example lichess_pgn -- [GAMES] [SEED]`
//! (defaults: 10000 games, seed 2026). The same seed gives the same file.
//!
//! The moves are random legal moves: what a validator costs depends on the number of moves and
//! of the comments around them, not on whether the moves are good. A game mated on the board
//! gets the result of the mate; the others get a result drawn from the mix, ended by
//! resignation or on time.

use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};

use arbiter_chess_record::shakmaty::san::SanPlus;
use arbiter_chess_record::shakmaty::{Chess, Color, Position};
use rand_core::{Rng, SeedableRng};
use rand_xoshiro::SplitMix64;

/// Time controls and how many games in a thousand are played at each (base seconds, increment).
const TIME_CONTROLS: [(u32, u32, u32); 9] = [
    (60, 0, 200),
    (180, 0, 250),
    (180, 2, 100),
    (300, 0, 150),
    (300, 3, 80),
    (600, 0, 120),
    (600, 5, 50),
    (900, 10, 30),
    (1800, 0, 20),
];

/// ECO codes and their names, drawn at random: the validator does not hold them to the moves.
const OPENINGS: [(&str, &str); 8] = [
    ("B01", "Scandinavian Defense: Mieses-Kotroc Variation"),
    ("C20", "King's Pawn Game: Wayward Queen Attack"),
    ("A00", "Van't Kruijs Opening"),
    ("D00", "Queen's Pawn Game: Accelerated London System"),
    ("C50", "Italian Game"),
    ("B20", "Sicilian Defense"),
    ("C00", "French Defense: Knight Variation"),
    ("A40", "Horwitz Defense"),
];

struct Random(SplitMix64);

impl Random {
    fn below(&mut self, n: u64) -> u64 {
        self.0.next_u64() % n.max(1)
    }

    /// A number from `low` to `high`, both included.
    fn between(&mut self, low: i64, high: i64) -> i64 {
        low + self.below((high - low + 1) as u64) as i64
    }

    fn chance(&mut self, per_thousand: u64) -> bool {
        self.below(1000) < per_thousand
    }
}

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: usize = args.first().and_then(|n| n.parse().ok()).unwrap_or(10_000);
    let seed: u64 = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(2026);
    let mut random = Random(SplitMix64::seed_from_u64(seed));
    let mut out = BufWriter::with_capacity(1 << 20, io::stdout().lock());
    let mut text = String::new();
    for game in 0..games {
        text.clear();
        write_game(&mut text, &mut random, game);
        out.write_all(text.as_bytes())?;
    }
    out.flush()
}

/// A game's length in plies: most between 20 and 130, around 70, and one in twenty longer.
fn length(random: &mut Random) -> u64 {
    let sum: u64 = (0..3).map(|_| random.below(121)).sum();
    let plies = 10 + sum / 3;
    if random.chance(50) { plies + random.below(150) } else { plies }
}

fn write_game(text: &mut String, random: &mut Random, game: usize) {
    let (base, increment, _) = {
        let mut pick = random.below(1000) as u32;
        let mut chosen = TIME_CONTROLS[0];
        for control in TIME_CONTROLS {
            if pick < control.2 {
                chosen = control;
                break;
            }
            pick -= control.2;
        }
        chosen
    };
    let speed = match base + 40 * increment {
        0..180 => "Bullet",
        180..480 => "Blitz",
        480..1500 => "Rapid",
        _ => "Classical",
    };
    let analysed = random.chance(100);
    // The moves first: the result depends on how the game ends.
    let mut pos = Chess::default();
    let mut movetext = String::new();
    let mut clocks = [i64::from(base); 2];
    let mut eval: i64 = random.between(-30, 60);
    let plies = length(random);
    for ply in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[random.below(legal.len() as u64) as usize];
        let side = usize::from(pos.turn() == Color::Black);
        let number = ply / 2 + 1;
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m);
        let think = random.between(0, (clocks[side] / 20).clamp(1, 30));
        clocks[side] = (clocks[side] - think).max(0) + i64::from(increment);
        if !movetext.is_empty() {
            movetext.push(' ');
        }
        let _ = match side {
            0 => write!(movetext, "{number}. {san} {{ "),
            _ => write!(movetext, "{number}... {san} {{ "),
        };
        if analysed {
            eval += random.between(-60, 60);
            if eval.abs() > 1200 && random.chance(300) {
                let mate = random.between(1, 9) * eval.signum();
                let _ = write!(movetext, "[%eval #{mate}] ");
            } else {
                let _ = write!(movetext, "[%eval {}] ", pawns(eval));
            }
        }
        let clock = clocks[side];
        let _ =
            write!(movetext, "[%clk {}:{:02}:{:02}] }}", clock / 3600, clock / 60 % 60, clock % 60);
    }
    let (result, termination) = if pos.is_checkmate() {
        (if pos.turn() == Color::White { "0-1" } else { "1-0" }, "Normal")
    } else if pos.is_stalemate() {
        ("1/2-1/2", "Normal")
    } else {
        let result = match random.below(1000) {
            0..497 => "1-0",
            497..954 => "0-1",
            _ => "1/2-1/2",
        };
        (result, if result != "1/2-1/2" && random.chance(310) { "Time forfeit" } else { "Normal" })
    };
    let white_elo = random.between(800, 2800);
    let black_elo = (white_elo + random.between(-200, 200)).max(400);
    let change = random.between(2, 12);
    let (white_diff, black_diff) = match result {
        "1-0" => (change, -change),
        "0-1" => (-change, change),
        _ => (0, 0),
    };
    let id: String = (0..8)
        .map(|_| {
            const ALPHABET: &[u8] =
                b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
            char::from(ALPHABET[random.below(ALPHABET.len() as u64) as usize])
        })
        .collect();
    let day = game * 31 / 1_000_000 % 31 + 1;
    let seconds = random.below(86_400);
    let (eco, opening) = OPENINGS[random.below(OPENINGS.len() as u64) as usize];
    let _ = write!(
        text,
        "[Event \"Rated {speed} game\"]\n[Site \"https://lichess.org/{id}\"]\n\
         [Date \"2024.01.{day:02}\"]\n[Round \"-\"]\n[White \"player{}\"]\n[Black \"player{}\"]\n\
         [Result \"{result}\"]\n[UTCDate \"2024.01.{day:02}\"]\n\
         [UTCTime \"{:02}:{:02}:{:02}\"]\n[WhiteElo \"{white_elo}\"]\n[BlackElo \"{black_elo}\"]\n\
         [WhiteRatingDiff \"{white_diff:+}\"]\n[BlackRatingDiff \"{black_diff:+}\"]\n\
         [ECO \"{eco}\"]\n[Opening \"{opening}\"]\n[TimeControl \"{base}+{increment}\"]\n\
         [Termination \"{termination}\"]\n\n{movetext} {result}\n\n",
        random.below(50_000),
        random.below(50_000),
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60,
    );
}

/// An evaluation in pawns as lichess writes it: `0.17`, `-1.5`, `3.0`.
fn pawns(centipawns: i64) -> String {
    let sign = if centipawns < 0 { "-" } else { "" };
    let abs = centipawns.unsigned_abs();
    let (whole, hundredths) = (abs / 100, abs % 100);
    match hundredths {
        0 => format!("{sign}{whole}.0"),
        h if h % 10 == 0 => format!("{sign}{whole}.{}", h / 10),
        h => format!("{sign}{whole}.{h:02}"),
    }
}
