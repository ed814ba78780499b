//! The float network the trainer fits, its gradient, and its quantisation into the engine's
//! [`Network`].
//!
//! The shape is the engine's (see [`arbiter_duck_engine::nnue::network`]): a feature
//! transformer `inputs → H` shared by both perspectives, `crelu01 = clamp(x, 0, 1)`, and `K`
//! output layers `2H → 1` over the side to move's half then the other's, the one a position's
//! number of pieces chooses. Its output `y` times the scale is the evaluation; the loss compares
//! `sigmoid(y)` with a target in `0..=1`.
//!
//! A feature set with buckets ([`FeatureSet::Captain`]) is trained factorised: each of its
//! features also activates a row shared by every bucket, the plain feature of the same piece
//! on the same point (after the bucket's mirror). What a piece on a point means everywhere is
//! then learnt from every position, and each bucket's rows learn only how its captain's place
//! changes that; [`FloatNetwork::quantise`] adds the shared row into each bucket's, so the
//! engine sees one row per feature.
//!
//! A position has at most [`MAX_ACTIVE`] active features per perspective, so the first layer's
//! forward and backward passes are sums over those rows only.

use arbiter_duck::{Board, Color};
use arbiter_duck_engine::nnue::Network;
use arbiter_duck_engine::nnue::features::{FeatureSet, INPUTS};
use arbiter_duck_engine::nnue::network::{QA, QB, output_bucket};
use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The most pieces a board holds (the starting position's), so the most active features of a
/// perspective.
pub const MAX_ACTIVE: usize = 32;

/// The largest feature-transformer weight or bias: 33 of them times [`QA`] stay within an
/// `i16` accumulator.
const FEATURE_CLIP: f32 = 1.98;

/// The largest output weight: `2H` activations times the quantised weights stay far within
/// the `i32` output sum.
const OUTPUT_CLIP: f32 = 8.0;

/// A network's shape: its inputs, hidden units and output layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// The inputs.
    pub features: FeatureSet,
    /// Hidden units, H.
    pub hidden: usize,
    /// Output layers, K.
    pub output_buckets: usize,
}

impl Shape {
    /// The plain shape: every piece on its point, `hidden` units, one output layer.
    pub fn plain(hidden: usize) -> Shape {
        Shape { features: FeatureSet::Pieces, hidden, output_buckets: 1 }
    }

    /// Whether the feature set is trained with a shared row per plain feature.
    fn factorised(&self) -> bool {
        self.features != FeatureSet::Pieces
    }

    /// The rows of the float feature transformer: the set's inputs, then the shared rows.
    fn rows(&self) -> usize {
        self.features.inputs() + if self.factorised() { INPUTS } else { 0 }
    }
}

/// One training position: its active features from each side's perspective and its target.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    /// The side to move's features, then the other side's, each list `count` long.
    pub features: [[u16; MAX_ACTIVE]; 2],
    /// How many features each list holds: the number of pieces.
    pub counts: [u8; 2],
    /// What `sigmoid(y)` should be.
    pub target: f32,
}

impl Sample {
    /// The sample of `board` with `turn` to move and `target`, in the inputs of `set`; `None`
    /// for a board with more than [`MAX_ACTIVE`] pieces.
    pub fn new(set: FeatureSet, board: &Board, turn: Color, target: f32) -> Option<Sample> {
        let mut sample = Sample { features: [[0; MAX_ACTIVE]; 2], counts: [0; 2], target };
        for (half, perspective) in [turn, !turn].into_iter().enumerate() {
            let mut count = 0;
            for feature in set.active(board, perspective) {
                *sample.features[half].get_mut(count)? = feature as u16;
                count += 1;
            }
            sample.counts[half] = count as u8;
        }
        Some(sample)
    }

    /// The active features of one half: 0 the side to move's, 1 the other's.
    fn half(&self, half: usize) -> &[u16] {
        &self.features[half][..usize::from(self.counts[half])]
    }
}

