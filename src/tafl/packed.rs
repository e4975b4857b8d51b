//! A compact binary format for tafl training positions on any board up to 13×13 (`skald datagen
//! --variant copenhagen --format binary`, read by the trainer): 38 bytes a position on 11×11
//! (20 on 7×7, 50 on 13×13), against about 130 for a text line.
//!
//! # File
//! A [`HEADER_LEN`]-byte header, then records of the length it gives, nothing between them and
//! nothing after the last one:
//!
//! | bytes  | content                                                                     |
//! |--------|-----------------------------------------------------------------------------|
//! | 0..8   | [`MAGIC`], the ASCII text `SKALDTFL`                                        |
//! | 8..10  | format version, `u16` little-endian: [`VERSION`] (1)                        |
//! | 10..12 | record length in bytes, `u16` little-endian: [`record_len`] of the board    |
//! | 12..14 | board size `N` (squares along a side), `u16` little-endian, 5 to 13         |
//! | 14..16 | reserved, 0                                                                 |
//! | 16..32 | the variant (its protocol name, e.g. `copenhagen`), ASCII, NUL-padded       |
//!
//! # Record ([`TaflRecord`])
//! | bytes      | content                                                                 |
//! |------------|-------------------------------------------------------------------------|
//! | 0..S       | the `N²` squares, 2 bits each, `S = ⌈2N² / 8⌉` bytes (below)            |
//! | S          | bit 0: side to move (0 attackers, 1 defenders); bits 1–2: result (below); bits 3–7: 0 |
//! | S+1..S+3   | halfmove clock (plies since the last capture), `u16` little-endian      |
//! | S+3..S+5   | fullmove number, `u16` little-endian, 1 or more                         |
//! | S+5..S+7   | search score, `i16` little-endian, centipawns, side to move's view      |
//!
//! Squares: the bytes `0..S` read as one little-endian number, square `i` (`rank × N + file`,
//! `a1` = 0) is bits `2i` and `2i + 1`: 0 empty, 1 attacker, 2 defender, 3 the king; the bits
//! after the last square are 0. Exactly one king.
//!
//! Result: the game's final result from the side to move's view, 0 it lost, 1 draw, 2 it won
//! ([`Wdl`]); 3 is invalid.
//!
//! Every field is checked when decoding: a second king or none, a reserved bit set, result 3,
//! a fullmove number of 0 are errors ([`TaflPackError`]), never a panic. The records hold the
//! board only: which squares are special is the variant's (the header's) business, and a
//! position read back is checked against its rules by [`TaflRecord::to_position`].

use std::io::{Read, Write};

use super::bitboard::{Bitboard, Square};
use super::position::Position;
use super::rules::{Piece, Rules};
use crate::game::{Game, Side, Wdl};

/// The first 8 bytes of a packed tafl file: `SKALDTFL`.
pub const MAGIC: [u8; 8] = *b"SKALDTFL";
/// The format version this module writes and reads.
pub const VERSION: u16 = 1;
/// Bytes of the file header.
pub const HEADER_LEN: usize = 32;
/// Bytes of the variant name in the header.
pub const NAME_LEN: usize = 16;
/// The largest board the format holds.
pub const MAX_BOARD: u8 = 13;
/// The smallest board the format holds.
pub const MIN_BOARD: u8 = 5;
/// Words of a [`TaflBoard`]'s bit sets (169 squares of 13×13 in 3 × 64 bits).
const WORDS: usize = 3;

/// Bytes of the squares of a record on a board of side `size`: `⌈2 size² / 8⌉`.
pub const fn squares_len(size: u8) -> usize {
    (2 * size as usize * size as usize).div_ceil(8)
}

/// Bytes of a record on a board of side `size`.
pub const fn record_len(size: u8) -> usize {
    squares_len(size) + 7
}

/// A tafl board as three sets of squares (attackers, defenders, the king), any size up to
/// 13×13: what a training position needs of the board, without the rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct TaflBoard {
    /// Squares along a side.
    pub size: u8,
    /// Per piece kind (attacker, defender, king), square `i` is bit `i % 64` of word `i / 64`.
    pub pieces: [[u64; WORDS]; 3],
}

