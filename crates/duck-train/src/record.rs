//! The self-play data file: a header naming how the positions were made, then fixed-size
//! records, one per position, each with the search's score and the game's result.
//!
//! Everything is little-endian. The header: the magic [`MAGIC`]; `u16` format version; `u16`
//! record size ([`Record::SIZE`]); `u32` random plies at the start of each game; `u64` seed;
//! `u64` nodes per move; 16 bytes of the generator's version (arbiter's, UTF-8, zero-padded).
//! That is version 1, 48 bytes, the header of games searched with the classical evaluation.
//! Version 2 ([`VERSION`], 56 bytes) adds a `u64`, the
//! [fingerprint](arbiter_duck_engine::nnue::Network::fingerprint) of the network the games were
//! searched with; games of the classical evaluation keep version 1, so a file made
//! before networks played is given back byte for byte.
//!
//! A record ([`Record::SIZE`] = 56 bytes): the board as 90 nibbles, point `i` (row-major, row 0
//! at red's side) in byte `i / 2`, the low nibble for even `i`: 0 empty, `1 + role` a red piece,
//! `9 + role` a blue one (`role` as [`Role`] numbers them, 0..7); then `u8` the side to move (0
//! red, 1 blue); `u8` the game's result for the side to move (0 lost, 1 drawn, 2 won); `u8`
//! flags (bit 0: the last record of its game); `u8` zero; `i16` the search's score for the side
//! to move, in hundredths of a soldier; `u16` the ply; `u32` the game's number.
//!
//! A game's records are written together, the last one flagged, so a file cut anywhere (an
//! interrupted run) is read up to its last complete game and continued from there.
//!
//! ```
//! use arbiter_duck::{Color, Position};
//! use arbiter_duck_train::record::{GameResult, Record};
//!
//! let start = Position::new();
//! let record = Record {
//!     board: start.board().clone(),
//!     turn: Color::Red,
//!     score: 35,
//!     result: GameResult::Win,
//!     ply: 8,
//!     game: 3,
//!     last: true,
//! };
//! assert_eq!(Record::decode(&record.encode()).unwrap(), record);
//! ```

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use arbiter_duck::{Board, Color, Piece, Role, Square};
use thiserror::Error;

/// The first bytes of a data file.
pub const MAGIC: [u8; 8] = *b"ARBTRAIN";

/// The format's newest version: the header names the network that played.
pub const VERSION: u16 = 2;

/// The largest data file read (8 GiB, about 150 million positions): a file is read whole, its
/// records kept in memory for training, so a larger one is refused before it is read. Larger
/// data is split over several files (`duck train` takes several `--data`).
pub const MAX_FILE: u64 = 8 << 30;

/// Why a data file could not be read from the disk.
#[derive(Debug, Error)]
pub enum ReadError {
    /// Reading failed, or the file is not a regular file, or it is over [`MAX_FILE`].
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The bytes are not a data file.
    #[error("{0}")]
    Data(#[from] DataError),
}

/// The game's result for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    /// The side to move lost.
    Loss = 0,
    /// Drawn.
    Draw = 1,
    /// The side to move won.
    Win = 2,
}

impl GameResult {
    /// The result for `side` of a game `winner` won (`None`: a draw).
    pub fn for_side(winner: Option<Color>, side: Color) -> GameResult {
        match winner {
            None => GameResult::Draw,
            Some(winner) if winner == side => GameResult::Win,
            Some(_) => GameResult::Loss,
        }
    }

    /// The result as a training target: 0, ½ or 1.
    pub fn score(self) -> f32 {
        f32::from(self as u8) / 2.0
    }
}

