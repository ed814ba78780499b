//! The training loop: targets from the records, a validation set of whole games, shuffled
//! batches, Adam, and the losses of each epoch.
//!
//! A position's target mixes the search's score and the game's result:
//! `λ · sigmoid(score / SCALE) + (1 − λ) · result`, with the result 0, ½ or 1 for the side to
//! move. The loss is the mean squared error of `sigmoid(y)` against it. The validation set is
//! a share of the games, not of the positions: positions of one game are alike, and a
//! validation loss over games the network never saw measures what it learnt, not what it
//! remembers.
//!
//! Every rule of the game is the same seen in a mirror standing on the middle column (each
//! role's steps come in left and right pairs, and nothing else tells the columns apart), so a
//! position and its mirror image have the same value. With [`Config::mirror`] each training
//! position is learnt from in both forms: twice the positions from the same games.

use std::time::{Duration, Instant};

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

use arbiter_duck::{Board, Square};

use arbiter_duck_engine::nnue::features::FeatureSet;

use crate::net::{FloatNetwork, MAX_ACTIVE, Sample, Scratch, Shape, sigmoid};
use crate::record::Record;

/// How to train.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The inputs.
    pub features: FeatureSet,
    /// Hidden units, H.
    pub hidden: usize,
    /// Output layers, chosen by the number of pieces.
    pub output_buckets: usize,
    /// Passes over the training set.
    pub epochs: usize,
    /// The score's share of the target (the rest is the result's).
    pub lambda: f32,
    /// Adam's step size at the start; it falls linearly to a tenth of it by the last epoch.
    pub learning_rate: f32,
    /// Positions per step.
    pub batch: usize,
    /// The share of the games kept out of training to measure the validation loss.
    pub validation: f32,
    /// Seeds the initial weights, the validation games and the order of the batches.
    pub seed: u64,
    /// What `y` is multiplied by to give hundredths of a soldier, and what a score is divided
    /// by inside its sigmoid.
    pub scale: f32,
    /// Trains on each training position's mirror image too (the validation positions are
    /// kept as they were played).
    pub mirror: bool,
    /// Decoupled weight decay (AdamW): each step takes `rate · weight_decay · w` off every
    /// weight `w` of both layers (not the biases). 0 for none.
    pub weight_decay: f32,
}

impl Config {
    /// The shape of the network trained.
    pub fn shape(&self) -> Shape {
        Shape { features: self.features, hidden: self.hidden, output_buckets: self.output_buckets }
    }
}

/// The losses after one epoch.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Epoch {
    /// The epoch's number, from 1.
    pub number: usize,
    /// The mean loss over the training positions during the epoch.
    pub training: f32,
    /// The mean loss over the validation positions after the epoch (0 with none).
    pub validation: f32,
    /// The epoch's duration.
    pub time: Duration,
}

/// The training and validation positions of `records`.
#[derive(Debug, Clone, Default)]
pub struct Split {
    /// Positions trained on.
    pub training: Vec<Sample>,
    /// Positions of the games kept out.
    pub validation: Vec<Sample>,
    /// Records left out for holding more pieces than a position can.
    pub skipped: usize,
}

impl Split {
    /// Adds the positions of `records`, each game's to one side or the other as a hash of
    /// its number and `config.seed` decides.
    pub fn add(&mut self, records: &[Record], config: &Config) {
        for record in records {
            let score = sigmoid(f32::from(record.score) / config.scale);
            let target = config.lambda * score + (1.0 - config.lambda) * record.result.score();
            let Some(sample) = Sample::new(config.features, &record.board, record.turn, target)
            else {
                self.skipped += 1;
                continue;
            };
            let hash = (u64::from(record.game) ^ config.seed.rotate_left(32))
                .wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let share = (hash >> 40) as f32 / (1u64 << 24) as f32;
            if share < config.validation {
                self.validation.push(sample);
                continue;
            }
            self.training.push(sample);
            if config.mirror {
                let mirror = mirrored(&record.board);
                self.training.extend(Sample::new(config.features, &mirror, record.turn, target));
            }
        }
    }
}

