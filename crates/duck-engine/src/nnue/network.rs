//! The network: its quantised weights, the `.nnue` file that holds them, and a from-scratch
//! evaluation that is the reference for the search's incremental one.
//!
//! The shape is `1260 → H → 1` seen from both sides: a feature transformer of
//! [`INPUTS`] inputs (see [`features`]; another [`FeatureSet`] has more) and `H` outputs,
//! shared by the two
//! perspectives (weights `i16`, feature-major: the `H` weights of a feature are contiguous; bias
//! `i16`), giving an accumulator for red's perspective and one for blue's; the activation CReLU,
//! `clamp(x, 0, QA)`; and an output layer `2H → 1` (weights `i16`, first those of the side to
//! move's half, then the other side's; bias `i32`). The float network it quantises computes
//! `y = out(concat(crelu01(acc_stm), crelu01(acc_other)))` with `crelu01 = clamp(x, 0, 1)` and
//! evaluates `y · SCALE`; the feature transformer is quantised by [`QA`] and the output weights
//! by [`QB`], the output bias by `QA · QB`. In integers the value, in hundredths of a soldier for
//! the side to move, is
//! `(Σ crelu(acc_stm[i])·w[i] + Σ crelu(acc_other[i])·w[H+i] + bias) · SCALE / (QA·QB)`,
//! rounded towards zero and kept within ±[`MAX_VALUE`].
//!
//! A network may have `K` output layers rather than one (output buckets): the one that
//! evaluates a position is chosen by its number of pieces ([`output_bucket`]), so that the
//! opening, the middle game and the endings each weigh the same hidden units their own way.
//!
//! Sums are exact for a trained network; a network whose sums leave their type's range wraps
//! (accumulators as `i16`, the output sum as `i32`), the same way on every path, so the value of a
//! position never depends on how it was reached.
//!
//! The file ([`VERSION`] 2), little-endian: a header of [`HEADER_LEN`] bytes, the magic
//! [`MAGIC`], `u32` inputs (1260), `u32` H, `i32` SCALE, `i32` QA (255), `i32` QB (64), `u32` n
//! the length of the provenance text (at most [`MAX_PROVENANCE`]), `u32` the CRC-32 (IEEE, as
//! zlib computes it) of the payload; then the payload: `i16 × 1260·H` feature weights,
//! `i16 × H` feature bias, `i16 × 2H` output weights, `i32` output bias, n bytes of UTF-8
//! provenance text. The header alone gives the file's length ([`Network::declared_len`]), so a
//! reader checks it before reading the rest; the checksum catches a payload damaged since it
//! was written. A file of the first version ([`MAGIC_V1`]: the same fields without the
//! checksum, the provenance length after the output bias) is refused with the command that
//! converts it ([`NetworkError::OldFormat`]); [`Network::read_v1`] reads it for that command.
//!
//! Version 3 ([`MAGIC_V3`]) holds the networks version 2 cannot: another feature set or more
//! than one output layer. Its header, [`HEADER_LEN_V3`] bytes: the magic, `u32` the feature
//! set ([`FeatureSet::id`]), `u32` inputs (the set's), `u32` H, `u32` K the output layers (1
//! to [`MAX_OUTPUT_BUCKETS`]), `i32` SCALE, `i32` QA, `i32` QB, `u32` n, `u32` the CRC-32 of
//! the payload; the payload: `i16 × inputs·H` feature weights, `i16 × H` feature bias,
//! `i16 × 2H·K` output weights (layer after layer), `i32 × K` output biases, the provenance.
//! A network of the plain set with one output layer is written in version 2, so the files of
//! the networks made before version 3 are written again byte for byte.
//!
//! ```
//! use arbiter_duck::Position;
//! use arbiter_duck_engine::nnue::Network;
//!
//! let network = Network::random(32, 7);
//! let mut file = Vec::new();
//! network.write(&mut file).unwrap();
//! assert_eq!(Network::read(&file).unwrap(), network);
//! assert!(Network::read(&file[..file.len() - 1]).is_err());
//! let value = network.evaluate_scratch(&Position::new());
//! assert_eq!(value, Network::read(&file).unwrap().evaluate_scratch(&Position::new()));
//! ```

use std::io::{self, Write};

use arbiter_duck::{Color, Position};
use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::features::{FeatureSet, INPUTS};
use crate::value::Value;

/// The first bytes of a network file of the current version.
pub const MAGIC: [u8; 8] = *b"ARBNNUE2";

/// The first bytes of a network file of version 3, which names its feature set and output
/// layers.
pub const MAGIC_V3: [u8; 8] = *b"ARBNNUE3";

/// The first bytes of a network file of the first version, which had no checksum.
pub const MAGIC_V1: [u8; 8] = *b"ARBNNUE1";

/// The format's version for a network of the plain feature set and one output layer, the last
/// character of [`MAGIC`]; other networks are written in version 3 ([`MAGIC_V3`]).
pub const VERSION: u32 = 2;

/// The length of a version 2 header: the magic and seven 32-bit fields.
pub const HEADER_LEN: usize = MAGIC.len() + 7 * 4;

/// The length of a version 3 header: the magic and nine 32-bit fields.
pub const HEADER_LEN_V3: usize = MAGIC.len() + 9 * 4;

/// The most output layers a network may have.
pub const MAX_OUTPUT_BUCKETS: usize = 16;

/// The longest provenance text a file may hold: a few lines are all it needs, and the bound
/// keeps the length a header declares within a network's own size.
pub const MAX_PROVENANCE: usize = 1 << 20;

