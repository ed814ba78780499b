//! The frames of a Zstandard file, found from their headers without decompressing them: where
//! a file made of independent frames (as `pzstd` and the seekable format write it) can be cut
//! so that each part decompresses on its own.
//!
//! A frame is walked header by header: its magic number, its frame header (whose size its
//! descriptor byte gives), then each block's three-byte header, which gives the block's size,
//! up to the last block, then the checksum if the frame has one. Skippable frames (the seekable
//! format's seek table is one) are walked by the size they state.
//!
//! ```
//! use std::io::Cursor;
//! use arbiter_chess_record::pgn::zstd_frames;
//!
//! let one = zstd::encode_all(&b"1. e4 e5 *\n"[..], 3)?;
//! let two = [&one[..], &one[..]].concat();
//! let frames = zstd_frames(Cursor::new(&two))?;
//! assert_eq!(frames, [0..one.len() as u64, one.len() as u64..two.len() as u64]);
//! # Ok::<_, std::io::Error>(())
//! ```

use std::io::{self, BufReader, Read, Seek};
use std::ops::Range;

/// The magic number that starts a Zstandard frame.
const ZSTD_MAGIC: u32 = 0xFD2F_B528;

/// A skippable frame's magic number, once its low four bits are masked.
const SKIPPABLE_MAGIC: u32 = 0x184D_2A50;

/// The byte range of each frame of a Zstandard file, in order, skippable frames included.
/// A file that is not a sequence of whole frames (cut off, or not Zstandard) is an
/// [`io::ErrorKind::InvalidData`] error.
pub fn zstd_frames<R: Read + Seek>(reader: R) -> io::Result<Vec<Range<u64>>> {
    let mut reader = BufReader::with_capacity(64 << 10, reader);
    let mut at = reader.stream_position()?;
    let mut frames = Vec::new();
    while let Some(magic) = read_magic(&mut reader)? {
        let start = at;
        let len = if magic & 0xFFFF_FFF0 == SKIPPABLE_MAGIC {
            let size = u64::from(u32::from_le_bytes(read_array(&mut reader)?));
            skip(&mut reader, size)?;
            8 + size
        } else if magic == ZSTD_MAGIC {
            4 + frame_len(&mut reader)?
        } else {
            return Err(invalid(format!("byte {at}: expected a Zstandard frame")));
        };
        at += len;
        frames.push(start..at);
    }
    Ok(frames)
}

/// The size of a frame after its magic number: header, blocks and checksum, skipping them.
fn frame_len<R: Read + Seek>(reader: &mut BufReader<R>) -> io::Result<u64> {
    let [descriptor] = read_array(reader)?;
    let fcs_flag = descriptor >> 6;
    let single_segment = descriptor & 0x20 != 0;
    let checksum = descriptor & 0x04 != 0;
    let dict_id = [0, 1, 2, 4][usize::from(descriptor & 0x03)];
    let window = u64::from(!single_segment);
    let content_size = match fcs_flag {
        0 => u64::from(single_segment),
        1 => 2,
        2 => 4,
        _ => 8,
    };
    let header = window + dict_id + content_size;
    skip(reader, header)?;
    let mut len = 1 + header;
    loop {
        let [a, b, c] = read_array(reader)?;
        let block = u32::from_le_bytes([a, b, c, 0]);
        let last = block & 1 != 0;
        let size = u64::from(block >> 3);
        let stored = match (block >> 1) & 3 {
            0 | 2 => size,
            1 => 1,
            _ => return Err(invalid("a reserved Zstandard block type".into())),
        };
        skip(reader, stored)?;
        len += 3 + stored;
        if last {
            break;
        }
    }
    if checksum {
        skip(reader, 4)?;
        len += 4;
    }
    Ok(len)
}

/// The next frame's magic number, or None at the end of the file.
fn read_magic<R: Read>(reader: &mut R) -> io::Result<Option<u32>> {
    let mut magic = [0u8; 4];
    let mut len = 0;
    while len < magic.len() {
        match reader.read(&mut magic[len..]) {
            Ok(0) if len == 0 => return Ok(None),
            Ok(0) => return Err(invalid("a Zstandard file cut off in a magic number".into())),
            Ok(n) => len += n,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(Some(u32::from_le_bytes(magic)))
}

fn read_array<const N: usize, R: Read>(reader: &mut R) -> io::Result<[u8; N]> {
    let mut bytes = [0u8; N];
    reader.read_exact(&mut bytes).map_err(|error| match error.kind() {
        io::ErrorKind::UnexpectedEof => invalid("a Zstandard frame cut off".into()),
        _ => error,
    })?;
    Ok(bytes)
}

/// Skips `len` bytes, which must be there.
fn skip<R: Read + Seek>(reader: &mut BufReader<R>, len: u64) -> io::Result<()> {
    let offset = i64::try_from(len).map_err(|_| invalid("a Zstandard frame too large".into()))?;
    reader.seek_relative(offset)?;
    // Seeking past the end succeeds: the end is checked by reading the byte before the next.
    if len > 0 {
        reader.seek_relative(-1)?;
        read_array::<1, _>(reader)?;
    }
    Ok(())
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    #[test]
    fn frames_of_every_kind_are_walked() {
        let text = b"[White \"A\"]\n\n1. e4 e5 *\n".repeat(2000);
        let one = zstd::encode_all(&text[..], 3).expect("zstd");
        // A skippable frame, as the seekable format's seek table.
        let mut skippable = 0x184D_2A5Eu32.to_le_bytes().to_vec();
        skippable.extend_from_slice(&5u32.to_le_bytes());
        skippable.extend_from_slice(b"12345");
        let mut encoder = zstd::Encoder::new(Vec::new(), 1).expect("zstd");
        encoder.include_checksum(true).expect("checksum");
        io::Write::write_all(&mut encoder, &text).expect("zstd");
        let checked = encoder.finish().expect("zstd");
        let file = [&one[..], &skippable[..], &checked[..]].concat();
        let frames = zstd_frames(Cursor::new(&file)).expect("frames");
        let (a, b) = (one.len() as u64, (one.len() + skippable.len()) as u64);
        assert_eq!(frames, [0..a, a..b, b..file.len() as u64]);
        assert!(zstd_frames(Cursor::new(&file[..file.len() - 1])).is_err());
        assert!(zstd_frames(Cursor::new(b"1. e4 *\n")).is_err());
        assert_eq!(zstd_frames(Cursor::new(b"")).expect("empty"), []);
    }
}
