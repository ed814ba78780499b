//! Properties over random legal games and arbitrary text.

use arbiter_chess_record::fix::{fix_pgn, fix_record, looks_like_pgn};
use arbiter_chess_record::pgn::{Mode, PgnGames, Problem};
use arbiter_chess_record::random::{RandomGames, record};
use arbiter_chess_record::{Dialect, Verdict, check_record};
use proptest::prelude::*;

/// A random legal game from a seed.
fn game(seed: u64) -> Vec<shakmaty::Move> {
    RandomGames::new(seed).next_moves()
}

/// The move tokens of a record with their indices among all tokens.
fn move_tokens(record: &str) -> Vec<(usize, &str)> {
    record.split(' ').enumerate().filter(|(_, token)| !token.ends_with('.')).collect()
}

/// A spelling of `token` that is certainly wrong: the check mark or the capture mark toggled.
fn mutate(token: &str, kind: u8) -> String {
    let piece_or_capture = token.contains('x') || token.starts_with(['K', 'Q', 'R', 'B', 'N']);
    if kind.is_multiple_of(2) || !piece_or_capture {
        match token.strip_suffix('+') {
            Some(body) => body.to_owned(),
            None => format!("{token}+"),
        }
    } else if token.contains('x') {
        token.replacen('x', "", 1)
    } else {
        // `Nf3` → `Nxf3`: the destination is the two characters after the piece and any
        // disambiguation, so `x` goes right before them.
        let body = token.trim_end_matches('+');
        let at = body.len() - 2;
        format!("{}x{}", &token[..at], &token[at..])
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// The canonical record of any legal game is accepted, and so is its rewrite through
    /// standard SAN and back.
    #[test]
    fn canonical_records_are_yes(seed in any::<u64>()) {
        let moves = game(seed);
        let contest = record(&moves, Dialect::Contest);
        prop_assert_eq!(check_record(&contest), Verdict::Yes { plies: moves.len() as u32 });
        let standard = record(&moves, Dialect::Standard);
        prop_assert_eq!(fix_record(&contest, Dialect::Standard), Ok(standard.clone()));
        prop_assert_eq!(fix_record(&standard, Dialect::Contest), Ok(contest));
    }

    /// One token spelled wrong (a `+` or an `x` added or dropped) makes the record wrong at that
    /// very ply.
    #[test]
    fn one_misspelled_token_is_no(seed in any::<u64>(), pick in any::<prop::sample::Index>(), kind in any::<u8>()) {
        let moves = game(seed);
        let contest = record(&moves, Dialect::Contest);
        let tokens = move_tokens(&contest);
        prop_assume!(!tokens.is_empty());
        let ply = pick.index(tokens.len());
        let (at, token) = tokens[ply];
        let mut all: Vec<String> = contest.split(' ').map(str::to_owned).collect();
        all[at] = mutate(token, kind);
        let Verdict::No(mistake) = check_record(&all.join(" ")) else {
            return Err(TestCaseError::fail(format!("{token} -> {} accepted", all[at])));
        };
        prop_assert_eq!(mistake.ply as usize, ply + 1);
    }

    /// The standard record of a legal game, as PGN with tags and a comment, passes the strict PGN
    /// check; with one `+` toggled it fails at that ply.
    #[test]
    fn pgn_of_random_games(seed in any::<u64>(), pick in any::<prop::sample::Index>()) {
        let moves = game(seed);
        let movetext = record(&moves, Dialect::Standard);
        let pgn = format!("[White \"W\"]\n[Black \"B\"]\n\n{{start}} {movetext} *\n");
        let games: Vec<_> = PgnGames::new(pgn.as_bytes()).collect();
        prop_assert_eq!(games.len(), 1);
        let report = games[0].check(Mode::Strict);
        prop_assert!(report.ok, "{:?}", report.error);
        prop_assert_eq!(report.plies as usize, moves.len());
        // The mainline read with the check is the game that was written.
        let mainline = games[0].mainline(Mode::Strict);
        prop_assert_eq!(&mainline.report, &report);
        let played: Vec<_> = mainline.moves.iter().map(|m| m.played).collect();
        prop_assert_eq!(played, moves.iter().copied().map(Some).collect::<Vec<_>>());

        let tokens = move_tokens(&movetext);
        prop_assume!(!tokens.is_empty());
        let ply = pick.index(tokens.len());
        let (at, token) = tokens[ply];
        let mut all: Vec<String> = movetext.split(' ').map(str::to_owned).collect();
        // Standard SAN marks mate with `#`: writing `+` instead is the misspelling there.
        all[at] = if token.ends_with('#') { token.replace('#', "+") } else { mutate(token, 0) };
        let pgn = format!("[White \"W\"]\n\n{} *\n", all.join(" "));
        let report = PgnGames::new(pgn.as_bytes()).next().map(|game| game.check(Mode::Strict));
        let Some(Some(Problem::Move(located))) = report.map(|report| report.error) else {
            return Err(TestCaseError::fail(format!("{token} -> {} accepted", all[at])));
        };
        prop_assert_eq!(located.mistake.ply as usize, ply + 1);
    }

    /// A wrong move number is caught.
    #[test]
    fn wrong_move_number_is_no(seed in any::<u64>(), shift in 1u32..5) {
        let contest = record(&game(seed), Dialect::Contest);
        let wrong = contest.replacen("1. ", &format!("{}. ", 1 + shift), 1);
        prop_assert!(!check_record(&wrong).is_yes());
    }

    /// Nothing panics on arbitrary text, and fixing keeps every byte that is not a move.
    #[test]
    fn arbitrary_text_never_panics(text in ".{0,200}") {
        let _ = check_record(&text);
        let _ = fix_record(&text, Dialect::Standard);
        let _ = looks_like_pgn(&text);
        for game in PgnGames::new(text.as_bytes()) {
            let _ = game.check(Mode::Lenient);
            let _ = game.check(Mode::Strict);
        }
        let fixed = fix_pgn(text.as_bytes(), Dialect::Contest);
        // A game that could not be read is kept as it was; with no problem at all and nothing
        // that reads as a move, nothing changes.
        if fixed.problems.is_empty() && !text.chars().any(|c| c.is_ascii_alphanumeric()) {
            prop_assert_eq!(fixed.text, text.as_bytes());
        }
    }

    /// Nothing panics on arbitrary bytes read as PGN (not even valid UTF-8).
    #[test]
    fn arbitrary_pgn_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        for game in PgnGames::new(&bytes) {
            let _ = game.check(Mode::Lenient);
        }
        // Every byte that is not a move comes back: with no move rewritten, all of them.
        let fixed = fix_pgn(&bytes, Dialect::Standard);
        if !bytes.iter().any(u8::is_ascii_alphanumeric) {
            prop_assert_eq!(fixed.text, bytes);
        }
    }

    /// Nothing panics on text made of chess notation's own characters, which reaches deeper.
    #[test]
    fn chess_like_text_never_panics(text in "([1-9]\\. |[KQRBNP]?[a-h]?[1-8]?x?[a-h][1-8](=?[QRBNK])?[+#]{0,2} |O-O(-O)?[+#]? |0-0 |\\{|\\}|\\(|\\)|\\[|\\]|\"|\n| ){0,80}") {
        let _ = check_record(&text);
        let _ = fix_record(&text, Dialect::Contest);
        for game in PgnGames::new(text.as_bytes()) {
            // The mainline is read by the check itself: the same verdict, and no move past it.
            for mode in [Mode::Strict, Mode::Lenient] {
                let mainline = game.mainline(mode);
                prop_assert_eq!(&mainline.report, &game.check(mode));
                prop_assert!(mainline.moves.len() <= mainline.report.plies as usize);
            }
        }
        let _ = fix_pgn(text.as_bytes(), Dialect::Standard);
    }
}