impl TaflBoard {
    /// An empty board of side `size` (at most 13).
    pub fn empty(size: u8) -> TaflBoard {
        debug_assert!(size <= MAX_BOARD);
        TaflBoard {
            size,
            pieces: [[0; WORDS]; 3],
        }
    }

    /// The board of `pos` (a board of at most 13×13).
    pub fn from_position<B: Bitboard>(pos: &Position<B>) -> TaflBoard {
        let mut b = TaflBoard::empty(pos.rules().size);
        for (k, set) in [pos.attackers(), pos.defenders(), pos.king()]
            .into_iter()
            .enumerate()
        {
            for sq in set.squares() {
                b.put(k, sq);
            }
        }
        b
    }

    /// Puts a piece of kind index `kind` (0 attacker, 1 defender, 2 king) on `sq`.
    #[inline]
    pub fn put(&mut self, kind: usize, sq: Square) {
        self.pieces[kind][sq as usize / 64] |= 1 << (sq % 64);
    }

    /// The kind index of the piece on `sq`, if any.
    #[inline]
    pub fn kind_at(&self, sq: Square) -> Option<usize> {
        (0..3).find(|&k| self.pieces[k][sq as usize / 64] >> (sq % 64) & 1 != 0)
    }

    /// The squares of the pieces of kind index `kind`, lowest first.
    pub fn squares(&self, kind: usize) -> impl Iterator<Item = Square> + '_ {
        self.pieces[kind].iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let b = rest.trailing_zeros();
                    rest &= rest - 1;
                    (w * 64) as Square + b as Square
                })
            })
        })
    }

    /// Pieces on the board (the king included).
    pub fn piece_count(&self) -> u32 {
        self.pieces.iter().flatten().map(|w| w.count_ones()).sum()
    }

    /// The board's image under the square permutation `perm` (one of
    /// [`super::nnue::symmetries`]).
    pub fn permuted(&self, perm: &[Square]) -> TaflBoard {
        let mut out = TaflBoard::empty(self.size);
        for k in 0..3 {
            for sq in self.squares(k) {
                out.put(k, perm[sq as usize]);
            }
        }
        out
    }

    /// The placement field of a FEN (rules.md, "Position strings"): ranks from the top, `t`,
    /// `T`, `K`, digits for runs of empty squares.
    pub fn placement(&self) -> String {
        let n = self.size as Square;
        let mut s = String::new();
        for rank in (0..n).rev() {
            let mut empty = 0;
            for file in 0..n {
                match self.kind_at(rank * n + file) {
                    None => empty += 1,
                    Some(k) => {
                        if empty > 0 {
                            s += &empty.to_string();
                            empty = 0;
                        }
                        s.push(['t', 'T', 'K'][k]);
                    }
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s
    }
}

/// One training position: the board, side to move, clocks, search score and the game's result.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TaflRecord {
    /// The board before the move.
    pub board: TaflBoard,
    /// The side to move (attackers: [`Side::First`]).
    pub side: Side,
    /// Plies since the last capture (the FEN's clock field).
    pub clock: u16,
    /// The fullmove number, 1 or more.
    pub fullmove: u16,
    /// The search score, centipawns, from the side to move's view.
    pub score: i16,
    /// The game's final result, from the side to move's view.
    pub result: Wdl,
}

/// Why a packed tafl file, header or record could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum TaflPackError {
    /// The file does not start with [`MAGIC`].
    #[error("not a packed tafl position file (no SKALDTFL header)")]
    BadMagic,
    /// The header names a version this build does not read.
    #[error("packed tafl position file version {0}; this build reads version {VERSION}")]
    BadVersion(u16),
    /// The header's board size or record length is wrong, or its variant name is not ASCII.
    #[error("bad packed tafl file header: {0}")]
    BadHeader(String),
    /// The file ends inside the header or a record.
    #[error("packed tafl position file ends {0} bytes into a record (or the header)")]
    Truncated(usize),
    /// A record's bytes are not a valid board (the reason follows).
    #[error("bad packed tafl position: {0}")]
    BadRecord(&'static str),
    /// A position the format cannot hold (a board above 13×13, a clock or move number above
    /// 65 535, a score outside `i16`, a board of another size than the file's).
    #[error("cannot pack the position: {0}")]
    Unencodable(&'static str),
    /// Reading or writing failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// What a file's header says: the board size and the variant.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TaflHeader {
    /// Squares along a side.
    pub size: u8,
    /// The variant's protocol name.
    pub variant: String,
}

impl TaflHeader {
    /// The header's bytes.
    ///
    /// # Errors
    /// [`TaflPackError::Unencodable`] for a board outside 5 to 13 or a variant name of more
    /// than 16 bytes or not ASCII.
    pub fn to_bytes(&self) -> Result<[u8; HEADER_LEN], TaflPackError> {
        if !(MIN_BOARD..=MAX_BOARD).contains(&self.size) {
            return Err(TaflPackError::Unencodable("a board above 13x13"));
        }
        if self.variant.len() > NAME_LEN || !self.variant.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(TaflPackError::Unencodable(
                "a variant name of more than 16 ASCII letters",
            ));
        }
        let mut h = [0; HEADER_LEN];
        h[..8].copy_from_slice(&MAGIC);
        h[8..10].copy_from_slice(&VERSION.to_le_bytes());
        h[10..12].copy_from_slice(&(record_len(self.size) as u16).to_le_bytes());
        h[12..14].copy_from_slice(&(self.size as u16).to_le_bytes());
        h[16..16 + self.variant.len()].copy_from_slice(self.variant.as_bytes());
        Ok(h)
    }

    /// Reads and checks a header.
    ///
    /// # Errors
    /// [`TaflPackError::BadMagic`], [`TaflPackError::BadVersion`] or
    /// [`TaflPackError::BadHeader`].
    pub fn from_bytes(h: &[u8; HEADER_LEN]) -> Result<TaflHeader, TaflPackError> {
        if !has_magic(h) {
            return Err(TaflPackError::BadMagic);
        }
        let u16_at = |i: usize| u16::from_le_bytes([h[i], h[i + 1]]);
        if u16_at(8) != VERSION {
            return Err(TaflPackError::BadVersion(u16_at(8)));
        }
        let size = u16_at(12);
        if !(MIN_BOARD as u16..=MAX_BOARD as u16).contains(&size) {
            return Err(TaflPackError::BadHeader(format!(
                "board size {size}, expected 5 to 13"
            )));
        }
        let size = size as u8;
        if u16_at(10) as usize != record_len(size) {
            return Err(TaflPackError::BadHeader(format!(
                "{}-byte records, a {size}x{size} board has {}",
                u16_at(10),
                record_len(size)
            )));
        }
        let name = &h[16..];
        let len = name.iter().position(|&b| b == 0).unwrap_or(NAME_LEN);
        if u16_at(14) != 0
            || !name[..len].iter().all(|b| b.is_ascii_graphic())
            || name[len..].iter().any(|&b| b != 0)
        {
            return Err(TaflPackError::BadHeader(
                "a reserved field is set or the variant name is not NUL-padded ASCII".into(),
            ));
        }
        Ok(TaflHeader {
            size,
            variant: String::from_utf8_lossy(&name[..len]).into_owned(),
        })
    }
}

/// `true` when `bytes` start with [`MAGIC`] (a packed tafl file, of whatever version).
pub fn has_magic(bytes: &[u8]) -> bool {
    bytes.starts_with(&MAGIC)
}

impl TaflRecord {
    /// The record of `pos` with its search score and result (side to move's view).
    ///
    /// # Errors
    /// [`TaflPackError::Unencodable`] for a board above 13×13, or a clock or move number above
    /// 65 535.
    pub fn from_position<B: Bitboard>(
        pos: &Position<B>,
        score: i16,
        result: Wdl,
    ) -> Result<TaflRecord, TaflPackError> {
        if pos.rules().size > MAX_BOARD {
            return Err(TaflPackError::Unencodable("a board above 13x13"));
        }
        let too_big = |_| TaflPackError::Unencodable("a clock or move number above 65535");
        Ok(TaflRecord {
            board: TaflBoard::from_position(pos),
            side: pos.side_to_move(),
            clock: u16::try_from(pos.halfmove_clock()).map_err(too_big)?,
            fullmove: u16::try_from(pos.fullmove_number()).map_err(too_big)?,
            score,
            result,
        })
    }

    /// The position's FEN (rules.md): placement, side to move, clock, move number.
    pub fn fen(&self) -> String {
        let side = match self.side {
            Side::First => 'a',
            Side::Second => 'd',
        };
        format!(
            "{} {side} {} {}",
            self.board.placement(),
            self.clock,
            self.fullmove
        )
    }

    /// The position under `rules` (whose board must be the record's size).
    ///
    /// # Errors
    /// The FEN's error when the board does not stand under these rules (a piece where it may
    /// not stand, another board size).
    pub fn to_position<B: Bitboard>(
        &self,
        rules: &'static Rules<B>,
    ) -> Result<Position<B>, crate::game::ParseError> {
        Position::from_fen(rules, &self.fen())
    }

    /// The record's bytes ([`record_len`] of its board).
    pub fn encode(&self) -> Vec<u8> {
        let size = self.board.size;
        let n = size as usize * size as usize;
        let mut out = vec![0u8; record_len(size)];
        for (k, code) in [(0, 1u8), (1, 2), (2, 3)] {
            for sq in self.board.squares(k) {
                let bit = 2 * sq as usize;
                if (sq as usize) < n {
                    out[bit / 8] |= code << (bit % 8);
                }
            }
        }
        let s = squares_len(size);
        out[s] = (self.side == Side::Second) as u8 | self.result.code() << 1;
        out[s + 1..s + 3].copy_from_slice(&self.clock.to_le_bytes());
        out[s + 3..s + 5].copy_from_slice(&self.fullmove.to_le_bytes());
        out[s + 5..s + 7].copy_from_slice(&self.score.to_le_bytes());
        out
    }

    /// Reads a record of a board of side `size` from its bytes ([`record_len`] of them).
    ///
    /// # Errors
    /// [`TaflPackError::BadRecord`] naming the field: bits after the last square, no king or
    /// two, a reserved bit, result 3, a fullmove number of 0.
    pub fn decode(size: u8, bytes: &[u8]) -> Result<TaflRecord, TaflPackError> {
        debug_assert_eq!(bytes.len(), record_len(size));
        let n = size as usize * size as usize;
        let mut board = TaflBoard::empty(size);
        let s = squares_len(size);
        for (i, &byte) in bytes[..s].iter().enumerate() {
            for j in 0..4 {
                let code = byte >> (2 * j) & 3;
                if code == 0 {
                    continue;
                }
                let sq = 4 * i + j;
                if sq >= n {
                    return Err(TaflPackError::BadRecord(
                        "bits after the last square are set",
                    ));
                }
                board.put(code as usize - 1, sq as Square);
            }
        }
        if board.pieces[Piece::King.index()]
            .iter()
            .map(|w| w.count_ones())
            .sum::<u32>()
            != 1
        {
            return Err(TaflPackError::BadRecord("not exactly one king"));
        }
        let flags = bytes[s];
        if flags >> 3 != 0 {
            return Err(TaflPackError::BadRecord(
                "reserved bits of the flags are set",
            ));
        }
        let side = if flags & 1 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let result =
            Wdl::from_code(flags >> 1 & 3).ok_or(TaflPackError::BadRecord("result code 3"))?;
        let fullmove = u16::from_le_bytes([bytes[s + 3], bytes[s + 4]]);
        if fullmove == 0 {
            return Err(TaflPackError::BadRecord("fullmove number 0"));
        }
        Ok(TaflRecord {
            board,
            side,
            clock: u16::from_le_bytes([bytes[s + 1], bytes[s + 2]]),
            fullmove,
            score: i16::from_le_bytes([bytes[s + 5], bytes[s + 6]]),
            result,
        })
    }
}

/// Writes a packed tafl file: the header on creation, then one record per
/// [`TaflWriter::write`]. Give it a buffered writer; call [`TaflWriter::into_inner`] at the end.
pub struct TaflWriter<W: Write> {
    inner: W,
    size: u8,
}

impl<W: Write> TaflWriter<W> {
    /// Writes the header of `header` to `inner`.
    ///
    /// # Errors
    /// [`TaflHeader::to_bytes`]'s errors or [`TaflPackError::Io`].
    pub fn new(mut inner: W, header: &TaflHeader) -> Result<Self, TaflPackError> {
        inner.write_all(&header.to_bytes()?)?;
        Ok(TaflWriter {
            inner,
            size: header.size,
        })
    }

    /// Writes one record.
    ///
    /// # Errors
    /// [`TaflPackError::Unencodable`] for a record of another board size than the file's
    /// (nothing is written), or [`TaflPackError::Io`].
    pub fn write(&mut self, rec: &TaflRecord) -> Result<(), TaflPackError> {
        if rec.board.size != self.size {
            return Err(TaflPackError::Unencodable(
                "a board of another size than the file's",
            ));
        }
        self.inner.write_all(&rec.encode())?;
        Ok(())
    }

    /// Flushes and returns the inner writer.
    ///
    /// # Errors
    /// [`TaflPackError::Io`] when flushing fails.
    pub fn into_inner(mut self) -> Result<W, TaflPackError> {
        self.inner.flush()?;
        Ok(self.inner)
    }
}

/// Reads a packed tafl file record by record: an iterator of records, each `Ok` or the error
/// that ends the file (a bad record, a truncated file, a read error); nothing after an error.
pub struct TaflReader<R: Read> {
    inner: R,
    header: TaflHeader,
    buf: Vec<u8>,
    failed: bool,
}

impl<R: Read> TaflReader<R> {
    /// Reads and checks the header from `inner`.
    ///
    /// # Errors
    /// [`TaflHeader::from_bytes`]'s errors, [`TaflPackError::Truncated`] when `inner` is shorter
    /// than the header, [`TaflPackError::Io`].
    pub fn new(mut inner: R) -> Result<Self, TaflPackError> {
        let mut h = [0; HEADER_LEN];
        let n = read_full(&mut inner, &mut h)?;
        if n < HEADER_LEN {
            if !MAGIC.starts_with(&h[..n.min(MAGIC.len())]) {
                return Err(TaflPackError::BadMagic);
            }
            return Err(TaflPackError::Truncated(n));
        }
        let header = TaflHeader::from_bytes(&h)?;
        Ok(TaflReader {
            inner,
            buf: vec![0; record_len(header.size)],
            header,
            failed: false,
        })
    }

    /// The file's header.
    pub fn header(&self) -> &TaflHeader {
        &self.header
    }
}

impl<R: Read> Iterator for TaflReader<R> {
    type Item = Result<TaflRecord, TaflPackError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let item = match read_full(&mut self.inner, &mut self.buf) {
            Ok(0) => return None,
            Ok(n) if n < self.buf.len() => Err(TaflPackError::Truncated(n)),
            Ok(_) => TaflRecord::decode(self.header.size, &self.buf),
            Err(e) => Err(e.into()),
        };
        self.failed = item.is_err();
        Some(item)
    }
}