/// The longest network file: the largest network with the longest provenance text (a file of
/// the first format, whose header did not bound the text, may be 4 bytes longer).
pub const MAX_FILE_LEN: u64 = (HEADER_LEN_V3
    + 2 * (MAX_WEIGHTS + MAX_HIDDEN + 2 * MAX_HIDDEN * MAX_OUTPUT_BUCKETS)
    + 4 * MAX_OUTPUT_BUCKETS
    + MAX_PROVENANCE
    + 4) as u64;

/// The feature transformer's quantisation: its float weights and bias times this, and the top of
/// the activation.
pub const QA: i32 = 255;

/// The output layer's quantisation: its float weights times this (its bias times `QA · QB`).
pub const QB: i32 = 64;

/// The largest hidden size a file may declare.
pub const MAX_HIDDEN: usize = 1 << 14;

/// The most feature weights a network may have (inputs times hidden size): those of the
/// largest network of the plain set, so that a larger set allows a smaller hidden size.
pub const MAX_WEIGHTS: usize = INPUTS * MAX_HIDDEN;

/// The largest value the network gives, either way: well inside the values that are not won or
/// lost games, so that the margins the search adds to an evaluation never reach one.
pub const MAX_VALUE: Value = 16_000;

/// A quantised network (see the [module docs](self) for its shape and file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Network {
    /// The inputs.
    pub features: FeatureSet,
    /// The number of hidden units, H.
    pub hidden: usize,
    /// What the float network's output is multiplied by to give hundredths of a soldier.
    pub scale: i32,
    /// The feature transformer's weights, `inputs × H`, feature-major.
    pub feature_weights: Vec<i16>,
    /// The feature transformer's bias, H.
    pub feature_bias: Vec<i16>,
    /// The output layers' weights, 2H each, layer after layer: the side to move's half, then
    /// the other side's.
    pub output_weights: Vec<i16>,
    /// The output layers' biases, one each: K, the number of output layers.
    pub output_bias: Vec<i32>,
    /// Where the network comes from (free text, may be empty).
    pub provenance: String,
}

/// Why bytes are not a network, or a network cannot be written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// The file does not start with [`MAGIC`] (nor [`MAGIC_V3`] or [`MAGIC_V1`]).
    #[error("not a network file: it does not start with `ARBNNUE2` or `ARBNNUE3`")]
    Magic,
    /// The file is a network of the first format, which has no checksum.
    #[error(
        "a network of the first format (`ARBNNUE1`, without a checksum), which this engine no \
         longer loads: `arbiter duck network upgrade FILE --out NEW` writes it in the current \
         format"
    )]
    OldFormat,
    /// The file ends inside a field.
    #[error("the file ends in the {field}: {needed} bytes needed from byte {offset}, {left} left")]
    Truncated {
        /// The field cut short.
        field: &'static str,
        /// Where it starts.
        offset: usize,
        /// Its length.
        needed: usize,
        /// The bytes left from `offset`.
        left: usize,
    },
    /// The file's length is not the one its header declares.
    #[error("the file has {found} bytes, but its header declares {declared}")]
    Length {
        /// The file's length.
        found: u64,
        /// The length the header declares.
        declared: u64,
    },
    /// The payload's checksum is not the one the header holds.
    #[error(
        "the network is damaged: its CRC-32 is {found:08x}, but its header says {expected:08x}"
    )]
    Checksum {
        /// The checksum in the header.
        expected: u32,
        /// The checksum of the payload read.
        found: u32,
    },
    /// A header field has a value this engine does not read.
    #[error("the {field} is {found}, expected {expected}")]
    Header {
        /// The field.
        field: &'static str,
        /// Its value in the file.
        found: i64,
        /// What it must be.
        expected: &'static str,
    },
    /// Bytes follow the provenance text (a file of the first format).
    #[error("{extra} bytes after the end of the network")]
    TrailingBytes {
        /// How many.
        extra: usize,
    },
    /// The provenance text is not UTF-8.
    #[error("the provenance text is not UTF-8")]
    Provenance,
    /// An array of a network to write has the wrong length for its shape.
    #[error("the {field} have {found} values, expected {expected} for {hidden} hidden units")]
    Shape {
        /// The array.
        field: &'static str,
        /// Its length.
        found: usize,
        /// The length the hidden size asks for.
        expected: usize,
        /// The hidden size.
        hidden: usize,
    },
}

