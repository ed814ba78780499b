//! The float network the trainer fits, its gradient, and its quantisation into the engine's
//! [`Network`].
//!
//! The shape is the engine's (see [`arbiter_duck_engine::nnue::network`]): a feature
//! transformer `1260 → H` shared by both perspectives, `crelu01 = clamp(x, 0, 1)`, an output
//! layer `2H → 1` over the side to move's half then the other's. Its output `y` times the scale
//! is the evaluation; the loss compares `sigmoid(y)` with a target in `0..=1`.
//!
//! A position has at most [`MAX_ACTIVE`] active features per perspective, so the first layer's
//! forward and backward passes are sums over those rows only.

use arbiter_duck::{Board, Color};
use arbiter_duck_engine::nnue::Network;
use arbiter_duck_engine::nnue::features::{self, INPUTS};
use arbiter_duck_engine::nnue::network::{QA, QB};
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

/// One training position: its active features from each side's perspective and its target.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    /// The side to move's features, then the other side's, each list `count` long.
    pub features: [[u16; MAX_ACTIVE]; 2],
    /// How many features each list holds.
    pub counts: [u8; 2],
    /// What `sigmoid(y)` should be.
    pub target: f32,
}

impl Sample {
    /// The sample of `board` with `turn` to move and `target`; `None` for a board with more
    /// than [`MAX_ACTIVE`] pieces.
    pub fn new(board: &Board, turn: Color, target: f32) -> Option<Sample> {
        let mut sample = Sample { features: [[0; MAX_ACTIVE]; 2], counts: [0; 2], target };
        for (half, perspective) in [turn, !turn].into_iter().enumerate() {
            let mut count = 0;
            for feature in features::active(board, perspective) {
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

/// A float network, or a gradient of one (the same shape).
#[derive(Debug, Clone, PartialEq)]
pub struct FloatNetwork {
    /// The number of hidden units, H.
    pub hidden: usize,
    /// `INPUTS × H`, feature-major.
    pub feature_weights: Vec<f32>,
    /// `H`.
    pub feature_bias: Vec<f32>,
    /// `2H`: the side to move's half, then the other's.
    pub output_weights: Vec<f32>,
    /// The output's bias.
    pub output_bias: f32,
}

impl FloatNetwork {
    /// A network of zeros: a gradient's starting point.
    pub fn zeros(hidden: usize) -> FloatNetwork {
        FloatNetwork {
            hidden,
            feature_weights: vec![0.0; INPUTS * hidden],
            feature_bias: vec![0.0; hidden],
            output_weights: vec![0.0; 2 * hidden],
            output_bias: 0.0,
        }
    }

    /// A network with small random weights drawn from `seed`, its hidden units half active on
    /// average.
    pub fn random(hidden: usize, seed: u64) -> FloatNetwork {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut uniform = |bound: f32| {
            let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * unit - 1.0) * bound
        };
        let mut network = FloatNetwork::zeros(hidden);
        // About 32 active rows: their sum has a spread of about 0.3.
        network.feature_weights.iter_mut().for_each(|w| *w = uniform(0.1));
        network.feature_bias.iter_mut().for_each(|b| *b = 0.5 + uniform(0.1));
        let bound = 1.0 / (2.0 * hidden as f32).sqrt();
        network.output_weights.iter_mut().for_each(|w| *w = uniform(bound));
        network
    }

    /// Which of [`parameters`](FloatNetwork::parameters) are weights, which weight decay
    /// shrinks, rather than biases.
    pub const DECAYED: [bool; 4] = [true, false, true, false];

    /// Every parameter, in a fixed order, for the optimiser.
    pub fn parameters_mut(&mut self) -> impl Iterator<Item = &mut [f32]> {
        [
            &mut self.feature_weights[..],
            &mut self.feature_bias[..],
            &mut self.output_weights[..],
            std::slice::from_mut(&mut self.output_bias),
        ]
        .into_iter()
    }

    /// Every parameter, in the order of [`parameters_mut`](FloatNetwork::parameters_mut).
    pub fn parameters(&self) -> impl Iterator<Item = &[f32]> {
        [
            &self.feature_weights[..],
            &self.feature_bias[..],
            &self.output_weights[..],
            std::slice::from_ref(&self.output_bias),
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

    /// The accumulator of one half of `sample`: the bias plus its active rows.
    fn accumulate(&self, features: &[u16], accumulator: &mut [f32]) {
        let hidden = self.hidden;
        accumulator.copy_from_slice(&self.feature_bias);
        for &feature in features {
            let row = &self.feature_weights[usize::from(feature) * hidden..][..hidden];
            accumulator.iter_mut().zip(row).for_each(|(a, w)| *a += w);
        }
    }

    /// The output `y` for `sample`; `scratch` holds the two accumulators afterwards.
    pub fn forward(&self, sample: &Sample, scratch: &mut Scratch) -> f32 {
        let hidden = self.hidden;
        let mut y = self.output_bias;
        for half in 0..2 {
            let accumulator = &mut scratch.accumulators[half * hidden..][..hidden];
            self.accumulate(sample.half(half), accumulator);
            let weights = &self.output_weights[half * hidden..][..hidden];
            y += accumulator.iter().zip(weights).map(|(a, w)| a.clamp(0.0, 1.0) * w).sum::<f32>();
        }
        y
    }

    /// Adds the gradient of `sample`'s loss, `(sigmoid(y) - target)²`, to `gradient` and
    /// returns the loss.
    pub fn backward(&self, sample: &Sample, scratch: &mut Scratch, gradient: &mut Self) -> f32 {
        let hidden = self.hidden;
        let y = self.forward(sample, scratch);
        let p = sigmoid(y);
        let error = p - sample.target;
        let dy = 2.0 * error * p * (1.0 - p);
        gradient.output_bias += dy;
        for half in 0..2 {
            let accumulator = &scratch.accumulators[half * hidden..][..hidden];
            let weights = &self.output_weights[half * hidden..][..hidden];
            let output = &mut gradient.output_weights[half * hidden..][..hidden];
            let delta = &mut scratch.delta[..hidden];
            for i in 0..hidden {
                let a = accumulator[i];
                output[i] += dy * a.clamp(0.0, 1.0);
                delta[i] = if a > 0.0 && a < 1.0 { dy * weights[i] } else { 0.0 };
            }
            gradient.feature_bias.iter_mut().zip(delta.iter()).for_each(|(g, d)| *g += d);
            for &feature in sample.half(half) {
                let row = &mut gradient.feature_weights[usize::from(feature) * hidden..][..hidden];
                row.iter_mut().zip(delta.iter()).for_each(|(g, d)| *g += d);
            }
        }
        error * error
    }

    /// The quantised network the engine reads, with `scale` and `provenance`.
    pub fn quantise(&self, scale: i32, provenance: String) -> Network {
        let round = |values: &[f32], factor: i32| -> Vec<i16> {
            let bound = f32::from(i16::MAX);
            values.iter().map(|v| (v * factor as f32).round().clamp(-bound, bound) as i16).collect()
        };
        Network {
            hidden: self.hidden,
            scale,
            feature_weights: round(&self.feature_weights, QA),
            feature_bias: round(&self.feature_bias, QA),
            output_weights: round(&self.output_weights, QB),
            output_bias: (self.output_bias * (QA * QB) as f32).round() as i32,
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
        let network = FloatNetwork::random(8, 3);
        let position = &positions()[17];
        let sample = Sample::new(position.board(), position.turn(), 0.8).unwrap();
        let mut scratch = Scratch::new(8);
        let mut gradient = FloatNetwork::zeros(8);
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
        let sample = Sample::new(position.board(), Color::Blue, 0.5).unwrap();
        let blue: Vec<u16> =
            features::active(position.board(), Color::Blue).map(|f| f as u16).collect();
        assert_eq!(sample.half(0), &blue[..]);
        assert_eq!(usize::from(sample.counts[1]), 32);
    }
}