/// The logistic function.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Why a network cannot start a training.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InitError {
    /// The starting network has buckets or several output layers.
    #[error(
        "a network to start from must be of the plain feature set with one output layer, not {0}"
    )]
    Shape(String),
    /// The starting network has more hidden units than the one trained.
    #[error(
        "the network to start from has {found} hidden units, more than the training's {expected}"
    )]
    Hidden {
        /// The starting network's.
        found: usize,
        /// The training's.
        expected: usize,
    },
}

/// A float network, or a gradient of one (the same shape).
#[derive(Debug, Clone, PartialEq)]
pub struct FloatNetwork {
    /// The shape.
    pub shape: Shape,
    /// `rows × H`, feature-major: the set's inputs, then (factorised) the shared rows.
    pub feature_weights: Vec<f32>,
    /// `H`.
    pub feature_bias: Vec<f32>,
    /// `2H` for each output layer: the side to move's half, then the other's.
    pub output_weights: Vec<f32>,
    /// One for each output layer.
    pub output_bias: Vec<f32>,
}

impl FloatNetwork {
    /// Which of [`parameters`](FloatNetwork::parameters) are weights, which weight decay
    /// shrinks, rather than biases.
    pub const DECAYED: [bool; 4] = [true, false, true, false];

    /// A network of zeros: a gradient's starting point.
    pub fn zeros(shape: Shape) -> FloatNetwork {
        let hidden = shape.hidden;
        FloatNetwork {
            shape,
            feature_weights: vec![0.0; shape.rows() * hidden],
            feature_bias: vec![0.0; hidden],
            output_weights: vec![0.0; 2 * hidden * shape.output_buckets],
            output_bias: vec![0.0; shape.output_buckets],
        }
    }