/// What a data file's header or a record holds that the format does not allow.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DataError {
    /// The file is shorter than its header.
    #[error("the file has {found} bytes, shorter than its header")]
    Short {
        /// The file's length.
        found: usize,
    },
    /// The file does not start with [`MAGIC`].
    #[error("not a self-play data file (its first bytes are not \"ARBTRAIN\")")]
    Magic,
    /// The format version is neither 1 nor [`VERSION`].
    #[error("format version {found}, but this arbiter reads versions 1 to {VERSION}")]
    Version {
        /// The version in the file.
        found: u16,
    },
    /// The record size is not [`Record::SIZE`].
    #[error("records of {found} bytes, but this format's have {}", Record::SIZE)]
    RecordSize {
        /// The size in the file.
        found: u16,
    },
    /// The generator's version is not UTF-8.
    #[error("the generator's version is not UTF-8")]
    Generator,
    /// A record's board has a nibble no piece has.
    #[error("record {record}: point {square} holds {nibble}, which is no piece")]
    Piece {
        /// The record's number in the file, from 0.
        record: usize,
        /// The point's index.
        square: usize,
        /// The nibble.
        nibble: u8,
    },
    /// A record's side to move, result or padding is out of range.
    #[error("record {record}: its {field} is {found}")]
    Field {
        /// The record's number in the file, from 0.
        record: usize,
        /// Which field.
        field: &'static str,
        /// The byte found.
        found: u8,
    },
}

/// How the positions of a file were made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The first game's seed; game `g` is played from seed `seed + g`.
    pub seed: u64,
    /// Nodes searched per move.
    pub nodes: u64,
    /// Random plies at the start of each game.
    pub random_plies: u32,
    /// The generator's version (at most 16 bytes).
    pub generator: String,
    /// The [fingerprint](arbiter_duck_engine::nnue::Network::fingerprint) of the network the
    /// games were searched with; `None` for the
    /// classical evaluation.
    pub network: Option<u64>,
}

impl Header {
    /// The size of a version 1 header, in bytes.
    const SIZE_1: usize = 48;

    /// The header's size in bytes: 48 for the classical evaluation's games, 56 for a network's.
    pub fn size(&self) -> usize {
        if self.network.is_some() { Header::SIZE_1 + 8 } else { Header::SIZE_1 }
    }

    /// The header's bytes; the generator's version is cut to 16 bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut bytes = vec![0; self.size()];
        let version: u16 = if self.network.is_some() { VERSION } else { 1 };
        bytes[..8].copy_from_slice(&MAGIC);
        bytes[8..10].copy_from_slice(&version.to_le_bytes());
        bytes[10..12].copy_from_slice(&(Record::SIZE as u16).to_le_bytes());
        bytes[12..16].copy_from_slice(&self.random_plies.to_le_bytes());
        bytes[16..24].copy_from_slice(&self.seed.to_le_bytes());
        bytes[24..32].copy_from_slice(&self.nodes.to_le_bytes());
        let generator = self.generator.as_bytes();
        let length = generator.len().min(16);
        bytes[32..32 + length].copy_from_slice(&generator[..length]);
        if let Some(network) = self.network {
            bytes[48..56].copy_from_slice(&network.to_le_bytes());
        }
        bytes
    }

    /// The header at the start of `bytes`.
    pub fn decode(bytes: &[u8]) -> Result<Header, DataError> {
        let short = DataError::Short { found: bytes.len() };
        if bytes.len() < 10 {
            return Err(short);
        }
        if bytes[..8] != MAGIC {
            return Err(DataError::Magic);
        }
        let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        let u64_at = |at: usize| {
            let mut word = [0; 8];
            word.copy_from_slice(&bytes[at..at + 8]);
            u64::from_le_bytes(word)
        };
        let version = u16_at(8);
        let size = match version {
            1 => Header::SIZE_1,
            VERSION => Header::SIZE_1 + 8,
            _ => return Err(DataError::Version { found: version }),
        };
        if bytes.len() < size {
            return Err(short);
        }
        let size = u16_at(10);
        if usize::from(size) != Record::SIZE {
            return Err(DataError::RecordSize { found: size });
        }
        let random_plies = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]);
        let generator = &bytes[32..48];
        let length = generator.iter().position(|&b| b == 0).unwrap_or(generator.len());
        let generator =
            std::str::from_utf8(&generator[..length]).map_err(|_| DataError::Generator)?;
        Ok(Header {
            seed: u64_at(16),
            nodes: u64_at(24),
            random_plies,
            generator: generator.to_owned(),
            network: (version == VERSION).then(|| u64_at(48)),
        })
    }
}

/// One training position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The pieces.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    /// The search's score for the side to move, in hundredths of a soldier.
    pub score: i16,
    /// The game's result for the side to move.
    pub result: GameResult,
    /// The ply of the game at which the position arose.
    pub ply: u16,
    /// The game's number.
    pub game: u32,
    /// Whether this is the last record of its game.
    pub last: bool,
}

