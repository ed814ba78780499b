//! One case per decision of docs/rules.md#chess-records (§N: its decision N) and
//! per kind of fault, each answer reasoned in a comment.

use arbiter_chess_record::{CastlingBar, Ending, Fault, Illegal, Rule, Verdict, check_record};
use shakmaty::CastlingSide;

/// A record and what the check must say: `Yes`, or `No` at `ply` with a fault that `fault` accepts.
struct Case {
    name: &'static str,
    record: String,
    ply: Option<u32>,
    fault: fn(&Fault) -> bool,
}

const YES: fn(&Fault) -> bool = |_| false;

fn yes(name: &'static str, record: impl Into<String>) -> Case {
    Case { name, record: record.into(), ply: None, fault: YES }
}

fn no(name: &'static str, record: impl Into<String>, ply: u32, fault: fn(&Fault) -> bool) -> Case {
    Case { name, record: record.into(), ply: Some(ply), fault }
}

fn misspelled(fault: &Fault, expected: Rule) -> bool {
    matches!(fault, Fault::Misspelled { rule, .. } if *rule == expected)
}

const SAMPLE: &str = include_str!("fixtures/sample/1.in");

/// A random game whose last move, an en passant capture, gives check.
const EP_CHECK: &str = "1. g4 g6 2. f4 Bg7 3. d4 a6 4. Be3 f5 5. Bh3 b5 6. a3 Be5 7. c3 Nc6 \
    8. Bg2 Kf8 9. Be4 Qe8 10. Bd3 fxg4 11. f5 b4 12. f6 a5 13. Qc2 Ra6 14. Kf2 Nb8 15. Bf5 Nh6 \
    16. Qd3 Rd6 17. axb4 Rd5 18. Qa6 e6 19. Ra3 Nf7 20. Kg2 Kg8 21. Nh3 Rxd4 22. c4 Nd8 \
    23. Bd3 g5 24. Nd2 Bf4 25. Nxg5 c5 26. Qb6 Qf7 27. Bf2 Bb7+ 28. e4 Bg3 29. Bc2 Bxf2 \
    30. Bd3 h5 31. Rxa5 Qe8 32. f7+ Nxf7 33. Raa1 Bc6 34. Bc2 Rd6 35. Ra6 Nh6 36. h4 gxh3+";

/// Three white knights, on b1, b3 (from a promotion on a8) and f3, all reach d2 once 10. d4 has
/// cleared it.
const THREE_KNIGHTS: &str = "1. a4 b5 2. axb5 a6 3. bxa6 Bb7 4. axb7 Nc6 5. bxa8N e6 6. Nb6 h6 \
    7. Na4 h5 8. Nc5 Nf6 9. Nb3 Ng8 10. d4 Nf6 11. Nf3 Ng8";

/// The white pawn on b7 can take the rook on a8; the black queen has left d8 (6...Qg5), so a new
/// queen or rook on a8 checks the king on e8 along the empty b8, c8 and d8.
const PROMOTION_CHECK: &str =
    "1. a4 b5 2. axb5 a6 3. bxa6 Bb7 4. axb7 Nc6 5. h3 e6 6. h4 Qg5 7. bxa8Q";

