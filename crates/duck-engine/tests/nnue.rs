//! The network evaluation from outside: incremental updates agree with the reference at every
//! node of random games, a position's value does not depend on the path to it, and UCI's
//! `EvalFile` loads a network, refuses a bad one, and searches with it.

use std::path::PathBuf;
use std::sync::Arc;

use arbiter_duck::{Move, Position, Role, Undo};
use arbiter_duck_engine::engine::Engine;
use arbiter_duck_engine::eval::Evaluation;
use arbiter_duck_engine::nnue::features::FeatureSet;
use arbiter_duck_engine::nnue::{Accumulators, Model, Network};
use arbiter_duck_engine::search::{Limits, StopFlag};
use arbiter_duck_engine::uci::{self, Player};
use proptest::prelude::*;

/// A small generator, so that the games are the same on every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) as usize % n
    }
}

/// What was played at a ply, to take it back.
enum Step {
    Move(Move, Undo),
    Null(Undo),
}

/// Plays random games of moves and null moves, taking some back now and then, and checks the
/// incremental value against the reference after two steps in three, both ways. Returns the captures
/// and the captain's moves played (which change a frame of the captain feature set).
fn random_games(network: &Network, seed: u64, steps: usize) -> (usize, usize) {
    let model = Model::new(network.clone()).unwrap();
    let mut rng = Lcg(seed);
    let mut position = Position::new();
    let mut accumulators = Accumulators::new(&model, &position);
    let mut path: Vec<Step> = Vec::new();
    let (mut captures, mut captains) = (0, 0);
    for _ in 0..steps {
        let moves = position.moves();
        let back = rng.below(5) == 0 || moves.is_empty() || path.len() >= 100;
        if back && let Some(step) = path.pop() {
            match step {
                Step::Move(mv, undo) => position.unmake(mv, undo),
                Step::Null(undo) => position.unmake_null(undo),
            }
        } else if moves.is_empty() {
            break;
        } else if rng.below(8) == 0 {
            accumulators.make_null(path.len());
            path.push(Step::Null(position.make_null()));
        } else {
            let mv = moves[rng.below(moves.len())];
            let piece = position.piece_at(mv.from).unwrap();
            let undo = position.make(mv);
            captures += usize::from(undo.captured().is_some());
            captains += usize::from(piece.role == Role::Captain);
            accumulators.make(path.len(), piece, mv, undo.captured(), position.board());
            path.push(Step::Move(mv, undo));
        }
        // Not every node is evaluated, as in a search: the plain feature set's updates then wait
        // for several plies, across moves taken back, until a node is.
        if rng.below(3) == 0 {
            continue;
        }
        let value = accumulators.evaluate(path.len(), &position);
        assert_eq!(value, network.evaluate_scratch(&position), "{position}");
    }
    (captures, captains)
}