/// Reads the fields of a file in order, each checked against the bytes left.
struct Reader<'a> {
    bytes: &'a [u8],
    offset: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, field: &'static str, needed: usize) -> Result<&'a [u8], NetworkError> {
        let left = self.bytes.len() - self.offset;
        if needed > left {
            return Err(NetworkError::Truncated { field, offset: self.offset, needed, left });
        }
        let taken = &self.bytes[self.offset..self.offset + needed];
        self.offset += needed;
        Ok(taken)
    }

    fn u32(&mut self, field: &'static str) -> Result<u32, NetworkError> {
        let bytes = self.take(field, 4)?;
        Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
    }

    fn i32(&mut self, field: &'static str) -> Result<i32, NetworkError> {
        self.u32(field).map(|word| word as i32)
    }

    fn i16s(&mut self, field: &'static str, count: usize) -> Result<Vec<i16>, NetworkError> {
        let needed = count.saturating_mul(2);
        let bytes = self.take(field, needed)?;
        Ok(bytes.chunks_exact(2).map(|pair| i16::from_le_bytes([pair[0], pair[1]])).collect())
    }

    fn i32s(&mut self, field: &'static str, count: usize) -> Result<Vec<i32>, NetworkError> {
        let needed = count.saturating_mul(4);
        let bytes = self.take(field, needed)?;
        Ok(bytes.chunks_exact(4).map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect())
    }

    /// The shape's fields after the magic: in version 3 the feature set first, then the
    /// inputs and hidden size, in version 3 the output layers, then scale, QA and QB.
    fn shape(&mut self, version: u32) -> Result<Shape, NetworkError> {
        let features = match version {
            3 => {
                let id = self.u32("feature set")?;
                FeatureSet::from_id(id).ok_or(NetworkError::Header {
                    field: "feature set",
                    found: id.into(),
                    expected: "0 (pieces) or 1 (captain)",
                })?
            }
            _ => FeatureSet::Pieces,
        };
        let inputs = self.u32("input count")?;
        let expected = match features {
            FeatureSet::Pieces => "1260",
            FeatureSet::Captain => "10080",
        };
        expect("input count", inputs.into(), inputs as usize == features.inputs(), expected)?;
        let hidden = self.u32("hidden size")? as usize;
        let (ok, most) = match features {
            FeatureSet::Pieces => ((1..=MAX_HIDDEN).contains(&hidden), "1..=16384"),
            FeatureSet::Captain => {
                ((1..=MAX_WEIGHTS / features.inputs()).contains(&hidden), "1..=2048")
            }
        };
        expect("hidden size", hidden as i64, ok, most)?;
        let output_buckets = match version {
            3 => {
                let buckets = self.u32("output layer count")? as usize;
                let ok = (1..=MAX_OUTPUT_BUCKETS).contains(&buckets);
                expect("output layer count", buckets as i64, ok, "1..=16")?;
                buckets
            }
            _ => 1,
        };
        let scale = self.i32("scale")?;
        expect("scale", scale.into(), scale > 0, "positive")?;
        let qa = self.i32("QA")?;
        expect("QA", qa.into(), qa == QA, "255")?;
        let qb = self.i32("QB")?;
        expect("QB", qb.into(), qb == QB, "64")?;
        Ok(Shape { features, hidden, output_buckets, scale })
    }

    /// The weights, in the order every version stores them.
    fn weights(&mut self, shape: &Shape) -> Result<Weights, NetworkError> {
        let (hidden, buckets) = (shape.hidden, shape.output_buckets);
        Ok(Weights {
            feature_weights: self.i16s("feature weights", shape.features.inputs() * hidden)?,
            feature_bias: self.i16s("feature bias", hidden)?,
            output_weights: self.i16s("output weights", 2 * hidden * buckets)?,
            output_bias: self.i32s("output bias", buckets)?,
        })
    }
}

/// What a header says of a network's shape.
#[derive(Debug, Clone, Copy)]
struct Shape {
    features: FeatureSet,
    hidden: usize,
    output_buckets: usize,
    scale: i32,
}

/// The weights of a network as a file holds them.
struct Weights {
    feature_weights: Vec<i16>,
    feature_bias: Vec<i16>,
    output_weights: Vec<i16>,
    output_bias: Vec<i32>,
}

/// A header field's value, if it is `expected`.
fn expect(
    field: &'static str,
    found: i64,
    ok: bool,
    expected: &'static str,
) -> Result<(), NetworkError> {
    if ok { Ok(()) } else { Err(NetworkError::Header { field, found, expected }) }
}

/// The length of the payload (weights and provenance) of a network of `shape` with a
/// provenance text of `provenance` bytes.
fn payload_len(shape: &Shape, provenance: usize) -> usize {
    let (hidden, buckets) = (shape.hidden, shape.output_buckets);
    2 * (shape.features.inputs() * hidden + hidden + 2 * hidden * buckets)
        + 4 * buckets
        + provenance
}

/// What a file's header declares.
struct Header {
    version: u32,
    shape: Shape,
    provenance: usize,
    checksum: u32,
}

impl Header {
    /// The header at the start of `bytes` (which may hold the header alone).
    fn read(bytes: &[u8]) -> Result<Header, NetworkError> {
        let mut reader = Reader { bytes, offset: 0 };
        let version = match reader.take("magic", MAGIC.len())? {
            magic if magic == MAGIC => VERSION,
            magic if magic == MAGIC_V3 => 3,
            magic if magic == MAGIC_V1 => return Err(NetworkError::OldFormat),
            _ => return Err(NetworkError::Magic),
        };
        let shape = reader.shape(version)?;
        let provenance = reader.u32("provenance length")? as usize;
        let ok = provenance <= MAX_PROVENANCE;
        expect("provenance length", provenance as i64, ok, "at most 1048576")?;
        let checksum = reader.u32("checksum")?;
        Ok(Header { version, shape, provenance, checksum })
    }

    fn len(&self) -> usize {
        if self.version == VERSION { HEADER_LEN } else { HEADER_LEN_V3 }
    }

    fn file_len(&self) -> usize {
        self.len() + payload_len(&self.shape, self.provenance)
    }
}

impl Network {
    /// The length of the file whose first bytes are `header` (its whole header: [`HEADER_LEN`]
    /// bytes, [`HEADER_LEN_V3`] in version 3), as its header declares it: what a reader checks
    /// before reading the rest.
    pub fn declared_len(header: &[u8]) -> Result<u64, NetworkError> {
        Header::read(header).map(|header| header.file_len() as u64)
    }