impl Split {
    /// Merges the training positions that the network cannot tell apart (the same inputs: the
    /// same pieces on the same points, seen from the side to move) into the first of them,
    /// whose target becomes the mean of theirs; returns how many were merged away. A position
    /// that recurs (a line many games reach, a game that goes round in circles) then weighs as
    /// one position with the average of what was learnt about it, rather than as many. The
    /// positions left keep their order, and which ones are left depends only on the data.
    pub fn dedup(&mut self) -> usize {
        let samples = &mut self.training;
        let mut order: Vec<(u64, u32)> = samples
            .iter()
            .enumerate()
            .map(|(i, sample)| (fnv(&inputs(sample)), i as u32))
            .collect();
        order.sort_unstable();
        let mut keep = vec![true; samples.len()];
        for same_hash in order.chunk_by(|a, b| a.0 == b.0).filter(|group| group.len() > 1) {
            // Equal hashes are almost always equal inputs; the inputs themselves decide.
            let mut group: Vec<([u16; MAX_ACTIVE], u32)> =
                same_hash.iter().map(|&(_, i)| (inputs(&samples[i as usize]), i)).collect();
            group.sort_unstable();
            for same in group.chunk_by(|a, b| a.0 == b.0).filter(|same| same.len() > 1) {
                let total: f64 =
                    same.iter().map(|&(_, i)| f64::from(samples[i as usize].target)).sum();
                let first = same[0].1 as usize;
                samples[first].target = (total / same.len() as f64) as f32;
                same[1..].iter().for_each(|&(_, i)| keep[i as usize] = false);
            }
        }
        let before = samples.len();
        let mut flags = keep.into_iter();
        samples.retain(|_| flags.next().unwrap_or(true));
        before - samples.len()
    }
}

/// A sample's inputs as the network sees them: the side to move's active features, sorted,
/// the unused places last.
fn inputs(sample: &Sample) -> [u16; MAX_ACTIVE] {
    let count = usize::from(sample.counts[0]);
    let mut features = [u16::MAX; MAX_ACTIVE];
    features[..count].copy_from_slice(&sample.features[0][..count]);
    features.sort_unstable();
    features
}

/// The 64-bit FNV-1a hash of `values`.
fn fnv(values: &[u16]) -> u64 {
    values.iter().flat_map(|value| value.to_le_bytes()).fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// `board` seen in a mirror standing on the middle column.
pub fn mirrored(board: &Board) -> Board {
    let mut mirror = Board::empty();
    for sq in Square::all() {
        if let Some(piece) = board.piece_at(sq) {
            mirror.put(sq.flip_horizontal(), piece);
        }
    }
    mirror
}

/// Adam's moments of every parameter.
struct Adam {
    first: FloatNetwork,
    second: FloatNetwork,
    steps: i32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    fn new(shape: Shape) -> Adam {
        Adam { first: FloatNetwork::zeros(shape), second: FloatNetwork::zeros(shape), steps: 0 }
    }

    /// Moves `network` one step against `gradient` (a mean over a batch), its weights (not its
    /// biases) decayed by `rate · decay` of themselves first.
    fn step(&mut self, network: &mut FloatNetwork, gradient: &FloatNetwork, rate: f32, decay: f32) {
        self.steps += 1;
        let correction1 = 1.0 - Self::BETA1.powi(self.steps);
        let correction2 = 1.0 - Self::BETA2.powi(self.steps);
        let parts = network
            .parameters_mut()
            .zip(FloatNetwork::DECAYED)
            .zip(gradient.parameters())
            .zip(self.first.parameters_mut().zip(self.second.parameters_mut()));
        for (((weights, decayed), gradient), (first, second)) in parts {
            if decayed && decay > 0.0 {
                // Decoupled from the gradient's moments (AdamW): every weight shrinks alike,
                // those of features the batch lacks included.
                let keep = 1.0 - rate * decay;
                weights.iter_mut().for_each(|w| *w *= keep);
            }
            for i in 0..weights.len() {
                let g = gradient[i];
                if g == 0.0 && first[i] == 0.0 {
                    // A feature no position of the batch (nor any before) has.
                    continue;
                }
                first[i] = Self::BETA1 * first[i] + (1.0 - Self::BETA1) * g;
                second[i] = Self::BETA2 * second[i] + (1.0 - Self::BETA2) * g * g;
                let m = first[i] / correction1;
                let v = second[i] / correction2;
                weights[i] -= rate * m / (v.sqrt() + Self::EPSILON);
            }
        }
        network.clip();
    }
}

/// The mean loss of `network` over `samples`.
pub fn loss(network: &FloatNetwork, samples: &[Sample]) -> f32 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .par_chunks(4096)
        .map(|chunk| {
            let mut scratch = Scratch::new(network.shape.hidden);
            chunk
                .iter()
                .map(|sample| {
                    let error = sigmoid(network.forward(sample, &mut scratch)) - sample.target;
                    f64::from(error * error)
                })
                .sum::<f64>()
        })
        .collect::<Vec<f64>>()
        .into_iter()
        .sum();
    (total / samples.len() as f64) as f32
}