impl Record {
    /// A record's size in bytes.
    pub const SIZE: usize = 56;

    /// The record's bytes.
    pub fn encode(&self) -> [u8; Record::SIZE] {
        let mut bytes = [0; Record::SIZE];
        for sq in self.board.occupied() {
            if let Some(piece) = self.board.piece_at(sq) {
                let nibble = 1 + piece.color.index() as u8 * 8 + piece.role as u8;
                bytes[sq.index() / 2] |= nibble << (4 * (sq.index() % 2));
            }
        }
        bytes[45] = self.turn.index() as u8;
        bytes[46] = self.result as u8;
        bytes[47] = u8::from(self.last);
        bytes[48..50].copy_from_slice(&self.score.to_le_bytes());
        bytes[50..52].copy_from_slice(&self.ply.to_le_bytes());
        bytes[52..56].copy_from_slice(&self.game.to_le_bytes());
        bytes
    }

    /// The record `bytes` hold; `number` is its place in the file, for errors.
    pub fn decode_at(bytes: &[u8; Record::SIZE], number: usize) -> Result<Record, DataError> {
        let mut board = Board::empty();
        for (index, sq) in Square::all().enumerate() {
            let nibble = (bytes[index / 2] >> (4 * (index % 2))) & 0xf;
            if nibble == 0 {
                continue;
            }
            let color = if nibble < 8 { Color::Red } else { Color::Blue };
            let role = Role::ALL.get(usize::from((nibble - 1) % 8));
            match role {
                Some(&role) if nibble != 8 => {
                    board.put(sq, Piece::new(color, role));
                }
                _ => return Err(DataError::Piece { record: number, square: index, nibble }),
            }
        }
        let field =
            |field: &'static str, found: u8| DataError::Field { record: number, field, found };
        let turn = match bytes[45] {
            0 => Color::Red,
            1 => Color::Blue,
            found => return Err(field("side to move", found)),
        };
        let result = match bytes[46] {
            0 => GameResult::Loss,
            1 => GameResult::Draw,
            2 => GameResult::Win,
            found => return Err(field("result", found)),
        };
        let last = match bytes[47] {
            0 => false,
            1 => true,
            found => return Err(field("flags", found)),
        };
        Ok(Record {
            board,
            turn,
            score: i16::from_le_bytes([bytes[48], bytes[49]]),
            result,
            ply: u16::from_le_bytes([bytes[50], bytes[51]]),
            game: u32::from_le_bytes([bytes[52], bytes[53], bytes[54], bytes[55]]),
            last,
        })
    }

    /// The record `bytes` hold.
    pub fn decode(bytes: &[u8; Record::SIZE]) -> Result<Record, DataError> {
        Record::decode_at(bytes, 0)
    }
}

/// A data file as read: its header and the records of its complete games.
#[derive(Debug, Clone)]
pub struct DataFile {
    /// How the positions were made.
    pub header: Header,
    /// The records of the complete games, in the file's order.
    pub records: Vec<Record>,
    /// The bytes that hold the header and those records: what is kept when a run continues.
    pub complete_len: usize,
    /// The number of the game after the last complete one with records (0 for none).
    pub next_game: u32,
}

impl DataFile {
    /// Reads the data file at `path` (see [`read_from`](DataFile::read_from)).
    pub fn load(path: &Path) -> Result<DataFile, ReadError> {
        let (mut file, metadata) = arbiter_duck_engine::file::open(path)?;
        DataFile::read_from(&mut file, metadata.len())
    }

    /// Reads the data file `file`, a regular file of `length` bytes, from where it stands (its
    /// start): its header first, so that what is not a data file is refused from its first
    /// bytes, then the rest, refused unread over [`MAX_FILE`].
    pub fn read_from(file: &mut File, length: u64) -> Result<DataFile, ReadError> {
        if length > MAX_FILE {
            return Err(arbiter_duck_engine::file::too_large(length, MAX_FILE).into());
        }
        let mut bytes = Vec::new();
        file.take(Header::SIZE_1 as u64 + 8).read_to_end(&mut bytes)?;
        // Either the longest header, or the whole file: enough to check the header.
        Header::decode(&bytes)?;
        let rest = length.saturating_sub(bytes.len() as u64);
        bytes.reserve_exact(usize::try_from(rest).unwrap_or(0));
        file.take(rest).read_to_end(&mut bytes)?;
        Ok(DataFile::read(&bytes)?)
    }