    /// A network with small random weights drawn from `seed`, its hidden units half active on
    /// average. A factorised network starts with its bucket rows at zero: its shared rows
    /// alone, as a plain network would start.
    pub fn random(shape: Shape, seed: u64) -> FloatNetwork {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut uniform = |bound: f32| {
            let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * unit - 1.0) * bound
        };
        let hidden = shape.hidden;
        let mut network = FloatNetwork::zeros(shape);
        // About 32 active rows: their sum has a spread of about 0.3.
        let first = if shape.factorised() { shape.features.inputs() * hidden } else { 0 };
        network.feature_weights[first..].iter_mut().for_each(|w| *w = uniform(0.1));
        network.feature_bias.iter_mut().for_each(|b| *b = 0.5 + uniform(0.1));
        let bound = 1.0 / (2.0 * hidden as f32).sqrt();
        network.output_weights.iter_mut().for_each(|w| *w = uniform(bound));
        network
    }

    /// A network of `shape` that computes what `network` (of the plain feature set and one
    /// output layer, with at most as many hidden units) computes, to start a training from it:
    /// its feature rows become the plain or shared rows, its output layer every output layer.
    /// Hidden units it lacks start as [`random`](FloatNetwork::random) draws them from `seed`,
    /// with output weights of zero: they change nothing until training gives them a part.
    pub fn from_network(
        network: &Network,
        shape: Shape,
        seed: u64,
    ) -> Result<FloatNetwork, InitError> {
        if network.features != FeatureSet::Pieces || network.output_buckets() != 1 {
            return Err(InitError::Shape(network.shape_text()));
        }
        if network.hidden > shape.hidden {
            let (found, expected) = (network.hidden, shape.hidden);
            return Err(InitError::Hidden { found, expected });
        }
        let mut float = FloatNetwork::random(shape, seed);
        let (old, new) = (network.hidden, shape.hidden);
        let first = if shape.factorised() { shape.features.inputs() * new } else { 0 };
        let qa = QA as f32;
        let rows = float.feature_weights[first..].chunks_mut(new);
        for (to, from) in rows.zip(network.feature_weights.chunks(old)) {
            to.iter_mut().zip(from).for_each(|(to, &from)| *to = f32::from(from) / qa);
        }
        for (to, &from) in float.feature_bias.iter_mut().zip(&network.feature_bias) {
            *to = f32::from(from) / qa;
        }
        // Each output layer: the old units' weights in each half, zeros for the new ones.
        for layer in float.output_weights.chunks_mut(2 * new) {
            for (half, to) in layer.chunks_mut(new).enumerate() {
                let from = &network.output_weights[half * old..][..old];
                to.fill(0.0);
                to.iter_mut().zip(from).for_each(|(to, &from)| *to = f32::from(from) / QB as f32);
            }
        }
        let bias = network.output_bias[0] as f32 / (QA * QB) as f32;
        float.output_bias.iter_mut().for_each(|b| *b = bias);
        Ok(float)
    }

    /// Every parameter, in a fixed order, for the optimiser.
    pub fn parameters_mut(&mut self) -> impl Iterator<Item = &mut [f32]> {
        [
            &mut self.feature_weights[..],
            &mut self.feature_bias[..],
            &mut self.output_weights[..],
            &mut self.output_bias[..],
        ]
        .into_iter()
    }

    /// Every parameter, in the order of [`parameters_mut`](FloatNetwork::parameters_mut).
    pub fn parameters(&self) -> impl Iterator<Item = &[f32]> {
        [
            &self.feature_weights[..],
            &self.feature_bias[..],
            &self.output_weights[..],
            &self.output_bias[..],
        ]
        .into_iter()
    }

    /// Adds `other` (a gradient) into `self`.
    pub fn add(&mut self, other: &FloatNetwork) {
        for (mine, theirs) in self.parameters_mut().zip(other.parameters()) {
            mine.iter_mut().zip(theirs).for_each(|(a, b)| *a += b);
        }
    }

    /// Keeps the weights within what the quantised network holds without overflow.
    pub fn clip(&mut self) {
        let clamp = |values: &mut [f32], bound: f32| {
            values.iter_mut().for_each(|v| *v = v.clamp(-bound, bound));
        };
        clamp(&mut self.feature_weights, FEATURE_CLIP);
        clamp(&mut self.feature_bias, FEATURE_CLIP);
        clamp(&mut self.output_weights, OUTPUT_CLIP);
    }

    /// The rows an active `feature` adds: its own and, factorised, its shared one.
    fn rows_of(&self, feature: u16) -> [Option<usize>; 2] {
        let feature = usize::from(feature);
        let shared =
            self.shape.factorised().then(|| self.shape.features.inputs() + feature % INPUTS);
        [Some(feature), shared]
    }

    /// The accumulator of one half of `sample`: the bias plus its active rows.
    fn accumulate(&self, features: &[u16], accumulator: &mut [f32]) {
        let hidden = self.shape.hidden;
        accumulator.copy_from_slice(&self.feature_bias);
        for &feature in features {
            for row in self.rows_of(feature).into_iter().flatten() {
                let row = &self.feature_weights[row * hidden..][..hidden];
                accumulator.iter_mut().zip(row).for_each(|(a, w)| *a += w);
            }
        }
    }

    /// The output layer that evaluates `sample`.
    fn layer(&self, sample: &Sample) -> usize {
        output_bucket(u32::from(sample.counts[0]), self.shape.output_buckets)
    }

    /// The output `y` for `sample`; `scratch` holds the two accumulators afterwards.
    pub fn forward(&self, sample: &Sample, scratch: &mut Scratch) -> f32 {
        let hidden = self.shape.hidden;
        let layer = self.layer(sample);
        let mut y = self.output_bias[layer];
        for half in 0..2 {
            let accumulator = &mut scratch.accumulators[half * hidden..][..hidden];
            self.accumulate(sample.half(half), accumulator);
            let weights = &self.output_weights[(2 * layer + half) * hidden..][..hidden];
            y += accumulator.iter().zip(weights).map(|(a, w)| a.clamp(0.0, 1.0) * w).sum::<f32>();
        }
        y
    }

    /// Adds the gradient of `sample`'s loss, `(sigmoid(y) - target)²`, to `gradient` and
    /// returns the loss.
    pub fn backward(&self, sample: &Sample, scratch: &mut Scratch, gradient: &mut Self) -> f32 {
        let hidden = self.shape.hidden;
        let y = self.forward(sample, scratch);
        let p = sigmoid(y);
        let error = p - sample.target;
        let dy = 2.0 * error * p * (1.0 - p);
        let layer = self.layer(sample);
        gradient.output_bias[layer] += dy;
        for half in 0..2 {
            let accumulator = &scratch.accumulators[half * hidden..][..hidden];
            let at = (2 * layer + half) * hidden;
            let weights = &self.output_weights[at..][..hidden];
            let output = &mut gradient.output_weights[at..][..hidden];
            let delta = &mut scratch.delta[..hidden];
            for i in 0..hidden {
                let a = accumulator[i];
                output[i] += dy * a.clamp(0.0, 1.0);
                delta[i] = if a > 0.0 && a < 1.0 { dy * weights[i] } else { 0.0 };
            }
            gradient.feature_bias.iter_mut().zip(delta.iter()).for_each(|(g, d)| *g += d);
            for &feature in sample.half(half) {
                for row in self.rows_of(feature).into_iter().flatten() {
                    let row = &mut gradient.feature_weights[row * hidden..][..hidden];
                    row.iter_mut().zip(delta.iter()).for_each(|(g, d)| *g += d);
                }
            }
        }
        error * error
    }

    /// The quantised network the engine reads, with `scale` and `provenance`: a factorised
    /// network's shared rows added into each bucket's.
    pub fn quantise(&self, scale: i32, provenance: String) -> Network {
        let bound = f32::from(i16::MAX);
        let round = |values: &[f32], factor: i32| -> Vec<i16> {
            values.iter().map(|v| (v * factor as f32).round().clamp(-bound, bound) as i16).collect()
        };
        let shape = self.shape;
        let (hidden, inputs) = (shape.hidden, shape.features.inputs());
        let mut rows = self.feature_weights[..inputs * hidden].to_vec();
        if shape.factorised() {
            let shared = &self.feature_weights[inputs * hidden..];
            for (row, weights) in rows.chunks_mut(hidden).enumerate() {
                let shared = &shared[(row % INPUTS) * hidden..][..hidden];
                weights
                    .iter_mut()
                    .zip(shared)
                    .for_each(|(w, s)| *w = (*w + s).clamp(-FEATURE_CLIP, FEATURE_CLIP));
            }
        }
        Network {
            features: shape.features,
            hidden,
            scale,
            feature_weights: round(&rows, QA),
            feature_bias: round(&self.feature_bias, QA),
            output_weights: round(&self.output_weights, QB),
            output_bias: self
                .output_bias
                .iter()
                .map(|b| (b * (QA * QB) as f32).round() as i32)
                .collect(),
            provenance,
        }
    }
}

