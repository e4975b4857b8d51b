//! A compact binary format for Ataxx training positions (`skald datagen --format binary`, read
//! by the trainer): 18 bytes a position, against about 45 for a text line.
//!
//! # File
//! A [`HEADER_LEN`]-byte header, then records of [`RECORD_LEN`] bytes each, nothing between
//! them and nothing after the last one:
//!
//! | bytes  | content                                                                |
//! |--------|------------------------------------------------------------------------|
//! | 0..8   | [`MAGIC`], the ASCII text `SKALDATX`                                   |
//! | 8..10  | format version, `u16` little-endian: [`VERSION`] (1)                   |
//! | 10..12 | record length in bytes, `u16` little-endian: [`RECORD_LEN`] (18)       |
//!
//! # Record ([`PackedPosition`])
//! | bytes  | content                                                                |
//! |--------|------------------------------------------------------------------------|
//! | 0..13  | the 49 squares, 2 bits each (below)                                    |
//! | 12     | bits 2: side to move (0 `x`, 1 `o`); bits 3–4: result (below); bits 5–7: 0 |
//! | 13     | halfmove clock, 0 to [`HALFMOVE_LIMIT`]                                 |
//! | 14..16 | fullmove number, `u16` little-endian, 1 or more                        |
//! | 16..18 | search score, `i16` little-endian, centipawns, side to move's view     |
//!
//! Squares: bytes 0..13 read as one little-endian 104-bit number, square `i` (`rank × 7 +
//! file`, `a1` = 0, `g7` = 48) is bits `2i` and `2i + 1`: 0 empty, 1 `x`, 2 `o`, 3 blocked.
//! So byte 0 holds a1 (bits 0–1), b1, c1, d1 (bits 6–7), and byte 12's bits 0–1 hold g7.
//!
//! Result: the game's final result from the side to move's view, 0 it lost, 1 draw, 2 it won
//! ([`Wdl`]); 3 is invalid.
//!
//! Every field is checked when decoding: a record with a reserved bit set, result 3, a
//! halfmove clock above [`HALFMOVE_LIMIT`] or a fullmove number of 0 is an error
//! ([`PackError`]), never a panic.

use std::io::{Read, Write};

use super::bitboard::{FULL, NUM_SQUARES};
use super::position::{HALFMOVE_LIMIT, Position};
use crate::game::Side;

/// The first 8 bytes of a packed file: `SKALDATX`.
pub const MAGIC: [u8; 8] = *b"SKALDATX";
/// The format version this module writes and reads.
pub const VERSION: u16 = 1;
/// Bytes of the file header: magic, version, record length.
pub const HEADER_LEN: usize = 12;
/// Bytes of one record.
pub const RECORD_LEN: usize = 18;

/// A game's result from the side to move's view (shared with the tafl training data,
/// [`crate::tafl::packed`]).
pub use crate::game::Wdl;

/// One training position: the position, its search score and the game's result.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PackedPosition {
    /// The position before the move.
    pub position: Position,
    /// The search score, centipawns, from the side to move's view.
    pub score: i16,
    /// The game's final result, from the side to move's view.
    pub result: Wdl,
}