    /// Reads a data file, up to its last complete game (what follows is an interrupted write).
    pub fn read(bytes: &[u8]) -> Result<DataFile, DataError> {
        let header = Header::decode(bytes)?;
        let start = header.size();
        let mut records = Vec::with_capacity((bytes.len() - start) / Record::SIZE);
        let mut complete = 0;
        let (chunks, _partial) = bytes[start..].as_chunks::<{ Record::SIZE }>();
        for (number, chunk) in chunks.iter().enumerate() {
            let record = Record::decode_at(chunk, number)?;
            let last = record.last;
            records.push(record);
            if last {
                complete = records.len();
            }
        }
        records.truncate(complete);
        let next_game = records.last().map_or(0, |record| record.game + 1);
        Ok(DataFile { header, records, complete_len: start + complete * Record::SIZE, next_game })
    }
}

#[cfg(test)]
mod tests {
    use arbiter_duck::Position;

    use super::*;

    fn record(game: u32, last: bool) -> Record {
        Record {
            board: Position::new().board().clone(),
            turn: Color::Blue,
            score: -120,
            result: GameResult::Loss,
            ply: 17,
            game,
            last,
        }
    }

    fn header() -> Header {
        Header {
            seed: 9,
            nodes: 2000,
            random_plies: 8,
            generator: "0.1.0".to_owned(),
            network: None,
        }
    }

    fn network_header() -> Header {
        Header { network: Some(0x0123_4567_89ab_cdef), ..header() }
    }

    #[test]
    fn a_header_reads_back() {
        assert_eq!(Header::decode(&header().encode()), Ok(header()));
        let mut bytes = header().encode();
        bytes[0] = b'X';
        assert_eq!(Header::decode(&bytes), Err(DataError::Magic));
        let mut bytes = header().encode();
        bytes[8] = 3;
        assert_eq!(Header::decode(&bytes), Err(DataError::Version { found: 3 }));
        let bytes = header().encode();
        assert_eq!(Header::decode(&bytes[..10]), Err(DataError::Short { found: 10 }));
        assert_eq!(Header::decode(&bytes[..3]), Err(DataError::Short { found: 3 }));
    }

    #[test]
    fn a_network_is_named_by_version_2_and_the_classical_evaluation_keeps_version_1() {
        let classical = header().encode();
        assert_eq!((classical.len(), classical[8]), (48, 1));
        let network = network_header().encode();
        assert_eq!((network.len(), network[8]), (56, 2));
        assert_eq!(network[..8], classical[..8]);
        assert_eq!(network[10..48], classical[10..48]);
        assert_eq!(Header::decode(&network), Ok(network_header()));
        assert_eq!(Header::decode(&network[..50]), Err(DataError::Short { found: 50 }));
    }

    #[test]
    fn a_bad_record_is_named() {
        let mut bytes = record(0, true).encode();
        bytes[46] = 3;
        assert_eq!(
            Record::decode_at(&bytes, 5),
            Err(DataError::Field { record: 5, field: "result", found: 3 })
        );
        let mut bytes = record(0, true).encode();
        bytes[44] = 0x80;
        assert_eq!(
            Record::decode_at(&bytes, 1),
            Err(DataError::Piece { record: 1, square: 89, nibble: 8 })
        );
    }

    #[test]
    fn a_file_is_read_up_to_its_last_complete_game() {
        for header in [header(), network_header()] {
            let mut bytes = header.encode();
            for (game, last) in [(0, false), (0, true), (2, true), (3, false)] {
                bytes.extend_from_slice(&record(game, last).encode());
            }
            bytes.extend_from_slice(&[1, 2, 3]);
            let file = DataFile::read(&bytes).unwrap();
            assert_eq!(file.records.len(), 3);
            assert_eq!(file.next_game, 3);
            assert_eq!(file.complete_len, header.size() + 3 * Record::SIZE);
            assert_eq!(file.header, header);
        }
    }
}