/// The positions of a batch whose gradient one task sums; the parts are then summed in order.
/// A fixed size, not one part a thread, so that the sums, and the network, do not depend on
/// the number of threads.
const GRADIENT_PART: usize = 256;

/// Trains a network on `split` as `config` says, from random weights or from `start`,
/// calling `on_epoch` after each epoch, on the current rayon pool's threads.
pub fn train(
    split: &Split,
    config: &Config,
    start: Option<FloatNetwork>,
    mut on_epoch: impl FnMut(&Epoch),
) -> FloatNetwork {
    let (hidden, shape) = (config.hidden, config.shape());
    let mut network = start.unwrap_or_else(|| FloatNetwork::random(shape, config.seed));
    let mut adam = Adam::new(shape);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed ^ 0x5EED);
    let mut order: Vec<u32> = (0..split.training.len() as u32).collect();
    let batch = config.batch.max(1);
    let mut batch_samples: Vec<Sample> = Vec::with_capacity(batch);
    for number in 1..=config.epochs {
        let start = Instant::now();
        // Fisher–Yates, from the seeded generator.
        for i in (1..order.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        let progress = (number - 1) as f32 / config.epochs.saturating_sub(1).max(1) as f32;
        let rate = config.learning_rate * (1.0 - 0.9 * progress);
        let mut total = 0.0f64;
        for indices in order.chunks(batch) {
            batch_samples.clear();
            batch_samples.extend(indices.iter().map(|&i| split.training[i as usize]));
            // Parts of a fixed size, gathered in order and summed in order: the same network
            // on any number of threads, whatever their timing.
            let (mut gradient, batch_loss) = batch_samples
                .par_chunks(GRADIENT_PART)
                .map(|samples| {
                    let mut gradient = FloatNetwork::zeros(shape);
                    let mut scratch = Scratch::new(hidden);
                    let loss: f64 = samples
                        .iter()
                        .map(|s| f64::from(network.backward(s, &mut scratch, &mut gradient)))
                        .sum();
                    (gradient, loss)
                })
                .collect::<Vec<_>>()
                .into_iter()
                .reduce(|(mut a, la), (b, lb)| {
                    a.add(&b);
                    (a, la + lb)
                })
                .unwrap_or_else(|| (FloatNetwork::zeros(shape), 0.0));
            let n = batch_samples.len() as f32;
            for values in gradient.parameters_mut() {
                values.iter_mut().for_each(|g| *g /= n);
            }
            adam.step(&mut network, &gradient, rate, config.weight_decay);
            total += batch_loss;
        }
        let epoch = Epoch {
            number,
            training: (total / split.training.len().max(1) as f64) as f32,
            validation: loss(&network, &split.validation),
            time: start.elapsed(),
        };
        on_epoch(&epoch);
    }
    network
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use arbiter_duck::{Move, Position};
    use arbiter_duck_engine::eval;
    use arbiter_duck_engine::random::RandomMover;

    use super::*;
    use crate::record::GameResult;

    /// Records of random positions scored by the classical evaluation: something a network
    /// can learn.
    fn records(games: u32) -> Vec<Record> {
        let mut out = Vec::new();
        for game in 0..games {
            let mut random = RandomMover::new(u64::from(game));
            let mut position = Position::new();
            for ply in 0..60 {
                let Some(mv) = random.choose(&position) else { break };
                let _ = position.make(mv);
                if position.is_over() {
                    break;
                }
                let score = eval::evaluate(&position).clamp(-3000, 3000) as i16;
                out.push(Record {
                    board: position.board().clone(),
                    turn: position.turn(),
                    score,
                    result: GameResult::Draw,
                    ply,
                    game,
                    last: false,
                });
            }
        }
        out
    }

    #[test]
    fn the_rules_are_the_same_in_the_mirror() {
        // Over random games: the mirror image of a position has the mirror images of its
        // moves, and its moves capture the same pieces and end the game alike.
        let mut positions = 0;
        for seed in 0..30 {
            let mut random = RandomMover::new(seed);
            let mut position = Position::new();
            for _ in 0..120 {
                let mirror =
                    Position::from_board(mirrored(position.board()), position.turn()).unwrap();
                let moves: BTreeSet<(Square, Square)> = position
                    .moves()
                    .iter()
                    .map(|mv| (mv.from.flip_horizontal(), mv.to.flip_horizontal()))
                    .collect();
                let images: BTreeSet<(Square, Square)> =
                    mirror.moves().iter().map(|mv| (mv.from, mv.to)).collect();
                assert_eq!(moves, images, "{}", position.fen());
                assert_eq!(position.in_check(), mirror.in_check(), "{}", position.fen());
                for mv in position.moves().iter() {
                    let (mut after, mut image_after) = (position.clone(), mirror.clone());
                    let _ = after.make(*mv);
                    let _ = image_after
                        .make(Move::new(mv.from.flip_horizontal(), mv.to.flip_horizontal()));
                    assert_eq!(mirrored(after.board()), *image_after.board());
                    assert_eq!(after.outcome(), image_after.outcome(), "{}", position.fen());
                    assert_eq!(after.in_check(), image_after.in_check(), "{}", position.fen());
                }
                positions += 1;
                let Some(mv) = random.choose(&position) else { break };
                let _ = position.make(mv);
                if position.is_over() {
                    break;
                }
            }
        }
        assert!(positions > 1000, "{positions} positions");
    }

    #[test]
    fn mirroring_doubles_the_training_positions_only() {
        let config = |mirror| Config {
            features: FeatureSet::Pieces,
            output_buckets: 1,
            hidden: 8,
            epochs: 1,
            lambda: 0.5,
            learning_rate: 0.001,
            batch: 64,
            validation: 0.2,
            seed: 5,
            scale: 400.0,
            mirror,
            weight_decay: 0.0,
        };
        let records = records(60);
        let (mut plain, mut both) = (Split::default(), Split::default());
        plain.add(&records, &config(false));
        both.add(&records, &config(true));
        assert_eq!(both.training.len(), 2 * plain.training.len());
        assert_eq!(both.validation.len(), plain.validation.len());
        let asymmetric = records.iter().filter(|r| mirrored(&r.board) != r.board).count();
        assert!(asymmetric > records.len() / 2, "{asymmetric} of {}", records.len());
        assert!(records.iter().all(|r| mirrored(&mirrored(&r.board)) == r.board));
    }

    #[test]
    fn the_loss_falls_and_the_quantised_network_agrees_with_the_float_one() {
        let config = Config {
            features: FeatureSet::Pieces,
            output_buckets: 1,
            hidden: 16,
            epochs: 8,
            lambda: 1.0,
            learning_rate: 0.003,
            batch: 256,
            validation: 0.2,
            seed: 3,
            scale: 400.0,
            mirror: false,
            weight_decay: 0.0,
        };
        let mut split = Split::default();
        split.add(&records(300), &config);
        assert!(!split.validation.is_empty() && split.training.len() > split.validation.len());
        let before = loss(&FloatNetwork::random(config.shape(), config.seed), &split.validation);
        let mut epochs = Vec::new();
        let network = train(&split, &config, None, |epoch| epochs.push(*epoch));
        assert_eq!(epochs.len(), 8);
        assert!(epochs[7].training < epochs[0].training * 0.7, "{epochs:?}");
        assert!(epochs[7].validation < before * 0.7, "{before} then {epochs:?}");

        let quantised = network.quantise(400, "test".to_owned());
        let mut scratch = Scratch::new(config.hidden);
        // Rounding the weights moves each value a little: every position within 0.4 of a
        // soldier, the mean within 0.12 (hundredths: 40 and 12).
        let (mut worst, mut total, mut count) = (0.0f32, 0.0f32, 0.0f32);
        for (number, record) in records(40).iter().enumerate().step_by(7) {
            let position = Position::from_board(record.board.clone(), record.turn).unwrap();
            let sample = Sample::new(FeatureSet::Pieces, &record.board, record.turn, 0.0).unwrap();
            let float = network.forward(&sample, &mut scratch) * 400.0;
            let integer = quantised.evaluate_scratch(&position) as f32;
            let difference = (float - integer).abs();
            assert!(difference <= 40.0, "record {number}: {float} vs {integer}");
            worst = worst.max(difference);
            total += difference;
            count += 1.0;
        }
        assert!(total / count <= 12.0, "mean difference {}", total / count);
        assert!(worst > 0.0, "the comparison compares something");
    }

    /// A configuration for the small tests below.
    fn small(seed: u64) -> Config {
        Config {
            features: FeatureSet::Pieces,
            output_buckets: 1,
            hidden: 8,
            epochs: 2,
            lambda: 1.0,
            learning_rate: 0.003,
            batch: 128,
            validation: 0.0,
            seed,
            scale: 400.0,
            mirror: false,
            weight_decay: 0.0,
        }
    }

    #[test]
    fn the_network_does_not_depend_on_the_number_of_threads() {
        // Batches of several gradient parts, on one thread and on three.
        let config = Config { batch: 4 * GRADIENT_PART - 24, ..small(6) };
        let mut split = Split::default();
        split.add(&records(80), &config);
        assert!(split.training.len() > 3 * config.batch, "{}", split.training.len());
        let on = |threads| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| train(&split, &config, None, |_| {}))
        };
        assert_eq!(on(1), on(3));
    }

    #[test]
    fn weight_decay_shrinks_the_weights_and_not_the_biases() {
        let mut split = Split::default();
        split.add(&records(80), &small(4));
        let plain = train(&split, &small(4), None, |_| {});
        let decayed = train(&split, &Config { weight_decay: 5.0, ..small(4) }, None, |_| {});
        let norm = |values: &[f32]| values.iter().map(|v| f64::from(v * v)).sum::<f64>();
        assert!(norm(&decayed.feature_weights) < 0.8 * norm(&plain.feature_weights));
        assert!(norm(&decayed.output_weights) < 0.8 * norm(&plain.output_weights));
        // A decay of 0 is the trainer without it, bit for bit.
        assert_eq!(train(&split, &Config { weight_decay: 0.0, ..small(4) }, None, |_| {}), plain);

        // One step by hand: the weights shrink by rate · decay before Adam's step, the biases
        // do not.
        let mut network = FloatNetwork::random(Shape::plain(4), 9);
        let mut adam = Adam::new(Shape::plain(4));
        let before = network.clone();
        adam.step(&mut network, &FloatNetwork::zeros(Shape::plain(4)), 0.01, 2.0);
        assert!(
            network
                .feature_weights
                .iter()
                .zip(&before.feature_weights)
                .all(|(a, b)| *a == b * 0.98)
        );
        assert!(
            network.output_weights.iter().zip(&before.output_weights).all(|(a, b)| *a == b * 0.98)
        );
        assert_eq!(network.feature_bias, before.feature_bias);
    }

    #[test]
    fn duplicates_merge_into_the_first_with_the_mean_target() {
        let records = records(40);
        let mut split = Split::default();
        split.add(&records, &small(1));
        // The first 30 positions again, with other targets, and the positions of a game
        // played by the other colour: the same inputs seen from the side to move.
        let mut again: Vec<Record> = records[..30].to_vec();
        again.iter_mut().for_each(|record| record.score = record.score.saturating_add(300));
        split.add(&again, &small(1));
        let flipped: Vec<Record> = records[..10]
            .iter()
            .map(|record| {
                let mut board = Board::empty();
                for sq in Square::all() {
                    if let Some(piece) = record.board.piece_at(sq) {
                        let other = arbiter_duck::Piece::new(!piece.color, piece.role);
                        board.put(sq.flip_vertical(), other);
                    }
                }
                Record { board, turn: !record.turn, ..record.clone() }
            })
            .collect();
        split.add(&flipped, &small(1));
        let unique: BTreeSet<[u16; MAX_ACTIVE]> = split.training.iter().map(inputs).collect();
        let before = split.training.clone();
        let merged = split.dedup();
        assert_eq!(split.training.len(), unique.len());
        assert_eq!(merged, before.len() - unique.len());
        assert!(merged >= 40, "{merged}");
        // Each position left is the first of its kind, with the mean of the targets of its
        // kind; the order is kept.
        let mut at = 0;
        for (i, sample) in before.iter().enumerate() {
            let key = inputs(sample);
            if before[..i].iter().any(|earlier| inputs(earlier) == key) {
                continue;
            }
            let same: Vec<f32> =
                before.iter().filter(|s| inputs(s) == key).map(|s| s.target).collect();
            let mean = same.iter().map(|&t| f64::from(t)).sum::<f64>() / same.len() as f64;
            assert_eq!(inputs(&split.training[at]), key);
            assert!((f64::from(split.training[at].target) - mean).abs() < 1e-6);
            at += 1;
        }
        assert_eq!(at, split.training.len());
        assert_eq!(split.dedup(), 0, "nothing is left to merge");
    }

    #[test]
    fn the_captains_buckets_and_output_layers_learn_and_quantise() {
        let config = Config {
            features: FeatureSet::Captain,
            output_buckets: 4,
            epochs: 6,
            batch: 256,
            hidden: 16,
            validation: 0.2,
            ..small(3)
        };
        let mut split = Split::default();
        split.add(&records(300), &config);
        let before = loss(&FloatNetwork::random(config.shape(), config.seed), &split.validation);
        let mut epochs = Vec::new();
        let network = train(&split, &config, None, |epoch| epochs.push(*epoch));
        assert!(epochs[5].validation < before * 0.7, "{before} then {epochs:?}");
        let quantised = network.quantise(400, String::new());
        let mut scratch = Scratch::new(16);
        for record in records(20).iter().step_by(5) {
            let position = Position::from_board(record.board.clone(), record.turn).unwrap();
            let sample = Sample::new(FeatureSet::Captain, &record.board, record.turn, 0.0).unwrap();
            let float = network.forward(&sample, &mut scratch) * 400.0;
            let integer = quantised.evaluate_scratch(&position) as f32;
            assert!((float - integer).abs() <= 40.0, "{float} vs {integer}");
        }
        // Started from a network, a training goes on from what it computes.
        let start = FloatNetwork::from_network(
            &quantised,
            Shape { output_buckets: 1, ..config.shape() },
            1,
        );
        assert!(start.is_err(), "only a plain network starts a training");
        let plain_config =
            Config { features: FeatureSet::Pieces, output_buckets: 1, ..config.clone() };
        let mut plain_split = Split::default();
        plain_split.add(&records(300), &plain_config);
        let plain = train(&plain_split, &plain_config, None, |_| {});
        let plain = plain.quantise(400, String::new());
        let start = FloatNetwork::from_network(&plain, config.shape(), 1).unwrap();
        let from = loss(&start, &split.validation);
        let mut first = None;
        let one = Config { epochs: 1, learning_rate: 0.0005, ..config.clone() };
        train(&split, &one, Some(start), |epoch| first = Some(epoch.validation));
        let first = first.unwrap();
        assert!(from < before * 0.7 && first < from * 1.05, "{before}, {from} then {first}");
    }
}