/// Reads until `buf` is full or the input ends; the number of bytes read.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
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

/// Runs `f` on the position `fen` under the rules of the tafl preset named `variant` (a
/// protocol name: `brandubh`, `tablut`, `tawlbwrdd`, `copenhagen`, `copenhagen13`, `ashton`,
/// `copenhagen7`).
fn with_preset<T>(
    variant: &str,
    fen: &str,
    f: impl PositionVisitor<Output = T>,
) -> Result<T, crate::game::ParseError> {
    use super::position as p;
    match variant {
        "brandubh" => Ok(f.visit(&p::brandubh().with_fen(fen)?)),
        "tablut" => Ok(f.visit(&p::tablut().with_fen(fen)?)),
        "tawlbwrdd" => Ok(f.visit(&p::tawlbwrdd().with_fen(fen)?)),
        "copenhagen" => Ok(f.visit(&p::copenhagen().with_fen(fen)?)),
        "copenhagen13" => Ok(f.visit(&p::copenhagen13().with_fen(fen)?)),
        "ashton" => Ok(f.visit(&p::ashton().with_fen(fen)?)),
        "copenhagen7" => Ok(f.visit(&p::copenhagen7().with_fen(fen)?)),
        _ => Err(crate::game::ParseError::new(format!(
            "no tafl preset named '{variant}'"
        ))),
    }
}