#[test]
fn incremental_values_are_the_reference_values_wherever_evaluated() {
    for (hidden, seed) in [(1, 1), (31, 2), (32, 3), (33, 4), (128, 5), (256, 6)] {
        let network = Network::random(hidden, seed);
        let (captures, _) = random_games(&network, seed, 3_000);
        assert!(captures > 20, "{captures} captures");
    }
    // The captain's buckets and several output layers: a captain's move sums its side's
    // perspective again, the layer follows the pieces.
    for (hidden, buckets, seed) in [(8, 1, 7), (33, 8, 8), (64, 3, 9)] {
        let network = Network::random_shaped(FeatureSet::Captain, hidden, buckets, seed);
        let (captures, captains) = random_games(&network, seed, 3_000);
        assert!(captures > 20 && captains > 20, "{captures} captures, {captains} captain moves");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Any feature set, hidden size and number of output layers, any random game: the
    /// incremental value is the reference value at every step.
    #[test]
    fn every_shape_updates_as_it_evaluates_from_scratch(
        seed in any::<u64>(),
        captain in any::<bool>(),
        hidden in 1usize..80,
        buckets in 1usize..=8,
    ) {
        let features = if captain { FeatureSet::Captain } else { FeatureSet::Pieces };
        let network = Network::random_shaped(features, hidden, buckets, seed);
        random_games(&network, seed, 600);
    }
}

#[test]
fn sums_that_wrap_wrap_the_same_way_on_every_path() {
    // Weights far beyond what training gives: the accumulators and the output sum wrap.
    let mut network = Network::random(64, 9);
    for (i, weight) in network.feature_weights.iter_mut().enumerate() {
        *weight =
            if i % 3 == 0 { i16::MAX - (i % 1000) as i16 } else { i16::MIN + (i % 777) as i16 };
    }
    for weight in &mut network.output_weights {
        *weight = weight.wrapping_mul(512);
    }
    random_games(&network, 77, 2_000);
}

#[test]
fn a_position_has_one_value_whatever_the_path() {
    let network = Network::random(128, 21);
    let model = Model::new(network.clone()).unwrap();
    // The same position by two move orders, and from a FEN.
    let lines = [["e4e5", "e7e6", "b1c3", "h10g8"], ["b1c3", "h10g8", "e4e5", "e7e6"]];
    let mut values = Vec::new();
    for line in lines {
        let mut position = Position::new();
        let mut accumulators = Accumulators::new(&model, &position);
        for (ply, mv) in line.into_iter().enumerate() {
            let mv: Move = mv.parse().unwrap();
            let piece = position.piece_at(mv.from).unwrap();
            let undo = position.make(mv);
            accumulators.make(ply, piece, mv, undo.captured(), position.board());
        }
        values.push(accumulators.evaluate(line.len(), &position));
        let fen: Position = position.fen().to_string().parse().unwrap();
        values.push(Accumulators::new(&model, &fen).evaluate(0, &fen));
        values.push(Evaluation::Network(Arc::new(model.clone())).evaluate(&position));
    }
    assert!(values.iter().all(|&value| value == values[0]), "{values:?}");
    // And the same search twice gives the same answer and nodes.
    let search = || {
        let mut engine = Engine::new(4);
        engine.set_evaluation(Evaluation::Network(Arc::new(model.clone())));
        engine.go(&Limits::depth(6), &StopFlag::new(), |_| {})
    };
    let (a, b) = (search(), search());
    assert_eq!((a.best, a.value, a.nodes), (b.best, b.value, b.nodes));
}

/// A file in the temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, bytes: &[u8]) -> TempFile {
        let path = std::env::temp_dir().join(format!("arbiter-nnue-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn uci(input: &str) -> String {
    let mut output = Vec::new();
    uci::run(input.as_bytes(), &mut output, Player::default()).unwrap();
    String::from_utf8(output).unwrap()
}

/// The node count of the last `info` line.
fn last_nodes(output: &str) -> u64 {
    let info = output.lines().rfind(|line| line.starts_with("info depth")).unwrap();
    let mut words = info.split(' ').skip_while(|&word| word != "nodes");
    words.nth(1).unwrap().parse().unwrap()
}

#[test]
fn evalfile_loads_a_network_and_the_search_uses_it() {
    let network = Network::random(128, 8);
    let mut bytes = Vec::new();
    network.write(&mut bytes).unwrap();
    let file = TempFile::new("good.nnue", &bytes);
    let declared = uci("uci\n");
    assert!(
        declared.contains("option name EvalFile type string default <embedded>\n"),
        "{declared}"
    );

    let output = uci(&format!(
        "setoption name EvalFile value {}\nposition startpos moves e4e5\ngo depth 5\n",
        file.path()
    ));
    let loaded = format!(
        "info string EvalFile: the network {}, 128 hidden units: random weights, seed 8\n",
        file.path()
    );
    assert!(output.starts_with(&loaded), "{output}");
    assert!(output.contains("bestmove "), "{output}");
    // The search is the engine's with that network: the same nodes.
    let mut engine = Engine::new(Engine::DEFAULT_HASH);
    engine.set_evaluation(Evaluation::Network(Arc::new(Model::new(network).unwrap())));
    let mut position = Position::new();
    let _ = position.make("e4e5".parse().unwrap());
    engine.set_position(position.clone());
    let with_network = engine.go(&Limits::depth(5), &StopFlag::new(), |_| {});
    assert_eq!(last_nodes(&output), with_network.nodes, "{output}");
    let mut classical = Engine::new(Engine::DEFAULT_HASH);
    classical.set_evaluation(Evaluation::Classical);
    classical.set_position(position);
    let classical = classical.go(&Limits::depth(5), &StopFlag::new(), |_| {});
    assert_ne!(classical.nodes, with_network.nodes);

    // Empty goes back to the classical evaluation.
    let output = uci(&format!(
        "setoption name EvalFile value {}\nsetoption name EvalFile value <empty>\nposition startpos moves e4e5\ngo depth 5\n",
        file.path()
    ));
    assert!(output.contains("info string EvalFile: the classical evaluation\n"), "{output}");
    assert_eq!(last_nodes(&output), classical.nodes, "{output}");

    // A network of version 3 (the captain's buckets, output layers) loads and searches the
    // same way.
    let network = Network::random_shaped(FeatureSet::Captain, 48, 8, 9);
    let mut bytes = Vec::new();
    network.write(&mut bytes).unwrap();
    let file = TempFile::new("captain.nnue", &bytes);
    let output = uci(&format!(
        "setoption name EvalFile value {}\nposition startpos moves e4e5\ngo depth 5\n",
        file.path()
    ));
    let loaded = format!(
        "info string EvalFile: the network {}, captain features, 48 hidden units, 8 output \
         layers: random weights, seed 9\n",
        file.path()
    );
    assert!(output.starts_with(&loaded), "{output}");
    let mut engine = Engine::new(Engine::DEFAULT_HASH);
    engine.set_evaluation(Evaluation::Network(Arc::new(Model::new(network).unwrap())));
    let mut position = Position::new();
    let _ = position.make("e4e5".parse().unwrap());
    engine.set_position(position);
    let searched = engine.go(&Limits::depth(5), &StopFlag::new(), |_| {});
    assert_eq!(last_nodes(&output), searched.nodes, "{output}");
    assert_ne!(searched.nodes, with_network.nodes);
}

#[test]
fn a_bad_evalfile_is_refused_and_the_evaluation_stays() {
    let network = Network::random(32, 8);
    let mut bytes = Vec::new();
    network.write(&mut bytes).unwrap();
    let good = TempFile::new("kept.nnue", &bytes);
    let truncated = TempFile::new("truncated.nnue", &bytes[..bytes.len() - 3]);
    let garbage = TempFile::new("garbage.nnue", b"not a network at all");
    let missing = std::env::temp_dir().join("arbiter-nnue-no-such-file.nnue");
    let input = format!(
        "setoption name EvalFile value {}\nsetoption name EvalFile value {}\nsetoption name EvalFile value {}\nsetoption name EvalFile value {}\nposition startpos\ngo depth 4\n",
        good.path(),
        truncated.path(),
        garbage.path(),
        missing.display()
    );
    let output = uci(&input);
    let strings: Vec<&str> =
        output.lines().filter_map(|line| line.strip_prefix("info string ")).collect();
    assert_eq!(strings.len(), 4, "{output}");
    assert!(strings[1].starts_with("option EvalFile: "), "{}", strings[1]);
    assert!(
        strings[1].ends_with(&format!(
            "the file has {} bytes, but its header declares {}; the evaluation is unchanged",
            bytes.len() - 3,
            bytes.len()
        )),
        "{}",
        strings[1]
    );
    assert!(strings[2].contains("not a network file"), "{}", strings[2]);
    assert!(strings[3].contains("cannot read"), "{}", strings[3]);
    // The network loaded first still evaluates.
    let mut engine = Engine::new(Engine::DEFAULT_HASH);
    engine.set_evaluation(Evaluation::Network(Arc::new(Model::new(network).unwrap())));
    let result = engine.go(&Limits::depth(4), &StopFlag::new(), |_| {});
    assert_eq!(last_nodes(&output), result.nodes, "{output}");
}

#[test]
fn the_built_in_network_is_the_default_and_evalfile_names_it() {
    let model = arbiter_duck_engine::nnue::embedded_model().expect("the built-in network loads");
    assert_eq!(model.network().hidden, 256);
    let searched = |evaluation: Evaluation| {
        let mut engine = Engine::new(Engine::DEFAULT_HASH);
        engine.set_evaluation(evaluation);
        engine.go(&Limits::depth(5), &StopFlag::new(), |_| {}).nodes
    };
    let network = searched(Evaluation::Network(model));
    assert_ne!(network, searched(Evaluation::Classical));
    assert_eq!(network, searched(Evaluation::default()));
    // UCI: the default, `<embedded>` after another choice, and empty for the classical one.
    let output = uci("position startpos\ngo depth 5\n");
    assert_eq!(last_nodes(&output), network, "{output}");
    let output = uci(
        "setoption name EvalFile value\nsetoption name EvalFile value <embedded>\ngo depth 5\n",
    );
    assert!(
        output.contains("info string EvalFile: the network <embedded>, 256 hidden units"),
        "{output}"
    );
    assert_eq!(last_nodes(&output), network, "{output}");
    let output = uci("setoption name EvalFile value\ngo depth 5\n");
    assert!(output.contains("info string EvalFile: the classical evaluation\n"), "{output}");
    assert_eq!(last_nodes(&output), searched(Evaluation::Classical), "{output}");
}