/// Working memory for [`FloatNetwork::forward`] and [`FloatNetwork::backward`].
#[derive(Debug, Clone)]
pub struct Scratch {
    accumulators: Vec<f32>,
    delta: Vec<f32>,
}

impl Scratch {
    /// Memory for a network of `hidden` units.
    pub fn new(hidden: usize) -> Scratch {
        Scratch { accumulators: vec![0.0; 2 * hidden], delta: vec![0.0; hidden] }
    }
}

#[cfg(test)]
mod tests {
    use arbiter_duck::Position;

    use super::*;

    /// Positions of a few random games.
    fn positions() -> Vec<Position> {
        let mut out = Vec::new();
        for seed in 0..4 {
            let mut random = arbiter_duck_engine::random::RandomMover::new(seed);
            let mut position = Position::new();
            for _ in 0..40 {
                let Some(mv) = random.choose(&position) else { break };
                let _ = position.make(mv);
                out.push(position.clone());
            }
        }
        out
    }

    #[test]
    fn the_gradient_is_the_loss_slope() {
        let network = FloatNetwork::random(Shape::plain(8), 3);
        let position = &positions()[17];
        let sample =
            Sample::new(FeatureSet::Pieces, position.board(), position.turn(), 0.8).unwrap();
        let mut scratch = Scratch::new(8);
        let mut gradient = FloatNetwork::zeros(Shape::plain(8));
        network.backward(&sample, &mut scratch, &mut gradient);
        let loss = |network: &FloatNetwork| {
            let p = sigmoid(network.forward(&sample, &mut Scratch::new(8)));
            f64::from((p - 0.8) * (p - 0.8))
        };
        let feature = usize::from(sample.features[0][3]);
        let step = 1e-3;
        for (index, analytic) in [
            (feature * 8 + 2, gradient.feature_weights[feature * 8 + 2]),
            (feature * 8 + 5, gradient.feature_weights[feature * 8 + 5]),
        ] {
            let mut up = network.clone();
            up.feature_weights[index] += step;
            let mut down = network.clone();
            down.feature_weights[index] -= step;
            let numeric = (loss(&up) - loss(&down)) / (2.0 * f64::from(step));
            assert!((numeric - f64::from(analytic)).abs() < 1e-4, "{numeric} vs {analytic}");
        }
        let mut up = network.clone();
        up.output_weights[9] += step;
        let mut down = network.clone();
        down.output_weights[9] -= step;
        let numeric = (loss(&up) - loss(&down)) / (2.0 * f64::from(step));
        assert!((numeric - f64::from(gradient.output_weights[9])).abs() < 1e-4);
    }