    /// The network in `bytes`, a whole `.nnue` file: every field is checked, the length must be
    /// exactly what the header declares, and the payload's checksum the one the header holds.
    pub fn read(bytes: &[u8]) -> Result<Network, NetworkError> {
        let header = Header::read(bytes)?;
        let declared = header.file_len();
        if bytes.len() != declared {
            let found = bytes.len() as u64;
            return Err(NetworkError::Length { found, declared: declared as u64 });
        }
        let payload = &bytes[header.len()..];
        let found = crc32fast::hash(payload);
        if found != header.checksum {
            return Err(NetworkError::Checksum { expected: header.checksum, found });
        }
        let mut reader = Reader { bytes, offset: header.len() };
        let weights = reader.weights(&header.shape)?;
        let text = reader.take("provenance", header.provenance)?;
        let provenance = std::str::from_utf8(text).map_err(|_| NetworkError::Provenance)?;
        Ok(Network::from_parts(&header.shape, weights, provenance))
    }

    /// The network in `bytes`, a whole file of the first format ([`MAGIC_V1`], no checksum),
    /// for `arbiter duck network upgrade`: the engine loads only the current format.
    pub fn read_v1(bytes: &[u8]) -> Result<Network, NetworkError> {
        let mut reader = Reader { bytes, offset: 0 };
        if reader.take("magic", MAGIC_V1.len())? != MAGIC_V1 {
            return Err(NetworkError::Magic);
        }
        let shape = reader.shape(1)?;
        let weights = reader.weights(&shape)?;
        let length = reader.u32("provenance length")? as usize;
        let text = reader.take("provenance", length)?;
        let provenance = std::str::from_utf8(text).map_err(|_| NetworkError::Provenance)?;
        let extra = bytes.len() - reader.offset;
        if extra != 0 {
            return Err(NetworkError::TrailingBytes { extra });
        }
        Ok(Network::from_parts(&shape, weights, provenance))
    }

    fn from_parts(shape: &Shape, weights: Weights, provenance: &str) -> Network {
        Network {
            features: shape.features,
            hidden: shape.hidden,
            scale: shape.scale,
            feature_weights: weights.feature_weights,
            feature_bias: weights.feature_bias,
            output_weights: weights.output_weights,
            output_bias: weights.output_bias,
            provenance: provenance.to_owned(),
        }
    }

    /// The weights and the provenance as the payload holds them; the first format had the
    /// provenance's length before its text, the current one has it in the header.
    fn payload(&self, length_inside: bool) -> Vec<u8> {
        let length = payload_len(&self.shape(), self.provenance.len()) + 4 * length_inside as usize;
        let mut bytes = Vec::with_capacity(length);
        for array in [&self.feature_weights, &self.feature_bias, &self.output_weights] {
            bytes.extend(array.iter().flat_map(|value| value.to_le_bytes()));
        }
        bytes.extend(self.output_bias.iter().flat_map(|value| value.to_le_bytes()));
        if length_inside {
            bytes.extend_from_slice(&(self.provenance.len() as u32).to_le_bytes());
        }
        bytes.extend_from_slice(self.provenance.as_bytes());
        bytes
    }

    fn shape(&self) -> Shape {
        Shape {
            features: self.features,
            hidden: self.hidden,
            output_buckets: self.output_bias.len(),
            scale: self.scale,
        }
    }

    /// The file format's version the network is written in: 2 for the plain feature set with
    /// one output layer, 3 for the others.
    pub fn version(&self) -> u32 {
        if self.features == FeatureSet::Pieces && self.output_bias.len() == 1 { VERSION } else { 3 }
    }

    /// The number of output layers, K.
    pub fn output_buckets(&self) -> usize {
        self.output_bias.len()
    }

    /// The network's shape in words: `256 hidden units` for the plain feature set and one
    /// output layer, the feature set and the layers named before and after otherwise
    /// (`captain features, 256 hidden units, 8 output layers`).
    pub fn shape_text(&self) -> String {
        let mut text = format!("{} hidden units", self.hidden);
        if self.features != FeatureSet::Pieces {
            text = format!("{} features, {text}", self.features.name());
        }
        match self.output_bias.len() {
            1 => text,
            layers => format!("{text}, {layers} output layers"),
        }
    }

    /// The magic's and the shape's fields, the start of a header in every format: `magic`
    /// names the first or second, version 3 has its own.
    fn shape_fields(&self, magic: [u8; 8]) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(HEADER_LEN_V3);
        let version3 = self.version() == 3;
        bytes.extend_from_slice(if version3 { &MAGIC_V3 } else { &magic });
        if version3 {
            bytes.extend_from_slice(&self.features.id().to_le_bytes());
        }
        bytes.extend_from_slice(&(self.features.inputs() as u32).to_le_bytes());
        bytes.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        if version3 {
            bytes.extend_from_slice(&(self.output_bias.len() as u32).to_le_bytes());
        }
        for word in [self.scale, QA, QB] {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        bytes
    }