/// Why a packed file, header or record could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum PackError {
    /// The file does not start with [`MAGIC`].
    #[error("not a packed Ataxx position file (no SKALDATX header)")]
    BadMagic,
    /// The header names a version this build does not read.
    #[error("packed position file version {0}; this build reads version {VERSION}")]
    BadVersion(u16),
    /// The header's record length is not [`RECORD_LEN`].
    #[error("packed position file with {0}-byte records; version {VERSION} has {RECORD_LEN}")]
    BadRecordLength(u16),
    /// The file ends inside the header or a record.
    #[error("packed position file ends {0} bytes into a record (or the header)")]
    Truncated(usize),
    /// A record's bytes are not a valid position (the reason follows).
    #[error("bad packed position: {0}")]
    BadRecord(&'static str),
    /// A position that the format cannot hold (halfmove clock above the limit, fullmove
    /// number above 65 535).
    #[error("cannot pack the position: {0}")]
    Unencodable(&'static str),
    /// Reading or writing failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// The file header: [`MAGIC`], [`VERSION`], [`RECORD_LEN`].
pub fn header() -> [u8; HEADER_LEN] {
    let mut h = [0; HEADER_LEN];
    h[..8].copy_from_slice(&MAGIC);
    h[8..10].copy_from_slice(&VERSION.to_le_bytes());
    h[10..12].copy_from_slice(&(RECORD_LEN as u16).to_le_bytes());
    h
}

/// `true` when `bytes` start with [`MAGIC`] (the file is in this format, of whatever version).
pub fn has_magic(bytes: &[u8]) -> bool {
    bytes.starts_with(&MAGIC)
}

/// Checks a file header.
///
/// # Errors
/// [`PackError::BadMagic`], [`PackError::BadVersion`] or [`PackError::BadRecordLength`].
pub fn check_header(bytes: &[u8; HEADER_LEN]) -> Result<(), PackError> {
    if !has_magic(bytes) {
        return Err(PackError::BadMagic);
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != VERSION {
        return Err(PackError::BadVersion(version));
    }
    let len = u16::from_le_bytes([bytes[10], bytes[11]]);
    if len as usize != RECORD_LEN {
        return Err(PackError::BadRecordLength(len));
    }
    Ok(())
}

impl PackedPosition {
    /// The record's bytes (module docs).
    ///
    /// # Errors
    /// [`PackError::Unencodable`] when the halfmove clock is above [`HALFMOVE_LIMIT`] or the
    /// fullmove number above 65 535.
    pub fn encode(&self) -> Result<[u8; RECORD_LEN], PackError> {
        let p = &self.position;
        if p.halfmove > HALFMOVE_LIMIT {
            return Err(PackError::Unencodable("halfmove clock above 100"));
        }
        let fullmove = u16::try_from(p.fullmove)
            .map_err(|_| PackError::Unencodable("fullmove number above 65535"))?;
        let mut squares: u128 = 0;
        for i in 0..NUM_SQUARES {
            let bit = 1u64 << i;
            let code: u128 = if p.stones[0] & bit != 0 {
                1
            } else if p.stones[1] & bit != 0 {
                2
            } else if p.blocked & bit != 0 {
                3
            } else {
                0
            };
            squares |= code << (2 * i);
        }
        let side: u128 = match p.side {
            Side::First => 0,
            Side::Second => 1,
        };
        let result: u128 = match self.result {
            Wdl::Loss => 0,
            Wdl::Draw => 1,
            Wdl::Win => 2,
        };
        squares |= side << 98 | result << 99;
        let mut out = [0; RECORD_LEN];
        out[..13].copy_from_slice(&squares.to_le_bytes()[..13]);
        out[13] = p.halfmove as u8;
        out[14..16].copy_from_slice(&fullmove.to_le_bytes());
        out[16..18].copy_from_slice(&self.score.to_le_bytes());
        Ok(out)
    }

    /// Reads a record (module docs).
    ///
    /// # Errors
    /// [`PackError::BadRecord`] naming the field: a reserved bit set, result code 3, a halfmove
    /// clock above [`HALFMOVE_LIMIT`], a fullmove number of 0.
    pub fn decode(bytes: &[u8; RECORD_LEN]) -> Result<PackedPosition, PackError> {
        let mut wide = [0u8; 16];
        wide[..13].copy_from_slice(&bytes[..13]);
        let squares = u128::from_le_bytes(wide);
        if squares >> 101 != 0 {
            return Err(PackError::BadRecord("reserved bits of byte 12 are set"));
        }
        let (mut x, mut o, mut blocked) = (0u64, 0u64, 0u64);
        for i in 0..NUM_SQUARES {
            let bit = 1u64 << i;
            match (squares >> (2 * i)) & 3 {
                0 => {}
                1 => x |= bit,
                2 => o |= bit,
                _ => blocked |= bit,
            }
        }
        debug_assert_eq!((x | o | blocked) & !FULL, 0);
        let side = if (squares >> 98) & 1 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let result = match (squares >> 99) & 3 {
            0 => Wdl::Loss,
            1 => Wdl::Draw,
            2 => Wdl::Win,
            _ => return Err(PackError::BadRecord("result code 3")),
        };
        let halfmove = u32::from(bytes[13]);
        if halfmove > HALFMOVE_LIMIT {
            return Err(PackError::BadRecord("halfmove clock above 100"));
        }
        let fullmove = u32::from(u16::from_le_bytes([bytes[14], bytes[15]]));
        if fullmove == 0 {
            return Err(PackError::BadRecord("fullmove number 0"));
        }
        let mut position = Position {
            stones: [x, o],
            blocked,
            hash: 0,
            halfmove,
            fullmove,
            side,
        };
        position.hash = position.compute_hash_inner();
        Ok(PackedPosition {
            position,
            score: i16::from_le_bytes([bytes[16], bytes[17]]),
            result,
        })
    }
}

/// Writes a packed file: the header on creation, then one record per [`PackedWriter::write`].
/// Give it a buffered writer; call [`PackedWriter::into_inner`] (or flush the inner writer) at
/// the end.
pub struct PackedWriter<W: Write> {
    inner: W,
}

impl<W: Write> PackedWriter<W> {
    /// Writes the header to `inner`.
    ///
    /// # Errors
    /// [`PackError::Io`] when writing fails.
    pub fn new(mut inner: W) -> Result<Self, PackError> {
        inner.write_all(&header())?;
        Ok(PackedWriter { inner })
    }

    /// Writes one record.
    ///
    /// # Errors
    /// [`PackError::Unencodable`] (nothing is written) or [`PackError::Io`].
    pub fn write(&mut self, p: &PackedPosition) -> Result<(), PackError> {
        let bytes = p.encode()?;
        self.inner.write_all(&bytes)?;
        Ok(())
    }

    /// Flushes and returns the inner writer.
    ///
    /// # Errors
    /// [`PackError::Io`] when flushing fails.
    pub fn into_inner(mut self) -> Result<W, PackError> {
        self.inner.flush()?;
        Ok(self.inner)
    }
}

/// Reads a packed file record by record: an iterator of records, each `Ok` or the error that
/// ends the file (a bad record, a truncated file, a read error); nothing after an error.
pub struct PackedReader<R: Read> {
    inner: R,
    failed: bool,
}

impl<R: Read> PackedReader<R> {
    /// Reads and checks the header from `inner`.
    ///
    /// # Errors
    /// [`check_header`]'s errors, [`PackError::Truncated`] when `inner` is shorter than the
    /// header, [`PackError::Io`].
    pub fn new(mut inner: R) -> Result<Self, PackError> {
        let mut h = [0; HEADER_LEN];
        let n = read_full(&mut inner, &mut h)?;
        if n < HEADER_LEN {
            if !MAGIC.starts_with(&h[..n.min(MAGIC.len())]) {
                return Err(PackError::BadMagic);
            }
            return Err(PackError::Truncated(n));
        }
        check_header(&h)?;
        Ok(PackedReader {
            inner,
            failed: false,
        })
    }
}

/// Reads until `buf` is full or the input ends; the number of bytes read.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> Result<usize, std::io::Error> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

impl<R: Read> Iterator for PackedReader<R> {
    type Item = Result<PackedPosition, PackError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let mut buf = [0; RECORD_LEN];
        let result = match read_full(&mut self.inner, &mut buf) {
            Ok(0) => return None,
            Ok(n) if n < RECORD_LEN => Err(PackError::Truncated(n)),
            Ok(_) => PackedPosition::decode(&buf),
            Err(e) => Err(e.into()),
        };
        self.failed = result.is_err();
        Some(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let p = PackedPosition {
            position: Position::from_fen("x5o/7/2-1-2/7/2-1-2/7/o5x o 7 31").unwrap(),
            score: -123,
            result: Wdl::Draw,
        };
        let bytes = p.encode().unwrap();
        let back = PackedPosition::decode(&bytes).unwrap();
        assert_eq!(back, p);
        assert_eq!(back.position.to_fen(), "x5o/7/2-1-2/7/2-1-2/7/o5x o 7 31");
    }

    #[test]
    fn a1_is_the_lowest_bits() {
        let p = PackedPosition {
            position: Position::from_fen("7/7/7/7/7/7/x6 x 0 1").unwrap(),
            score: 0,
            result: Wdl::Loss,
        };
        let bytes = p.encode().unwrap();
        assert_eq!(bytes[0], 1);
        assert!(bytes[1..13].iter().all(|&b| b == 0));
    }

    #[test]
    fn bad_records_are_errors() {
        let good = PackedPosition {
            position: Position::start(),
            score: 5,
            result: Wdl::Win,
        }
        .encode()
        .unwrap();
        let mut b = good;
        b[12] |= 0x80;
        assert!(matches!(
            PackedPosition::decode(&b),
            Err(PackError::BadRecord(_))
        ));
        let mut b = good;
        b[12] |= 0b11 << 3;
        assert!(matches!(
            PackedPosition::decode(&b),
            Err(PackError::BadRecord(_))
        ));
        let mut b = good;
        b[13] = 101;
        assert!(matches!(
            PackedPosition::decode(&b),
            Err(PackError::BadRecord(_))
        ));
        let mut b = good;
        b[14] = 0;
        b[15] = 0;
        assert!(matches!(
            PackedPosition::decode(&b),
            Err(PackError::BadRecord(_))
        ));
    }

    #[test]
    fn files_round_trip_and_bad_files_are_errors() {
        let rec = PackedPosition {
            position: Position::start(),
            score: 40,
            result: Wdl::Win,
        };
        let mut w = PackedWriter::new(Vec::new()).unwrap();
        w.write(&rec).unwrap();
        w.write(&rec).unwrap();
        let bytes = w.into_inner().unwrap();
        assert_eq!(bytes.len(), HEADER_LEN + 2 * RECORD_LEN);
        let read: Vec<_> = PackedReader::new(&bytes[..])
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(read, vec![rec, rec]);
        // Truncated inside the second record: one record, then the error, then nothing.
        let mut r = PackedReader::new(&bytes[..bytes.len() - 1]).unwrap();
        assert!(r.next().unwrap().is_ok());
        assert!(matches!(r.next(), Some(Err(PackError::Truncated(17)))));
        assert!(r.next().is_none());
        assert!(matches!(
            PackedReader::new(&b"x5o/7/7/7/7/7/o5x x 0 1 | 0 | 0.5\n"[..]),
            Err(PackError::BadMagic)
        ));
        assert!(matches!(
            PackedReader::new(&bytes[..5]),
            Err(PackError::Truncated(5))
        ));
        assert!(matches!(
            PackedReader::new(&b""[..]),
            Err(PackError::Truncated(0))
        ));
        let mut v2 = bytes.clone();
        v2[8] = 2;
        assert!(matches!(
            PackedReader::new(&v2[..]),
            Err(PackError::BadVersion(2))
        ));
        let mut len = bytes.clone();
        len[10] = 20;
        assert!(matches!(
            PackedReader::new(&len[..]),
            Err(PackError::BadRecordLength(20))
        ));
    }
}