    #[test]
    fn the_side_to_move_sees_its_own_pieces_first() {
        let position = Position::new();
        let sample = Sample::new(FeatureSet::Pieces, position.board(), Color::Blue, 0.5).unwrap();
        let blue: Vec<u16> =
            arbiter_duck_engine::nnue::features::active(position.board(), Color::Blue)
                .map(|f| f as u16)
                .collect();
        assert_eq!(sample.half(0), &blue[..]);
        assert_eq!(usize::from(sample.counts[1]), 32);
    }

    /// The loss of `network` on `sample`, in f64 for finite differences.
    fn loss_of(network: &FloatNetwork, sample: &Sample) -> f64 {
        let p = sigmoid(network.forward(sample, &mut Scratch::new(network.shape.hidden)));
        f64::from((p - sample.target) * (p - sample.target))
    }

    #[test]
    fn a_factorised_network_with_output_layers_has_the_loss_slope_as_gradient() {
        let shape = Shape { features: FeatureSet::Captain, hidden: 8, output_buckets: 4 };
        let mut network = FloatNetwork::random(shape, 5);
        // Bucket rows away from zero, so that both kinds of row count.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(6);
        let inputs = FeatureSet::Captain.inputs() * 8;
        for w in &mut network.feature_weights[..inputs] {
            *w = ((rng.next_u64() % 2001) as f32 - 1000.0) / 10_000.0;
        }
        let position = &positions()[30];
        let sample =
            Sample::new(FeatureSet::Captain, position.board(), position.turn(), 0.3).unwrap();
        let mut gradient = FloatNetwork::zeros(shape);
        network.backward(&sample, &mut Scratch::new(8), &mut gradient);
        let feature = usize::from(sample.features[0][2]);
        let shared = FeatureSet::Captain.inputs() + feature % INPUTS;
        let layer = output_bucket(u32::from(sample.counts[0]), 4);
        let other_layer = (layer + 1) % 4;
        let step = 1e-3;
        // (part of the parameters, index): a bucket row, the shared row, the layer's weight
        // and bias.
        let checks = [(0, feature * 8 + 1), (0, shared * 8 + 1), (2, layer * 16 + 3), (3, layer)];
        for (part, index) in checks {
            let nudged = |delta: f32| {
                let mut copy = network.clone();
                copy.parameters_mut().nth(part).unwrap()[index] += delta;
                loss_of(&copy, &sample)
            };
            let numeric = (nudged(step) - nudged(-step)) / (2.0 * f64::from(step));
            let analytic = gradient.parameters().nth(part).unwrap()[index];
            assert!((numeric - f64::from(analytic)).abs() < 1e-4, "{numeric} vs {analytic}");
            assert!(analytic != 0.0);
        }
        // Another layer's weights have no part in this position.
        assert!(gradient.output_weights[other_layer * 16..][..16].iter().all(|&g| g == 0.0));
        assert_eq!(gradient.output_bias[other_layer], 0.0);
        // The shared row and the bucket row of a feature get the same gradient.
        assert_eq!(
            gradient.feature_weights[feature * 8 + 1],
            gradient.feature_weights[shared * 8 + 1]
        );
    }