    /// Writes the network as a `.nnue` file (see the [module docs](self)): version 2, or 3
    /// for another feature set or more than one output layer. A network whose arrays do not
    /// fit its shape, or that [`read`](Network::read) would refuse, is an error of kind
    /// [`InvalidInput`](io::ErrorKind::InvalidInput) and writes nothing.
    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        self.check().map_err(|error| io::Error::new(io::ErrorKind::InvalidInput, error))?;
        let payload = self.payload(false);
        let mut bytes = self.shape_fields(MAGIC);
        bytes.extend_from_slice(&(self.provenance.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
        bytes.extend_from_slice(&payload);
        out.write_all(&bytes)
    }

    /// The CRC-32 of the network's payload, as its file's header holds it.
    pub fn checksum(&self) -> u32 {
        crc32fast::hash(&self.payload(false))
    }

    /// The network's fingerprint: the 64-bit FNV-1a hash of its file's bytes in the first
    /// format (without a checksum), so that a network keeps its fingerprint when its file is
    /// converted; for a network of version 3, which has no file of the first format, of its
    /// file without the checksum field. It names the network that played a self-play data
    /// file's games, in the file's header and in the provenance of a network trained on them
    /// (`arbiter duck train` prints it too).
    pub fn fingerprint(&self) -> u64 {
        // A network that cannot be written has no file; its fingerprint is that of no bytes.
        let bytes = match (self.check(), self.version()) {
            (Ok(()), VERSION) => [self.shape_fields(MAGIC_V1), self.payload(true)].concat(),
            (Ok(()), _) => {
                let length = (self.provenance.len() as u32).to_le_bytes();
                [self.shape_fields(MAGIC_V3), length.to_vec(), self.payload(false)].concat()
            }
            (Err(_), _) => Vec::new(),
        };
        bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        })
    }

    /// The length of the network's file.
    #[cfg(test)]
    fn file_len(&self) -> usize {
        let header = if self.version() == VERSION { HEADER_LEN } else { HEADER_LEN_V3 };
        header + payload_len(&self.shape(), self.provenance.len())
    }

    /// Whether the network can be written and read back: its arrays fit its shape, which and
    /// whose scale and provenance a file can hold.
    pub fn check(&self) -> Result<(), NetworkError> {
        let hidden = self.hidden;
        let inputs = self.features.inputs();
        let ok = (1..=MAX_HIDDEN).contains(&hidden) && inputs * hidden <= MAX_WEIGHTS;
        let most = if self.features == FeatureSet::Pieces { "1..=16384" } else { "1..=2048" };
        expect("hidden size", hidden as i64, ok, most)?;
        expect("scale", self.scale.into(), self.scale > 0, "positive")?;
        let buckets = self.output_bias.len();
        let ok = (1..=MAX_OUTPUT_BUCKETS).contains(&buckets);
        expect("output layer count", buckets as i64, ok, "1..=16")?;
        for (field, found, expected) in [
            ("feature weights", self.feature_weights.len(), inputs * hidden),
            ("feature bias", self.feature_bias.len(), hidden),
            ("output weights", self.output_weights.len(), 2 * hidden * buckets),
        ] {
            if found != expected {
                return Err(NetworkError::Shape { field, found, expected, hidden });
            }
        }
        let length = self.provenance.len();
        let ok = length <= MAX_PROVENANCE;
        expect("provenance length", length as i64, ok, "at most 1048576")
    }

    /// A network of the plain feature set and one output layer with weights drawn from
    /// `seed`, small enough that no sum wraps: for tests and for measuring the cost of
    /// inference before a network is trained.
    pub fn random(hidden: usize, seed: u64) -> Network {
        Network::random_shaped(FeatureSet::Pieces, hidden, 1, seed)
    }

    /// A network of `features`, `hidden` units and `output_buckets` output layers with weights
    /// drawn from `seed`, as [`random`](Network::random).
    pub fn random_shaped(
        features: FeatureSet,
        hidden: usize,
        output_buckets: usize,
        seed: u64,
    ) -> Network {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut draw = |low: i32, high: i32| {
            let span = (high - low + 1) as u64;
            (low + (rng.next_u64() % span) as i32) as i16
        };
        Network {
            features,
            hidden,
            scale: 400,
            feature_weights: (0..features.inputs() * hidden).map(|_| draw(-40, 40)).collect(),
            feature_bias: (0..hidden).map(|_| draw(0, 160)).collect(),
            output_weights: (0..2 * hidden * output_buckets).map(|_| draw(-64, 64)).collect(),
            output_bias: (0..output_buckets).map(|_| i32::from(draw(-2000, 2000))).collect(),
            provenance: format!("random weights, seed {seed}"),
        }
    }

    /// The value of `position` for the side to move, computed from scratch: each perspective's
    /// accumulator summed from the bias and the active features, then the output layer. Slow and
    /// plain: the reference the search's incremental evaluation is tested against.
    pub fn evaluate_scratch(&self, position: &Position) -> Value {
        let hidden = self.hidden;
        let accumulator = |perspective: Color| -> Vec<i16> {
            let mut sums: Vec<i16> = self.feature_bias.clone();
            for feature in self.features.active(position.board(), perspective) {
                let weights = &self.feature_weights[feature * hidden..(feature + 1) * hidden];
                for (sum, &weight) in sums.iter_mut().zip(weights) {
                    *sum = sum.wrapping_add(weight);
                }
            }
            sums
        };
        let us = position.turn();
        let halves = [accumulator(us), accumulator(!us)];
        let pieces = position.board().occupied().count();
        let bucket = output_bucket(pieces, self.output_bias.len());
        let weights = &self.output_weights[bucket * 2 * hidden..][..2 * hidden];
        let mut sum = self.output_bias[bucket];
        for (half, accumulator) in halves.iter().enumerate() {
            for (i, &value) in accumulator.iter().enumerate() {
                let activation = i32::from(value).clamp(0, QA);
                let weight = i32::from(weights[half * hidden + i]);
                sum = sum.wrapping_add(activation * weight);
            }
        }
        output_value(sum, self.scale)
    }
}

/// The output layer, of `buckets`, that evaluates a position of `pieces` pieces: the counts
/// from 1 to 32 cut into `buckets` runs of equal length (the last ones longer when 32 does not
/// divide), fewer pieces first.
#[inline]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    let pieces = (pieces.clamp(1, 32) - 1) as usize;
    pieces * buckets / 32
}