/// Code generic over the tafl bitboard, for [`with_preset`].
trait PositionVisitor {
    type Output;
    fn visit<B: Bitboard>(self, pos: &Position<B>) -> Self::Output;
}

/// The board and side to move of `fen` under the rules of the tafl preset named `variant` (a
/// protocol name: `brandubh`, `tablut`, `tawlbwrdd`, `copenhagen`, `copenhagen13`, `ashton`,
/// `copenhagen7`): for readers of text training data, whose lines name no variant.
///
/// # Errors
/// An unknown variant name, or the FEN's error under those rules.
pub fn board_of_fen(
    variant: &str,
    fen: &str,
) -> Result<(TaflBoard, Side), crate::game::ParseError> {
    struct V;
    impl PositionVisitor for V {
        type Output = (TaflBoard, Side);
        fn visit<B: Bitboard>(self, pos: &Position<B>) -> (TaflBoard, Side) {
            (TaflBoard::from_position(pos), pos.side_to_move())
        }
    }
    with_preset(variant, fen, V)
}

/// The board, side to move and the king's reach ([`super::nnue::king_reach`], as a
/// [`TaflBoard`]'s bit set) of `fen` under the rules of the tafl preset named `variant`: for a
/// trainer of networks with the king's reach among their inputs.
///
/// # Errors
/// As [`board_of_fen`].
pub fn reach_of_fen(
    variant: &str,
    fen: &str,
) -> Result<(TaflBoard, Side, [u64; WORDS]), crate::game::ParseError> {
    struct V;
    impl PositionVisitor for V {
        type Output = (TaflBoard, Side, [u64; WORDS]);
        fn visit<B: Bitboard>(self, pos: &Position<B>) -> Self::Output {
            let mut reach = TaflBoard::empty(pos.rules().size);
            for sq in super::nnue::king_reach(pos).squares() {
                reach.put(0, sq);
            }
            (
                TaflBoard::from_position(pos),
                pos.side_to_move(),
                reach.pieces[0],
            )
        }
    }
    with_preset(variant, fen, V)
}