fn cases() -> Vec<Case> {
    vec![
        // The published sample: en passant (3. dxc6), castling both ways, a promotion with check
        // (10. dxe8Q+), a file disambiguation between two queens (14. Qcxc8+), and a mate marked +.
        yes("sample", SAMPLE),
        // §6: an empty record has no wrong token, so it is valid.
        yes("empty", ""),
        // §6: leading and trailing whitespace is ignored; whitespace alone is an empty record.
        yes("only whitespace", " \t\r\n\r\n "),
        // §6: any whitespace run separates tokens; CR and leading/trailing space are ignored.
        yes("odd whitespace", "  1.\te4\r\n\r\n e5 \r\n"),
        // §6: any whitespace run separates tokens, vertical tab and form feed too (C's isspace).
        yes("vertical tab and form feed", "1. e4 e5\x0b2. Nf3\x0cNc6\x0b"),
        // A byte order mark at the start is ignored like leading whitespace (a decision of this
        // crate: editors add it unasked)...
        yes("byte order mark", "\u{feff}1. e4 e5"),
        // ...but elsewhere it is a character of a token, and `\u{feff}e5` is no move.
        no("byte order mark inside", "1. e4 \u{feff}e5", 2, |f| *f == Fault::NotAMove),
        // §6: only the last round may lack black's move, so ending after 2. Nf3 is fine...
        yes("last round without black", "1. e4 e5 2. Nf3"),
        // ...but `2.` where black's first move belongs means round 1 lacks it: wrong at ply 2.
        no("round without black", "1. e4 2. d4", 2, |f| *f == Fault::MissingBlackMove),
        // §6: each move number is a token of its own; `1.e4` glues it to the move.
        no("number glued to move", "1.e4", 1, |f| *f == Fault::MoveNumber { expected: 1 }),
        // §6: numbers go in order; after round 1 comes `2.`, so `3.` is wrong at ply 3.
        no("number skipped", "1. e4 e5 3. Nf3", 3, |f| *f == Fault::MoveNumber { expected: 2 }),
        // §6: white's move follows its number; a record starting with a move lacks `1.`.
        no("number missing", "e4 e5", 1, |f| *f == Fault::MoveNumber { expected: 1 }),
        // §6: the number is written `1.`; `01.` is another token.
        no("leading zero", "01. e4", 1, |f| *f == Fault::MoveNumber { expected: 1 }),
        // §6: black's move follows white's directly; PGN's `1...` has no place here.
        no("black's number", "1. e4 1... e5", 2, |f| *f == Fault::BlackMoveNumber),
        // §6: a number must be followed by white's move; the record ends instead.
        no("ends after number", "1. e4 e5 2.", 3, |f| *f == Fault::MissingMove),
        // §6: results, annotations, comments and `e.p.` are not moves. In black's place a
        // result is simply no move...
        no("result after white", "1. e4 1-0", 2, |f| *f == Fault::NotAMove),
        // ...and after black's move the round is complete, so `2.` is expected first.
        no("result after black", "1. e4 e5 1-0", 3, |f| *f == Fault::MoveNumber { expected: 2 }),
        // `!` is an annotation: `e4!` is not the spelling of any move.
        no("annotation", "1. e4!", 1, |f| *f == Fault::NotAMove),
        // A comment splits into tokens, and `{best}` is not a move.
        no("comment", "1. e4 {best} e5", 2, |f| *f == Fault::NotAMove),
        // 3. exd6 is en passant, spelled right; the separate `e.p.` then stands in black's place.
        no("e.p. token", "1. e4 a6 2. e5 d5 3. exd6 e.p.", 6, |f| *f == Fault::NotAMove),
        // Glued to the capture, the mark makes a misspelling of that same move.
        no("e.p. glued", "1. e4 a6 2. e5 d5 3. exd6e.p.", 5, |f| {
            misspelled(f, Rule::EnPassantMark)
        }),
        // §3: `+` exactly on checking moves. 2...Qh4 mates (fool's mate); the dialect marks it +.
        yes("mate marked +", "1. f3 e5 2. g4 Qh4+"),
        // The same mate without a mark: the move checks, so the + is missing.
        no("missing +", "1. f3 e5 2. g4 Qh4", 4, |f| misspelled(f, Rule::MissingCheck)),
        // §3: `#` is wrong in this dialect, even on a mate.
        no("mate marked #", "1. f3 e5 2. g4 Qh4#", 4, |f| misspelled(f, Rule::MateSign)),
        // §3: `++` is wrong; one + is the mark.
        no("++", "1. f3 e5 2. g4 Qh4++", 4, |f| misspelled(f, Rule::DoubledCheckSign)),
        // 1. e4 attacks nothing near the king: no check, so no +.
        no("extra +", "1. e4+", 1, |f| misspelled(f, Rule::ExtraCheck)),
        // 9. Nd6+ checks twice: the knight, and the queen on a4 through the vacated b5. One +.
        yes(
            "double check",
            "1. h3 f5 2. g3 Na6 3. c3 d5 4. Na3 d4 5. Rh2 Be6 6. Qa4+ b5 7. Nxb5 Qd7 8. b3 Qc8 9. Nd6+",
        ),
        // The same double check marked ++: still a single + (§3).
        no(
            "double check ++",
            "1. h3 f5 2. g3 Na6 3. c3 d5 4. Na3 d4 5. Rh2 Be6 6. Qa4+ b5 7. Nxb5 Qd7 8. b3 Qc8 9. Nd6++",
            17,
            |f| misspelled(f, Rule::DoubledCheckSign),
        ),
        // Castling queenside puts the rook on d1, checking the king on d7.
        yes(
            "check by castling",
            "1. h4 b5 2. d4 c5 3. Na3 Qc7 4. f3 Qh2 5. Bf4 Bb7 6. dxc5 Qxh1 7. Bc7 Nc6 8. Nxb5 Nb4 9. Qxd7+ Kxd7 10. O-O-O+",
        ),
        // The same castling without + misses the check the rook gives.
        no(
            "check by castling unmarked",
            "1. h4 b5 2. d4 c5 3. Na3 Qc7 4. f3 Qh2 5. Bf4 Bb7 6. dxc5 Qxh1 7. Bc7 Nc6 8. Nxb5 Nb4 9. Qxd7+ Kxd7 10. O-O-O",
            19,
            |f| misspelled(f, Rule::MissingCheck),
        ),
        // 36...gxh3+ takes the h4 pawn en passant (it just came from h2); the pawn lands on h3,
        // from where it attacks the white king on g2.
        yes("check by en passant", EP_CHECK),
        // The same capture without + misses that check.
        no("check by en passant unmarked", &EP_CHECK[..EP_CHECK.len() - 1], 72, |f| {
            misspelled(f, Rule::MissingCheck)
        }),
        // 5. exd6 takes the d5 pawn en passant: e5 and e6 empty, the queen on e3 now sees the
        // king on e8 (e7 left with 1...e5). A discovered check, so +.
        yes("discovered check by en passant", "1. d4 e5 2. dxe5 a6 3. Qd3 a5 4. Qe3 d5 5. exd6+"),
        // The same capture without + misses the discovered check.
        no(
            "discovered check by en passant unmarked",
            "1. d4 e5 2. dxe5 a6 3. Qd3 a5 4. Qe3 d5 5. exd6",
            9,
            |f| misspelled(f, Rule::MissingCheck),
        ),
        // §3: a promotion that checks needs its +: the queen on a8 checks along rank 8.
        yes("promotion with check", format!("{PROMOTION_CHECK}+")),
        // Written without +, it misses that check.
        no("promotion with check unmarked", PROMOTION_CHECK, 13, |f| {
            misspelled(f, Rule::MissingCheck)
        }),
        // §2: `x` exactly on captures. 1. Nf3 lands on an empty square: no x.
        no("extra x", "1. Nxf3", 1, |f| misspelled(f, Rule::ExtraCapture)),
        // 2...Qxd5 takes the pawn on d5, so it needs its x.
        no("missing x", "1. e4 d5 2. exd5 Qd5", 4, |f| misspelled(f, Rule::MissingCapture)),
        // 2. exd5 takes the pawn on d5: `ed5` names the file but lacks the x.
        no("pawn capture without x", "1. e4 d5 2. ed5", 3, |f| misspelled(f, Rule::MissingCapture)),
        // §2: a pawn capture names its source file; `xd5` does not.
        no("pawn capture without file", "1. e4 d5 2. xd5", 3, |f| {
            misspelled(f, Rule::PawnCaptureFile)
        }),
        // §2: en passant is written like any pawn capture, right after the double step 2...d5.
        yes("en passant", "1. e4 a6 2. e5 d5 3. exd6"),
        // En passant captures, so `ed6` lacks the x like any pawn capture would.
        no("en passant without x", "1. e4 a6 2. e5 d5 3. ed6", 5, |f| {
            misspelled(f, Rule::MissingCapture)
        }),
        // 3. a3 h6 let the chance pass: en passant is allowed only on the very next move.
        no("en passant too late", "1. e4 a6 2. e5 d5 3. a3 h6 4. exd6", 7, |f| {
            *f == Fault::Illegal(Illegal::EnPassantGone { to: shakmaty::Square::D6 })
        }),
        // Right after the double step 5...d5, but the e5 pawn shields the king on c3 from the
        // bishop on g7: taking en passant would leave the king in check.
        no(
            "en passant by a pinned pawn",
            "1. e4 g6 2. e5 Bg7 3. Ke2 Nc6 4. Kd3 Nb8 5. Kc3 d5 6. exd6",
            11,
            |f| {
                *f == Fault::Illegal(Illegal::KingInCheck {
                    role: shakmaty::Role::Pawn,
                    to: shakmaty::Square::D6,
                })
            },
        ),
        // En passant is available to the e-pawn only; no pawn stands on c5.
        no("en passant from a wrong file", "1. e4 a6 2. e5 d5 3. cxd6", 5, |f| {
            f.to_string() == "illegal move: no pawn on the c-file can go to d6"
        }),
        // §1: disambiguation over legal moves; file first, then rank.
        // After 2. d3 both knights (b1, f3) reach d2: the file tells them apart.
        yes("file disambiguation", "1. Nf3 d5 2. d3 e5 3. Nbd2"),
        // The same move without the file fits both knights: ambiguous.
        no(
            "missing disambiguation",
            "1. Nf3 d5 2. d3 e5 3. Nd2",
            5,
            |f| matches!(f, Fault::Ambiguous { alternatives, .. } if alternatives == &["Nbd2", "Nfd2"]),
        ),
        // The files differ (b, f), so the file is named, not the rank.
        no("rank where file suffices", "1. Nf3 d5 2. d3 e5 3. N1d2", 5, |f| {
            misspelled(f, Rule::DisambiguationOrder)
        }),
        // The file alone suffices, so file and rank together are too much.
        no("file and rank where file suffices", "1. Nf3 d5 2. d3 e5 3. Nb1d2", 5, |f| {
            misspelled(f, Rule::DisambiguationOrder)
        }),
        // No knight stands on the g-file (the g1 knight went to f3).
        no("wrong disambiguation", "1. Nf3 d5 2. d3 e5 3. Ngd2", 5, |f| {
            f.to_string() == "illegal move: no knight on the g-file can go to d2"
        }),
        // Only the b1 knight reaches d2 here (g1 does not): naming its file is wrong.
        no("unneeded disambiguation", "1. d4 d5 2. Nbd2", 3, |f| {
            misspelled(f, Rule::UnneededDisambiguation)
        }),
        // Knights on b4 and b8 both reach a6, on the same file: the rank tells them apart.
        yes("rank disambiguation", "1. Nc3 Nf6 2. Ne4 Nd5 3. c4 Nb4 4. f4 N8a6"),
        // Naming the shared file b leaves both knights: still ambiguous.
        no("file where rank is needed", "1. Nc3 Nf6 2. Ne4 Nd5 3. c4 Nb4 4. f4 Nba6", 8, |f| {
            matches!(f, Fault::Ambiguous { .. })
        }),
        // Knights on b1, b3 and f3 reach d2. For b3 the file is shared with b1 and the rank with
        // f3: only both, b3, single it out.
        yes("file and rank disambiguation", format!("{THREE_KNIGHTS} 12. Nb3d2")),
        // The file b alone leaves b1 and b3; all three knights are counted in the message, and
        // b1 is told from the others by its rank alone (N1d2).
        no("file where both are needed", format!("{THREE_KNIGHTS} 12. Nbd2"), 23, |f| {
            f.to_string()
                == "three knights can move to d2, two of them on the b-file; write N1d2 or Nb3d2"
        }),
        // The rank 3 alone leaves b3 and f3.
        no("rank where both are needed", format!("{THREE_KNIGHTS} 12. N3d2"), 23, |f| {
            f.to_string()
                == "three knights can move to d2, two of them on rank 3; write Nb3d2 or Nfd2"
        }),
        // The f3 knight alone is on the f-file: the file suffices, the rank is too much.
        no("both where the file suffices", format!("{THREE_KNIGHTS} 12. Nf3d2"), 23, |f| {
            misspelled(f, Rule::DisambiguationOrder)
        }),
        // 3. Nc3 is pinned by Bb4 against e1: only the g1 knight can go to e2, so no
        // disambiguation (over legal moves only).
        yes("pinned piece", "1. e4 e5 2. d4 Bb4+ 3. Nc3 a6 4. Ne2"),
        // With the pinned knight out of the count, the file is unneeded.
        no("pinned piece disambiguated", "1. e4 e5 2. d4 Bb4+ 3. Nc3 a6 4. Nge2", 7, |f| {
            misspelled(f, Rule::UnneededDisambiguation)
        }),
        // The pinned knight may not move at all: its king would be in check.
        no("pinned piece moved", "1. e4 e5 2. d4 Bb4+ 3. Nc3 a6 4. Nd5", 7, |f| {
            matches!(f, Fault::Illegal(Illegal::KingInCheck { .. }))
        }),
        // §4: a promotion names Q, R, B or N, without `=`: b7 takes the rook on a8 and becomes
        // a queen; the d8 queen blocks rank 8, so no check.
        yes("promotion", "1. a4 b5 2. axb5 a6 3. bxa6 Bb7 4. axb7 Nc6 5. bxa8Q"),
        // A knight is as good a choice as a queen.
        yes("underpromotion", "1. a4 b5 2. axb5 a6 3. bxa6 Bb7 4. axb7 Nc6 5. bxa8N"),
        // §4: `=` is standard SAN, not this dialect.
        no("promotion with =", "1. a4 b5 2. axb5 a6 3. bxa6 Bb7 4. axb7 Nc6 5. bxa8=Q", 9, |f| {
            misspelled(f, Rule::PromotionEquals)
        }),
        // §4: no piece named: four promotions fit, none can be chosen.
        no(
            "missing promotion piece",
            "1. a4 b5 2. axb5 a6 3. bxa6 Bb7 4. axb7 Nc6 5. bxa8",
            9,
            |f| matches!(f, Fault::MissingPromotion { alternatives } if alternatives.len() == 4),
        ),
        // §4: a pawn never becomes a king.
        no("promotion to king", "1. a4 b5 2. axb5 a6 3. bxa6 Bb7 4. axb7 Nc6 5. bxa8K", 9, |f| {
            *f == Fault::Illegal(Illegal::Promotion)
        }),
        // §5: castling with the letter O and the standard conditions: f1 and g1 are empty,
        // nothing attacks e1, f1 or g1, and neither king nor rook has moved.
        yes("castling", "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O"),
        // §5: the same castling with zeros is wrong.
        no("castling with zeros", "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0", 7, |f| {
            misspelled(f, Rule::ZeroCastling)
        }),
        // The bishop still stands on f1, between the king and the rook.
        no("castling blocked", "1. e4 e5 2. Nf3 Nc6 3. O-O", 5, |f| {
            *f == Fault::Illegal(Illegal::Castling {
                side: CastlingSide::KingSide,
                bar: CastlingBar::Blocked,
            })
        }),
        // The king went to e2 and back: the right is lost.
        no(
            "castling without rights",
            "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. Ke2 Nf6 5. Ke1 d6 6. O-O",
            11,
            |f| {
                *f == Fault::Illegal(Illegal::Castling {
                    side: CastlingSide::KingSide,
                    bar: CastlingBar::NoRight,
                })
            },
        ),
        // The h1 rook went to g1 and back: the kingside right is lost, though the squares are
        // free again.
        no(
            "castling after the rook moved",
            "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. Rg1 Nf6 5. Rh1 d6 6. O-O",
            11,
            |f| {
                *f == Fault::Illegal(Illegal::Castling {
                    side: CastlingSide::KingSide,
                    bar: CastlingBar::NoRight,
                })
            },
        ),
        // 4...Bxh1 took the h1 rook: no rook to castle with, though f1 and g1 are empty and
        // unattacked.
        no(
            "castling after the rook was captured",
            "1. g3 b6 2. Bh3 Bb7 3. Nf3 Bxf3 4. e3 Bxh1 5. O-O",
            9,
            |f| {
                *f == Fault::Illegal(Illegal::Castling {
                    side: CastlingSide::KingSide,
                    bar: CastlingBar::NoRight,
                })
            },
        ),
        // 4...Bxf2+ checks the king: it may not castle out of check.
        no("castling out of check", "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. Nc3 Bxf2+ 5. O-O", 9, |f| {
            *f == Fault::Illegal(Illegal::Castling {
                side: CastlingSide::KingSide,
                bar: CastlingBar::InCheck,
            })
        }),
        // The bishop on a6 sees f1 through the empty b5, c4, d3, e2: the king would cross it.
        no("castling through check", "1. e4 b6 2. g3 Ba6 3. Bg2 Nc6 4. Nf3 Nf6 5. O-O", 9, |f| {
            *f == Fault::Illegal(Illegal::Castling {
                side: CastlingSide::KingSide,
                bar: CastlingBar::ThroughCheck(shakmaty::Square::F1),
            })
        }),
        // The bishop on c5 sees g1 through d4, e3 and the vacated f2: the king would land there.
        no("castling into check", "1. f4 e6 2. Nf3 Bc5 3. g3 Nf6 4. Bg2 Nc6 5. O-O", 9, |f| {
            *f == Fault::Illegal(Illegal::Castling {
                side: CastlingSide::KingSide,
                bar: CastlingBar::IntoCheck(shakmaty::Square::G1),
            })
        }),
        // §7: nothing after checkmate: 2...Qh4+ mates, so 3. a3 is wrong.
        no("move after mate", "1. f3 e5 2. g4 Qh4+ 3. a3", 5, |f| {
            *f == Fault::AfterGameEnd(Ending::Checkmate)
        }),
        // Not even the next move number: the game is over, which is the fault to name.
        no("number after mate", "1. f3 e5 2. g4 Qh4+ 3.", 5, |f| {
            *f == Fault::AfterGameEnd(Ending::Checkmate)
        }),
        // 4. Qxf7+ mates black (scholar's mate): `5.` is not a missing black move, black has none.
        no("number after mate by white", "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7+ 5.", 8, |f| {
            *f == Fault::AfterGameEnd(Ending::Checkmate)
        }),
        // Sam Loyd's ten-move stalemate: black has no legal move after 10. Qe6.
        yes(
            "stalemate",
            "1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 6. Qxd7+ Kf7 7. Qxb7 Qd3 8. Qxb8 Qh7 9. Qxc8 Kg6 10. Qe6",
        ),
        // §7: so any black move after it is wrong.
        no(
            "move after stalemate",
            "1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 6. Qxd7+ Kf7 7. Qxb7 Qd3 8. Qxb8 Qh7 9. Qxc8 Kg6 10. Qe6 Kh7",
            20,
            |f| *f == Fault::AfterGameEnd(Ending::Stalemate),
        ),
        // The king may not step next to the queen on h4, onto g3.
        no("king into check", "1. f3 e5 2. Kf2 Qh4+ 3. Kg3", 5, |f| {
            f.to_string() == "illegal move: the king cannot go to g3: it would be in check there"
        }),
        // No white knight reaches d4 from b1 or g1 in one move.
        no("no such piece", "1. Nd4", 1, |f| {
            matches!(f, Fault::Illegal(Illegal::Unreachable { .. }))
        }),
        // Pawns have no letter in SAN: `Pe4` is e4 misspelled.
        no("pawn letter", "1. Pe4", 1, |f| misspelled(f, Rule::PawnLetter)),
        // A dash between squares is long algebraic notation, not SAN: e4 misspelled.
        no("long algebraic", "1. e2-e4", 1, |f| misspelled(f, Rule::Dash)),
        // Piece letters are upper case; `nf3` is not read as a move at all.
        no("lower-case piece", "1. nf3", 1, |f| *f == Fault::NotAMove),
    ]
}