/// The value for the output layer's sum `sum` (in `QA · QB` units) with `scale`.
#[inline]
pub(crate) fn output_value(sum: i32, scale: i32) -> Value {
    let value = i64::from(sum) * i64::from(scale) / i64::from(QA * QB);
    value.clamp(-i64::from(MAX_VALUE), i64::from(MAX_VALUE)) as Value
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(network: &Network) -> Vec<u8> {
        let mut bytes = Vec::new();
        network.write(&mut bytes).unwrap();
        bytes
    }

    #[test]
    fn a_written_network_reads_back_the_same() {
        for hidden in [1, 8, 128] {
            let mut network = Network::random(hidden, hidden as u64);
            network.provenance = "trained on 鸭棋 self-play".to_owned();
            let bytes = file(&network);
            assert_eq!(bytes.len(), network.file_len());
            assert_eq!(Network::read(&bytes), Ok(network.clone()));
            network.provenance.clear();
            assert_eq!(Network::read(&file(&network)), Ok(network));
        }
    }

    /// The network's file in the first format, as the engine wrote it before files carried a
    /// checksum.
    fn file_v1(network: &Network) -> Vec<u8> {
        let mut bytes = b"ARBNNUE1".to_vec();
        for word in [1260, network.hidden as i32, network.scale, 255, 64] {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        for array in [&network.feature_weights, &network.feature_bias, &network.output_weights] {
            bytes.extend(array.iter().flat_map(|value| value.to_le_bytes()));
        }
        bytes.extend_from_slice(&network.output_bias[0].to_le_bytes());
        bytes.extend_from_slice(&(network.provenance.len() as u32).to_le_bytes());
        bytes.extend_from_slice(network.provenance.as_bytes());
        bytes
    }

    #[test]
    fn a_fingerprint_is_the_fnv_1a_hash_of_the_first_format() {
        // FNV-1a by its definition: one multiplication per byte, on the XOR.
        let fnv = |bytes: &[u8]| {
            let mut hash: u64 = 14_695_981_039_346_656_037;
            for &byte in bytes {
                hash ^= u64::from(byte);
                hash = hash.wrapping_mul(1_099_511_628_211);
            }
            hash
        };
        let network = Network::random(4, 2);
        assert_eq!(network.fingerprint(), fnv(&file_v1(&network)));
        let mut other = network.clone();
        other.provenance.push('.');
        assert_ne!(other.fingerprint(), network.fingerprint());
        // The built-in network kept the fingerprint its provenance and data files name.
        let embedded = Network::read(crate::nnue::embedded()).unwrap();
        assert_eq!(format!("{:016x}", embedded.fingerprint()), "0fcab3ba9dbd71ff");
    }

    #[test]
    fn the_layout_is_the_documented_one() {
        let mut network = Network::random(2, 1);
        network.provenance = "x".to_owned();
        let bytes = file(&network);
        assert_eq!(&bytes[..8], b"ARBNNUE2");
        assert_eq!(bytes[8..12], 1260u32.to_le_bytes());
        assert_eq!(bytes[12..16], 2u32.to_le_bytes());
        assert_eq!(bytes[16..20], 400i32.to_le_bytes());
        assert_eq!(bytes[20..24], 255i32.to_le_bytes());
        assert_eq!(bytes[24..28], 64i32.to_le_bytes());
        assert_eq!(bytes[28..32], 1u32.to_le_bytes());
        assert_eq!(bytes[32..36], crc32fast::hash(&bytes[36..]).to_le_bytes());
        assert_eq!(HEADER_LEN, 36);
        assert_eq!(bytes[36..38], network.feature_weights[0].to_le_bytes());
        let bias = 36 + 2 * 1260 * 2;
        assert_eq!(bytes[bias..bias + 2], network.feature_bias[0].to_le_bytes());
        let output = bias + 2 * 2;
        assert_eq!(bytes[output + 6..output + 8], network.output_weights[3].to_le_bytes());
        assert_eq!(bytes[output + 8..output + 12], network.output_bias[0].to_le_bytes());
        assert_eq!(&bytes[output + 12..], b"x");
        assert_eq!(Network::declared_len(&bytes[..HEADER_LEN]), Ok(bytes.len() as u64));
        // The CRC-32 of zlib and PNG: the check value of its catalogue.
        assert_eq!(crc32fast::hash(b"123456789"), 0xcbf4_3926);
    }

    #[test]
    fn a_file_of_the_first_format_is_refused_and_converts() {
        let network = Network::random(4, 3);
        let old = file_v1(&network);
        let error = Network::read(&old).unwrap_err();
        assert_eq!(error, NetworkError::OldFormat);
        assert!(error.to_string().contains("arbiter duck network upgrade"), "{error}");
        assert_eq!(Network::read_v1(&old), Ok(network.clone()));
        assert_eq!(Network::read(&file(&Network::read_v1(&old).unwrap())), Ok(network));
        assert!(Network::read_v1(&old[..old.len() - 1]).is_err());
        let mut longer = old.clone();
        longer.extend_from_slice(b"more");
        assert_eq!(Network::read_v1(&longer), Err(NetworkError::TrailingBytes { extra: 4 }));
    }

    #[test]
    fn a_file_not_of_its_declared_length_is_refused() {
        let bytes = file(&Network::random(4, 3));
        for cut in 0..HEADER_LEN {
            let error = Network::read(&bytes[..cut]).unwrap_err();
            assert!(matches!(error, NetworkError::Truncated { .. }), "cut at {cut}: {error}");
        }
        let declared = bytes.len() as u64;
        for cut in [HEADER_LEN, 40, bytes.len() - 1] {
            let found = cut as u64;
            assert_eq!(Network::read(&bytes[..cut]), Err(NetworkError::Length { found, declared }));
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(
            Network::read(&longer).unwrap_err().to_string(),
            format!("the file has {} bytes, but its header declares {declared}", declared + 1)
        );
        assert_eq!(
            Network::read(&[]).unwrap_err().to_string(),
            "the file ends in the magic: 8 bytes needed from byte 0, 0 left"
        );
    }

    #[test]
    fn other_feature_sets_and_output_layers_are_written_in_version_3() {
        for (features, hidden, buckets) in
            [(FeatureSet::Captain, 4, 1), (FeatureSet::Pieces, 8, 8), (FeatureSet::Captain, 33, 3)]
        {
            let mut network = Network::random_shaped(features, hidden, buckets, 5);
            network.provenance = "x".to_owned();
            let bytes = file(&network);
            assert_eq!(network.version(), 3);
            assert_eq!(bytes.len(), network.file_len());
            assert_eq!(&bytes[..8], b"ARBNNUE3");
            assert_eq!(bytes[8..12], features.id().to_le_bytes());
            assert_eq!(bytes[12..16], (features.inputs() as u32).to_le_bytes());
            assert_eq!(bytes[16..20], (hidden as u32).to_le_bytes());
            assert_eq!(bytes[20..24], (buckets as u32).to_le_bytes());
            assert_eq!(bytes[24..28], 400i32.to_le_bytes());
            assert_eq!(bytes[36..40], 1u32.to_le_bytes());
            assert_eq!(bytes[40..44], crc32fast::hash(&bytes[44..]).to_le_bytes());
            assert_eq!(network.checksum(), crc32fast::hash(&bytes[44..]));
            assert_eq!(HEADER_LEN_V3, 44);
            assert_eq!(Network::declared_len(&bytes[..HEADER_LEN_V3]), Ok(bytes.len() as u64));
            let biases = bytes.len() - 1 - 4 * buckets;
            assert_eq!(bytes[biases..biases + 4], network.output_bias[0].to_le_bytes());
            assert_eq!(Network::read(&bytes), Ok(network.clone()));
            // The fingerprint is the hash of the file without its checksum.
            let mut without = bytes[..40].to_vec();
            without.extend_from_slice(&bytes[44..]);
            let fnv = without.iter().fold(0xcbf2_9ce4_8422_2325u64, |hash, &byte| {
                (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
            });
            assert_eq!(network.fingerprint(), fnv);
            for cut in [HEADER_LEN_V3, bytes.len() - 1] {
                assert!(Network::read(&bytes[..cut]).is_err());
            }
        }
        // The plain set with one layer stays in version 2.
        assert_eq!(Network::random(4, 1).version(), 2);
        assert_eq!(file(&Network::random(4, 1))[..8], *b"ARBNNUE2");

        let bytes = file(&Network::random_shaped(FeatureSet::Captain, 4, 2, 3));
        let with = |offset: usize, word: u32| {
            let mut bad = bytes.clone();
            bad[offset..offset + 4].copy_from_slice(&word.to_le_bytes());
            Network::read(&bad).unwrap_err().to_string()
        };
        assert_eq!(with(8, 2), "the feature set is 2, expected 0 (pieces) or 1 (captain)");
        assert_eq!(with(12, 1260), "the input count is 1260, expected 10080");
        assert_eq!(with(16, 2049), "the hidden size is 2049, expected 1..=2048");
        assert_eq!(with(20, 0), "the output layer count is 0, expected 1..=16");
        assert_eq!(with(20, 17), "the output layer count is 17, expected 1..=16");
        assert!(with(20, 3).starts_with("the file has"), "{}", with(20, 3));
        let mut misshapen = Network::random_shaped(FeatureSet::Pieces, 4, 2, 3);
        misshapen.output_bias.push(0);
        assert!(matches!(misshapen.check(), Err(NetworkError::Shape { .. })));
        misshapen.output_bias.clear();
        assert!(matches!(misshapen.check(), Err(NetworkError::Header { .. })));
    }

    #[test]
    fn the_output_buckets_cut_the_piece_counts_evenly() {
        assert_eq!(output_bucket(32, 1), 0);
        assert_eq!(output_bucket(2, 1), 0);
        let eight: Vec<usize> = (1..=32).map(|pieces| output_bucket(pieces, 8)).collect();
        for (i, bucket) in eight.iter().enumerate() {
            assert_eq!(*bucket, i / 4);
        }
        assert_eq!(output_bucket(0, 8), 0);
        assert_eq!(output_bucket(40, 8), 7);
        for buckets in 1..=MAX_OUTPUT_BUCKETS {
            let used: std::collections::BTreeSet<usize> =
                (1..=32).map(|pieces| output_bucket(pieces, buckets)).collect();
            assert_eq!(used.len(), buckets, "every layer is used");
        }
    }

    #[test]
    fn a_damaged_payload_is_refused() {
        let mut network = Network::random(4, 3);
        network.provenance = "ab".to_owned();
        let bytes = file(&network);
        // Every single bit flipped in the payload is caught, the provenance's included.
        for at in HEADER_LEN..bytes.len() {
            for bit in 0..8 {
                let mut damaged = bytes.clone();
                damaged[at] ^= 1 << bit;
                let error = Network::read(&damaged).unwrap_err();
                assert!(matches!(error, NetworkError::Checksum { .. }), "{at}.{bit}: {error}");
            }
        }
        let mut damaged = bytes.clone();
        damaged[100] ^= 0xFF;
        let message = Network::read(&damaged).unwrap_err().to_string();
        assert!(message.starts_with("the network is damaged: its CRC-32 is "), "{message}");
        // A damaged checksum is refused as well.
        let mut damaged = bytes;
        damaged[33] ^= 1;
        assert!(matches!(Network::read(&damaged), Err(NetworkError::Checksum { .. })));
    }

    #[test]
    fn a_bad_header_is_refused() {
        let bytes = file(&Network::random(4, 3));
        let with = |offset: usize, word: [u8; 4]| {
            let mut bad = bytes.clone();
            bad[offset..offset + 4].copy_from_slice(&word);
            Network::read(&bad).unwrap_err()
        };
        let header = |error: NetworkError| match error {
            NetworkError::Header { field, .. } => field,
            other => panic!("{other}"),
        };
        assert_eq!(header(with(8, 1261u32.to_le_bytes())), "input count");
        assert_eq!(header(with(12, 0u32.to_le_bytes())), "hidden size");
        assert_eq!(header(with(12, u32::MAX.to_le_bytes())), "hidden size");
        assert_eq!(header(with(16, 0i32.to_le_bytes())), "scale");
        assert_eq!(header(with(20, 127i32.to_le_bytes())), "QA");
        assert_eq!(header(with(24, 128i32.to_le_bytes())), "QB");
        assert_eq!(header(with(28, (1u32 << 20 | 1).to_le_bytes())), "provenance length");
        assert_eq!(with(20, 127i32.to_le_bytes()).to_string(), "the QA is 127, expected 255");
        // Another hidden size or provenance length than the payload has: another length.
        for (offset, word) in [(12, 5u32), (12, 3), (28, 2)] {
            let error = with(offset, word.to_le_bytes());
            assert!(matches!(error, NetworkError::Length { .. }), "{error}");
        }
        // The largest file a header can declare: the largest network, with the longest text.
        let mut largest = bytes[..HEADER_LEN].to_vec();
        largest[12..16].copy_from_slice(&(MAX_HIDDEN as u32).to_le_bytes());
        largest[28..32].copy_from_slice(&(MAX_PROVENANCE as u32).to_le_bytes());
        assert_eq!(Network::declared_len(&largest), Ok(42_434_600));
    }

    #[test]
    fn garbage_is_refused() {
        let bytes = file(&Network::random(4, 3));
        let mut wrong_magic = bytes.clone();
        wrong_magic[7] = b'4';
        assert_eq!(Network::read(&wrong_magic), Err(NetworkError::Magic));
        assert_eq!(Network::read(b"#!/bin/sh\necho not a network\n"), Err(NetworkError::Magic));
        let mut network = Network::random(4, 3);
        network.provenance = "ab".to_owned();
        let mut not_utf8 = file(&network);
        let last = not_utf8.len() - 1;
        not_utf8[last] = 0xFF;
        let checksum = crc32fast::hash(&not_utf8[HEADER_LEN..]);
        not_utf8[32..36].copy_from_slice(&checksum.to_le_bytes());
        assert_eq!(Network::read(&not_utf8), Err(NetworkError::Provenance));
        // Random bytes behind a good magic never panic.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        for length in [8, 12, 28, 40, 200, 5_000] {
            let mut noise: Vec<u8> = (0..length).map(|_| rng.next_u64() as u8).collect();
            noise[..8].copy_from_slice(&MAGIC);
            assert!(Network::read(&noise).is_err());
            assert!(Network::read_v1(&noise).is_err());
        }
    }

    #[test]
    fn a_misshapen_network_is_not_written() {
        let mut network = Network::random(4, 3);
        network.output_weights.pop();
        let mut bytes = Vec::new();
        let error = network.write(&mut bytes).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidInput);
        assert_eq!(
            error.to_string(),
            "the output weights have 7 values, expected 8 for 4 hidden units"
        );
        assert!(bytes.is_empty());
    }

    #[test]
    fn the_value_is_the_documented_sum() {
        // One hidden unit, all weights 1 but the output's: every piece adds 1 to each
        // accumulator.
        let network = Network {
            features: FeatureSet::Pieces,
            hidden: 1,
            scale: QA * QB,
            feature_weights: vec![1; INPUTS],
            feature_bias: vec![10],
            output_weights: vec![2, -1],
            output_bias: vec![5],
            provenance: String::new(),
        };
        // 32 pieces: both accumulators 42, so 42·2 − 42 + 5.
        assert_eq!(network.evaluate_scratch(&Position::new()), 47);
        let clipped = Network { feature_bias: vec![300], ..network.clone() };
        assert_eq!(clipped.evaluate_scratch(&Position::new()), 255 * 2 - 255 + 5);
        // Four output layers: 32 pieces take the last, 4 the first.
        let layers = Network {
            output_weights: vec![0, 0, 0, 0, 0, 0, 2, -1],
            output_bias: vec![1, 2, 3, 4],
            ..network.clone()
        };
        assert_eq!(layers.evaluate_scratch(&Position::new()), 42 * 2 - 42 + 4);
        let few: Position = "4c4/9/9/9/9/9/9/9/4R4/3C5 w".parse().unwrap();
        assert_eq!(layers.evaluate_scratch(&few), 1);
        assert_eq!(output_value(i32::MAX, 400), MAX_VALUE);
        assert_eq!(output_value(-QA * QB, 100), -100);
        assert_eq!(output_value(QA * QB - 1, 1), 0);
    }
}
