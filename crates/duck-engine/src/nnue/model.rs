//! A network laid out for the search: every row of weights cut into [`Block`]s of [`LANES`]
//! values aligned to 64 bytes, the hidden size padded with zeros to a whole number of blocks.
//!
//! The hidden size is read from the file, so it is a runtime count of blocks, but each block is
//! a fixed-size array: the loops over a block's lanes have a length the compiler knows, and
//! become vector instructions (two to four of them a block on x86-64's 128-bit and 256-bit
//! registers). A padded lane has a zero bias, zero weights and a zero output weight, so it adds
//! nothing and the value is the network's exactly.

use std::fmt;

use super::features::FeatureSet;
use super::network::{Network, NetworkError};

/// The lanes of a [`Block`]: 64 bytes of `i16`, a cache line.
pub const LANES: usize = 32;

/// A run of [`LANES`] hidden units, aligned to a cache line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Block(pub [i16; LANES]);

impl Block {
    /// Every lane zero.
    pub const ZERO: Block = Block([0; LANES]);
}

/// A [`Network`] in blocks, ready for the accumulators.
#[derive(Clone)]
pub struct Model {
    /// The inputs.
    pub(super) features: FeatureSet,
    /// The number of blocks a row of hidden units takes.
    pub(super) blocks: usize,
    /// The feature weights: `blocks` per feature, feature after feature.
    pub(super) feature_weights: Vec<Block>,
    /// The feature bias.
    pub(super) feature_bias: Vec<Block>,
    /// The output weights of each output layer: the side to move's `blocks`, then the other
    /// side's, layer after layer.
    pub(super) output_weights: Vec<Block>,
    /// The output layers' biases.
    pub(super) output_bias: Vec<i32>,
    pub(super) scale: i32,
    network: Network,
}

impl fmt::Debug for Model {
    /// The sizes and provenance, not the hundreds of thousands of weights (an engine's debug
    /// output shows its evaluation).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Model")
            .field("features", &self.features)
            .field("hidden", &self.network.hidden)
            .field("blocks", &self.blocks)
            .field("scale", &self.scale)
            .field("provenance", &self.network.provenance)
            .finish_non_exhaustive()
    }
}

/// `values` cut into rows of `hidden`, each padded with zeros to `blocks` blocks.
fn in_blocks(values: &[i16], hidden: usize, blocks: usize) -> Vec<Block> {
    let mut out = Vec::with_capacity(values.len() / hidden * blocks);
    for row in values.chunks(hidden) {
        for start in (0..blocks).map(|block| block * LANES) {
            let mut block = Block::ZERO;
            let lanes = row.get(start..).unwrap_or_default();
            let lanes = &lanes[..lanes.len().min(LANES)];
            block.0[..lanes.len()].copy_from_slice(lanes);
            out.push(block);
        }
    }
    out
}

impl Model {
    /// `network` in blocks, if its arrays fit its hidden size ([`Network::check`]: those of a
    /// network [`read`](Network::read) from a file always do).
    pub fn new(network: Network) -> Result<Model, NetworkError> {
        network.check()?;
        let hidden = network.hidden;
        let blocks = hidden.div_ceil(LANES);
        Ok(Model {
            features: network.features,
            blocks,
            feature_weights: in_blocks(&network.feature_weights, hidden, blocks),
            feature_bias: in_blocks(&network.feature_bias, hidden, blocks),
            output_weights: in_blocks(&network.output_weights, hidden, blocks),
            output_bias: network.output_bias.clone(),
            scale: network.scale,
            network,
        })
    }

    /// The network this model lays out.
    pub fn network(&self) -> &Network {
        &self.network
    }

    /// The weights of `feature`, in blocks.
    #[inline(always)]
    pub(super) fn feature(&self, feature: usize) -> &[Block] {
        &self.feature_weights[feature * self.blocks..(feature + 1) * self.blocks]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::features::INPUTS;

    #[test]
    fn rows_are_padded_with_zeros() {
        let network = Network::random(40, 9);
        let model = Model::new(network.clone()).unwrap();
        assert_eq!(model.blocks, 2);
        assert_eq!(model.feature_weights.len(), INPUTS * 2);
        let row = model.feature(7);
        assert_eq!(row[0].0[..], network.feature_weights[7 * 40..7 * 40 + 32]);
        assert_eq!(row[1].0[..8], network.feature_weights[7 * 40 + 32..8 * 40]);
        assert!(row[1].0[8..].iter().all(|&weight| weight == 0));
        assert_eq!(model.output_weights[2].0[..8], network.output_weights[40..48]);
        assert_eq!(std::mem::align_of::<Block>(), 64);
        assert_eq!(model.feature_weights.as_ptr() as usize % 64, 0);
        let debug = format!("{model:?}");
        assert!(
            debug.starts_with("Model { features: Pieces, hidden: 40, blocks: 2, scale: 400,"),
            "{debug}"
        );
    }

    #[test]
    fn a_misshapen_network_is_refused() {
        let mut network = Network::random(8, 1);
        network.feature_bias.push(0);
        assert!(matches!(
            Model::new(network),
            Err(NetworkError::Shape { field: "feature bias", found: 9, expected: 8, hidden: 8 })
        ));
        let empty = Network { hidden: 0, ..Network::random(1, 1) };
        assert!(matches!(Model::new(empty), Err(NetworkError::Header { .. })));
    }
}