/// The record of `fen` (under the rules of the tafl preset named `variant`, as
/// [`board_of_fen`]) with its search score and result.
///
/// # Errors
/// As [`board_of_fen`], or the position cannot be packed (a clock above 65 535).
pub fn record_of_fen(
    variant: &str,
    fen: &str,
    score: i16,
    result: Wdl,
) -> Result<TaflRecord, crate::game::ParseError> {
    struct V(i16, Wdl);
    impl PositionVisitor for V {
        type Output = Result<TaflRecord, TaflPackError>;
        fn visit<B: Bitboard>(self, pos: &Position<B>) -> Self::Output {
            TaflRecord::from_position(pos, self.0, self.1)
        }
    }
    with_preset(variant, fen, V(score, result))?
        .map_err(|e| crate::game::ParseError::new(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn record(fen: &str, score: i16, result: Wdl) -> TaflRecord {
        let pos = super::super::copenhagen().with_fen(fen).unwrap();
        TaflRecord::from_position(&pos, score, result).unwrap()
    }

    /// Records written and read back are the same positions, for every preset's board size.
    #[test]
    fn records_round_trip_on_every_board() {
        let starts: Vec<(String, String)> = ["brandubh", "tablut", "copenhagen", "copenhagen13"]
            .iter()
            .map(|v| {
                let fen = match *v {
                    "brandubh" => super::super::brandubh().fen(),
                    "tablut" => super::super::tablut().fen(),
                    "copenhagen" => super::super::copenhagen().fen(),
                    _ => super::super::copenhagen13().fen(),
                };
                (v.to_string(), fen)
            })
            .collect();
        for (variant, fen) in starts {
            let (board, side) = board_of_fen(&variant, &fen).unwrap();
            let header = TaflHeader {
                size: board.size,
                variant: variant.clone(),
            };
            let rec = TaflRecord {
                board,
                side,
                clock: 3,
                fullmove: 7,
                score: -123,
                result: Wdl::Win,
            };
            let mut w = TaflWriter::new(Vec::new(), &header).unwrap();
            w.write(&rec).unwrap();
            w.write(&TaflRecord {
                side: Side::Second,
                result: Wdl::Draw,
                ..rec
            })
            .unwrap();
            let bytes = w.into_inner().unwrap();
            assert_eq!(bytes.len(), HEADER_LEN + 2 * record_len(board.size));
            let mut r = TaflReader::new(&bytes[..]).unwrap();
            assert_eq!(r.header(), &header);
            let back: Vec<TaflRecord> = r.by_ref().map(Result::unwrap).collect();
            assert_eq!(back[0], rec);
            assert_eq!(back[1].side, Side::Second);
            assert_eq!(back[1].result, Wdl::Draw);
            // The FEN read back is the start position's with the record's clocks and side.
            let fields: Vec<&str> = fen.split(' ').collect();
            assert_eq!(
                rec.fen(),
                format!("{} {} 3 7", fields[0], fields[1]),
                "{variant}"
            );
        }
    }

    /// Damaged files and records are errors naming what is wrong, never panics.
    #[test]
    fn bad_files_are_refused() {
        let rec = record(
            "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a 0 1",
            10,
            Wdl::Loss,
        );
        let header = TaflHeader {
            size: 11,
            variant: "copenhagen".into(),
        };
        let mut w = TaflWriter::new(Vec::new(), &header).unwrap();
        w.write(&rec).unwrap();
        let bytes = w.into_inner().unwrap();
        let read =
            |b: &[u8]| -> Result<Vec<TaflRecord>, TaflPackError> { TaflReader::new(b)?.collect() };
        assert_eq!(read(&bytes).unwrap(), vec![rec]);
        assert!(matches!(
            read(&bytes[..5]),
            Err(TaflPackError::Truncated(5))
        ));
        assert!(matches!(
            read(&bytes[..bytes.len() - 1]),
            Err(TaflPackError::Truncated(37))
        ));
        let patched = |at: usize, v: u8| {
            let mut b = bytes.clone();
            b[at] = v;
            read(&b)
        };
        assert!(matches!(patched(0, b'X'), Err(TaflPackError::BadMagic)));
        assert!(matches!(patched(8, 2), Err(TaflPackError::BadVersion(2))));
        assert!(matches!(patched(10, 40), Err(TaflPackError::BadHeader(_))));
        assert!(matches!(patched(12, 14), Err(TaflPackError::BadHeader(_))));
        let s = HEADER_LEN + squares_len(11);
        assert!(matches!(patched(s, 6), Err(TaflPackError::BadRecord(_))));
        assert!(matches!(patched(s, 8), Err(TaflPackError::BadRecord(_))));
        // Square 121's bits (beyond the 11×11 board) set.
        assert!(matches!(
            patched(HEADER_LEN + 30, 0b0100),
            Err(TaflPackError::BadRecord(_))
        ));
        // No king: the king's square emptied.
        let mut no_king = rec;
        no_king.board.pieces[2] = [0; 3];
        assert!(matches!(
            TaflRecord::decode(11, &no_king.encode()),
            Err(TaflPackError::BadRecord("not exactly one king"))
        ));
        // A record of another board size than the file's is not written.
        let small = TaflRecord {
            board: TaflBoard::from_position(&super::super::brandubh()),
            ..rec
        };
        let mut w = TaflWriter::new(Vec::new(), &header).unwrap();
        assert!(matches!(
            w.write(&small),
            Err(TaflPackError::Unencodable(_))
        ));
        assert!(board_of_fen("chess", "8/8 w").is_err());
    }
}