    #[test]
    fn quantising_adds_the_shared_rows_into_each_bucket() {
        let shape = Shape { features: FeatureSet::Captain, hidden: 16, output_buckets: 3 };
        let mut network = FloatNetwork::random(shape, 2);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let inputs = FeatureSet::Captain.inputs() * 16;
        for w in &mut network.feature_weights[..inputs] {
            *w = ((rng.next_u64() % 2001) as f32 - 1000.0) / 20_000.0;
        }
        let quantised = network.quantise(400, "q".to_owned());
        assert_eq!((quantised.features, quantised.output_buckets()), (FeatureSet::Captain, 3));
        assert_eq!(quantised.feature_weights.len(), inputs);
        let row = 3 * INPUTS + 77;
        let expected = (network.feature_weights[row * 16 + 5]
            + network.feature_weights[(FeatureSet::Captain.inputs() + 77) * 16 + 5])
            * QA as f32;
        assert_eq!(quantised.feature_weights[row * 16 + 5], expected.round() as i16);
        let mut scratch = Scratch::new(16);
        for position in positions().iter().step_by(5) {
            let sample =
                Sample::new(FeatureSet::Captain, position.board(), position.turn(), 0.0).unwrap();
            let float = network.forward(&sample, &mut scratch) * 400.0;
            let integer = quantised.evaluate_scratch(position) as f32;
            assert!((float - integer).abs() <= 12.0, "{float} vs {integer}");
        }
    }

    #[test]
    fn a_training_starts_from_a_network_as_it_evaluates() {
        let plain = Network::random(24, 7);
        for shape in [
            Shape::plain(24),
            Shape { features: FeatureSet::Captain, hidden: 24, output_buckets: 8 },
            Shape { features: FeatureSet::Pieces, hidden: 24, output_buckets: 2 },
            Shape { features: FeatureSet::Captain, hidden: 40, output_buckets: 3 },
            Shape::plain(64),
        ] {
            let float = FloatNetwork::from_network(&plain, shape, 1).unwrap();
            let mut scratch = Scratch::new(shape.hidden);
            for position in positions().iter().step_by(3) {
                let sample =
                    Sample::new(shape.features, position.board(), position.turn(), 0.0).unwrap();
                let value = float.forward(&sample, &mut scratch) * 400.0;
                let expected = plain.evaluate_scratch(position) as f32;
                assert!((value - expected).abs() <= 1.0, "{shape:?}: {value} vs {expected}");
            }
            // Quantised again, it is the network it started from (bucket by bucket).
            let again = float.quantise(400, String::new());
            for position in positions().iter().step_by(7) {
                assert_eq!(again.evaluate_scratch(position), plain.evaluate_scratch(position));
            }
            // A wider network's new units are live, with nothing to say yet.
            let last = &float.feature_weights[float.feature_weights.len() - shape.hidden..];
            assert!(shape.hidden == 24 || last[24..].iter().any(|&w| w != 0.0));
        }
        let wrong = FloatNetwork::from_network(&plain, Shape::plain(16), 1).unwrap_err();
        let expected = "the network to start from has 24 hidden units, more than the training's 16";
        assert_eq!(wrong.to_string(), expected);
        let captain = Network::random_shaped(FeatureSet::Captain, 24, 1, 1);
        assert!(FloatNetwork::from_network(&captain, Shape::plain(24), 1).is_err());
    }
}
