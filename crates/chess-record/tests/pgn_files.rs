//! PGN files as they are found in the wild (variants, Chess960, UCI movetext, null moves, lichess
//! annotations), each read with the games and mainline lengths python-chess reads, strict mode
//! naming the right reason for each departure from the export format.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use arbiter_chess_record::pgn::{GameReport, MAX_GAME_BYTES, Mode, Problem, check_games};
use arbiter_chess_record::{Fault, GameVariant, Rule};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pgn")
}

fn reports(name: &str, mode: Mode) -> Vec<GameReport> {
    let file = std::fs::File::open(dir().join(name)).expect("fixture");
    check_games(file, mode, MAX_GAME_BYTES)
        .expect("readable")
        .collect::<Result<_, _>>()
        .expect("readable")
}

/// `expected.txt`: each file's games and mainline lengths, as python-chess reads them.
fn expected() -> Vec<(String, Vec<u32>)> {
    let text = std::fs::read_to_string(dir().join("expected.txt")).expect("expected.txt");
    text.lines()
        .map(|line| {
            let mut words = line.split_whitespace();
            let name = words.next().expect("a file name").to_owned();
            let count: usize = words.next().and_then(|n| n.parse().ok()).expect("a count");
            let plies: Vec<u32> = words.map(|n| n.parse().expect("plies")).collect();
            assert_eq!(plies.len(), count, "{line}");
            (name, plies)
        })
        .collect()
}

#[test]
fn lenient_mode_reads_every_game_whole() {
    for (name, plies) in expected() {
        let reports = reports(&name, Mode::Lenient);
        let read: Vec<u32> = reports.iter().map(|report| report.plies).collect();
        assert_eq!(read, plies, "{name}");
        for report in &reports {
            assert!(report.ok, "{name}: game {}: {:?}", report.index, report.error);
        }
    }
}

#[test]
fn python_chess_reads_the_same_games() {
    let files: Vec<String> = expected().into_iter().map(|(name, _)| name).collect();
    let output = Command::new("python3").arg("counts.py").args(&files).current_dir(dir()).output();
    let Ok(output) = output.as_ref().map_err(|e| e.to_string()).and_then(|output| {
        if output.status.success() {
            Ok(output)
        } else {
            Err(String::from_utf8_lossy(&output.stderr).into_owned())
        }
    }) else {
        // Written past the test harness's capture, so that the skip is seen.
        let _ = writeln!(
            std::io::stderr(),
            "pgn_files: python-chess not available (pip install chess): comparison skipped, \
             expected.txt used alone"
        );
        return;
    };
    let from_python: Vec<(String, Vec<u32>)> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| {
            let mut words = line.split_whitespace();
            let name = words.next().unwrap_or_default().to_owned();
            let _count = words.next();
            (name, words.map(|n| n.parse().unwrap_or(u32::MAX)).collect())
        })
        .collect();
    assert_eq!(from_python, expected());
    for (name, plies) in from_python {
        let read: Vec<u32> =
            reports(&name, Mode::Lenient).iter().map(|report| report.plies).collect();
        assert_eq!(read, plies, "{name}");
    }
}

#[test]
fn variants_are_read_by_their_own_rules_in_strict_mode() {
    let games = reports("variants.pgn", Mode::Strict);
    let variants: Vec<GameVariant> = games.iter().map(|report| report.variant).collect();
    let each = [
        GameVariant::Antichess,
        GameVariant::Atomic,
        GameVariant::Crazyhouse,
        GameVariant::KingOfTheHill,
        GameVariant::ThreeCheck,
        GameVariant::RacingKings,
        GameVariant::Horde,
    ];
    assert_eq!(variants, each.iter().flat_map(|&v| [v, v]).collect::<Vec<_>>());
    for report in &games {
        assert!(report.ok, "game {} ({}): {:?}", report.index, report.variant, report.error);
    }
    let chess960 = reports("chess960.pgn", Mode::Strict);
    assert!(
        chess960[..6].iter().all(|report| report.ok && report.variant == GameVariant::Chess960)
    );
}

/// The first error of each game in strict mode: the rule it names.
fn strict_rules(name: &str) -> Vec<Option<Rule>> {
    reports(name, Mode::Strict)
        .into_iter()
        .map(|report| match report.error {
            Some(Problem::Move(located)) => match located.mistake.fault {
                Fault::Misspelled { rule, .. } => Some(rule),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

#[test]
fn strict_mode_names_the_real_reason() {
    use Rule::*;
    assert_eq!(strict_rules("uci.pgn"), [Some(Uci), Some(Dash), Some(Uci), Some(Uci), Some(Uci)]);
    assert_eq!(
        strict_rules("annotated.pgn"),
        [Some(PawnLetter), Some(GluedAnnotation), Some(EnPassantMark)]
    );
    let castling = &reports("chess960.pgn", Mode::Strict)[6];
    assert_eq!(
        castling.error.as_ref().map(ToString::to_string).as_deref(),
        Some("1. white b1a1 (ply 1): UCI notation; write O-O-O")
    );
    for report in reports("null-moves.pgn", Mode::Strict) {
        let Some(Problem::Move(located)) = report.error else { panic!("{report:?}") };
        assert_eq!(located.mistake.fault, Fault::NullMove);
    }
}

#[test]
fn lenient_warnings_name_the_canonical_spelling() {
    let uci = reports("uci.pgn", Mode::Lenient);
    let first = uci[0].warnings.first().map(ToString::to_string);
    assert_eq!(first.as_deref(), Some("1. white f2f3 (ply 1): UCI notation; write f3"));
    // Every move of the UCI games is warned about; the promotions name the piece.
    assert_eq!(uci[0].warnings.len(), uci[0].plies as usize);
    let promotion = uci[4].warnings.first().map(ToString::to_string);
    assert_eq!(promotion.as_deref(), Some("60. white e7e8q (ply 119): UCI notation; write e8=Q"));
    let nulls = reports("null-moves.pgn", Mode::Lenient);
    assert!(nulls.iter().all(|report| !report.warnings.is_empty()));
}