#[test]
fn every_case() {
    let mut failures = Vec::new();
    for case in cases() {
        let verdict = check_record(&case.record);
        let ok = match (&verdict, case.ply) {
            (Verdict::Yes { .. }, None) => true,
            (Verdict::No(mistake), Some(ply)) => mistake.ply == ply && (case.fault)(&mistake.fault),
            _ => false,
        };
        if !ok {
            failures.push(format!("{}: {:?}", case.name, verdict));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn sample_answer() {
    assert_eq!(format!("{}\n", check_record(SAMPLE)), include_str!("fixtures/sample/1.ans"));
}

#[test]
fn explain_echoes_tokens_escaped_and_cut() {
    // A huge token is cut at 40 characters: the message stays one short line.
    let huge = format!("1. {}", "x".repeat(1 << 20));
    let Verdict::No(mistake) = check_record(&huge) else { panic!("not a move") };
    let message = mistake.to_string();
    assert!(message.starts_with(&format!("1. white {}… (ply 1): not a move", "x".repeat(40))));
    assert!(message.len() < 200, "{} bytes", message.len());
    // Control characters and a byte order mark are shown as escapes, not sent to the terminal.
    let Verdict::No(mistake) = check_record("1. e4 \u{feff}e5\u{1b}[2J") else { panic!("bad") };
    assert!(mistake.to_string().starts_with("1. black \\u{feff}e5\\u{1b}[2J (ply 2):"));
}

#[test]
fn explain_words_for_the_end_of_the_game_and_black_numbers() {
    let Verdict::No(mistake) = check_record("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7+ 5.") else {
        panic!("nothing may follow mate")
    };
    assert_eq!(
        mistake.to_string(),
        "4. black 5. (ply 8): the game is already over (checkmate): no move may follow"
    );
    let Verdict::No(mistake) = check_record("1. e4 1... e5") else { panic!("black number") };
    assert_eq!(
        mistake.to_string(),
        "1. black 1... (ply 2): a move number for black's move (`N...`) is not allowed in this \
         format: black's move follows white's without a number"
    );
    let Verdict::No(mistake) =
        check_record("1. e4 g6 2. e5 Bg7 3. Ke2 Nc6 4. Kd3 Nb8 5. Kc3 d5 6. exd6")
    else {
        panic!("pinned")
    };
    assert_eq!(
        mistake.to_string(),
        "6. white exd6 (ply 11): illegal move: the pawn cannot go to d6: its king would be in check"
    );
}

#[test]
fn explain_names_the_rule_and_the_spelling() {
    let record = SAMPLE.replace("Qcxc8+", "Qxc8+");
    let Verdict::No(mistake) = check_record(&record) else { panic!("ambiguous") };
    assert_eq!(
        mistake.to_string(),
        "14. white Qxc8+ (ply 27): two queens can capture on c8; write Qcxc8+ or Qexc8+"
    );
}
