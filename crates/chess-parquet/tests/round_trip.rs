//! PGN to Parquet and back gives what `chess fix` gives: on the wild-PGN fixture files, on
//! lichess-style games (which keep no text: their columns give it back), and on random
//! mixtures of both; and the columns hold what the games say.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use arbiter_chess_parquet::{DatasetWriter, Tally, convert, write_pgn};
use arbiter_chess_record::Dialect;
use arbiter_chess_record::fix::fix_pgn;
use arbiter_chess_record::pgn::{MAX_GAME_BYTES, Mode, Splitter};
use arbiter_chess_record::random::RandomGames;
use arbiter_chess_record::shakmaty::san::SanPlus;
use arbiter_chess_record::shakmaty::{Chess, Position};
use proptest::prelude::*;

/// A fresh folder under Cargo's temporary folder for tests.
fn scratch() -> PathBuf {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("round-trip-{n}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// `pgn` converted in `mode`, and written back.
fn round_trip(pgn: &[u8], mode: Mode, limit: usize) -> (Tally, Vec<u8>, PathBuf) {
    let dir = scratch();
    let mut writer = DatasetWriter::new(&dir, "games.pgn", 0, 0);
    let tally = convert::convert(Splitter::new(pgn), limit, mode, &mut writer).expect("converted");
    writer.finish().expect("written");
    let mut back = Vec::new();
    write_pgn(&dir, &mut back).expect("read back");
    (tally, back, dir)
}

/// Games as lichess writes them: 17 tags, a clock after every move, evaluations on some.
fn lichess(games: usize, seed: u64) -> String {
    let mut out = String::new();
    let mut random = RandomGames::new(seed);
    for n in 0..games {
        let moves = random.next_moves();
        let mut pos = Chess::default();
        let mut movetext = String::new();
        for (ply, &m) in moves.iter().enumerate() {
            let number = ply / 2 + 1;
            let san = SanPlus::from_move_and_play_unchecked(&mut pos, m);
            let clock = 180 - (ply as u64 / 2) % 170;
            let eval = if n % 3 == 0 {
                format!("[%eval {}.{}] ", ply % 4, ply % 10)
            } else {
                String::new()
            };
            if ply > 0 {
                movetext.push(' ');
            }
            let number = if ply % 2 == 0 { format!("{number}.") } else { format!("{number}...") };
            movetext.push_str(&format!(
                "{number} {san} {{ {eval}[%clk 0:{:02}:{:02}] }}",
                clock / 60,
                clock % 60
            ));
        }
        let result = if pos.is_checkmate() {
            if pos.turn().is_white() { "0-1" } else { "1-0" }
        } else {
            ["1-0", "0-1", "1/2-1/2"][n % 3]
        };
        let day = n % 28 + 1;
        let month = n % 3 + 1;
        out.push_str(&format!(
            "[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/g{n:07}\"]\n\
             [Date \"2024.{month:02}.{day:02}\"]\n[Round \"-\"]\n[White \"w{n}\"]\n[Black \"b{n}\"]\n\
             [Result \"{result}\"]\n[UTCDate \"2024.{month:02}.{day:02}\"]\n[UTCTime \"12:{:02}:07\"]\n\
             [WhiteElo \"{}\"]\n[BlackElo \"{}\"]\n[WhiteRatingDiff \"+{}\"]\n[BlackRatingDiff \"-{}\"]\n\
             [ECO \"C50\"]\n[Opening \"Italian Game\"]\n[TimeControl \"180+0\"]\n\
             [Termination \"Normal\"]\n\n{movetext} {result}\n\n",
            n % 60,
            1200 + n * 7 % 900,
            1300 + n * 11 % 900,
            n % 9,
            n % 7,
        ));
    }
    out
}

fn fixture(name: &str) -> Vec<u8> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../chess-record/tests/fixtures/pgn").join(name);
    std::fs::read(&path).expect("fixture")
}

#[test]
fn the_wild_fixture_files_come_back_as_fix_writes_them() {
    for name in ["annotated.pgn", "chess960.pgn", "null-moves.pgn", "uci.pgn", "variants.pgn"] {
        let text = fixture(name);
        for mode in [Mode::Strict, Mode::Lenient] {
            let (tally, back, _) = round_trip(&text, mode, MAX_GAME_BYTES);
            assert!(tally.games > 0);
            assert_eq!(
                String::from_utf8_lossy(&back),
                String::from_utf8_lossy(&fix_pgn(&text, Dialect::Standard).text),
                "{name} in {mode:?}"
            );
        }
    }
}

#[test]
fn lichess_games_come_back_from_their_columns_alone() {
    let text = lichess(60, 7);
    let (tally, back, dir) = round_trip(text.as_bytes(), Mode::Strict, MAX_GAME_BYTES);
    assert_eq!((tally.games, tally.ok, tally.kept_text), (60, 60, 0));
    assert_eq!(String::from_utf8_lossy(&back), text);
    let months: Vec<String> = std::fs::read_dir(&dir)
        .expect("dataset")
        .map(|entry| entry.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    let mut months = months;
    months.sort();
    assert_eq!(months, ["month=2024-01", "month=2024-02", "month=2024-03"]);
}

#[test]
fn a_game_too_large_is_a_row_without_text() {
    let (a, b) = (lichess(1, 1), lichess(2, 2));
    let big = format!("[White \"big\"]\n\n1. e4 {{{}}} *\n\n", "x".repeat(50_000));
    let text = format!("{a}{big}{b}");
    let (tally, back, _) = round_trip(text.as_bytes(), Mode::Strict, 20_000);
    assert_eq!((tally.games, tally.wrong.get("too_large")), (4, Some(&1)));
    // The game and the blank line after it are not kept; the others come back.
    assert_eq!(String::from_utf8_lossy(&back), format!("{a}{b}"));
}

/// Pieces of PGN of every shape: lichess's, the fixtures' games, and oddities.
fn pieces() -> Vec<String> {
    let mut pieces: Vec<String> = lichess(6, 3)
        .split_inclusive("\n\n\n")
        .flat_map(|chunk| chunk.split("\n\n[").map(str::to_owned).collect::<Vec<_>>())
        .collect();
    // Put back the `[` each split took, but on the first.
    for piece in pieces.iter_mut().skip(1) {
        piece.insert(0, '[');
        if !piece.ends_with("\n\n") {
            piece.push_str("\n\n");
        }
    }
    if let Some(first) = pieces.first_mut()
        && !first.ends_with("\n\n")
    {
        first.push_str("\n\n");
    }
    pieces.extend(
        [
            "[White \"A\"]\n\n1.e4 e5 2.Nf3 {x} Nc6 (2... d6) 3. Bb5 $1 1-0\n\n",
            "1. e4 e5 2. Ng1f3 0-0 *\n\n",
            "[Event \"wrapped\"]\n[Result \"*\"]\n\n1. d4 { [%clk 0:01:00] } 1... d5 { [%clk 0:01:00] }\n2. c4 *\n\n\n",
            "\u{feff}[White \"bom\"]\n\n1. e4 *\n\n",
            "[White \"M\u{fc}ller\"]\n\n1. e4 1/2-1/2\n",
            "   \n\n",
            "1. f3 e5 2. g4 Qh4# 0-1\n\n",
        ]
        .map(str::to_owned),
    );
    pieces
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Whatever the mixture, the dataset gives back what `fix` writes.
    #[test]
    fn any_mixture_comes_back_as_fix_writes_it(
        chosen in prop::collection::vec(any::<prop::sample::Index>(), 0..12),
        lenient: bool,
    ) {
        let pieces = pieces();
        let text: String = chosen.iter().map(|i| pieces[i.index(pieces.len())].as_str()).collect();
        if text.trim().is_empty() {
            return Ok(());
        }
        let mode = if lenient { Mode::Lenient } else { Mode::Strict };
        let (_, back, _) = round_trip(text.as_bytes(), mode, MAX_GAME_BYTES);
        let fixed = fix_pgn(text.as_bytes(), Dialect::Standard).text;
        prop_assert_eq!(String::from_utf8_lossy(&back), String::from_utf8_lossy(&fixed));
    }
}
