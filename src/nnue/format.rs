//! The parts of the network files every family shares: the magic, a little-endian reader, a
//! capped file read, and **file format 3**, whose header names the game family and board so
//! that a network is never read as another game's.
//!
//! Every network file starts with the magic `SKNN` and a `u16` format version. Versions 1 and 2
//! are Ataxx's (square and pattern inputs, laid out in [`crate::ataxx::nnue`]); version 3 is the
//! family-naming format below, which the tafl networks use ([`crate::tafl::nnue`]).
//! [`file_family`] tells the family from the first bytes, so that one `EvalFile` reader can pass
//! a file to its family's reader.
//!
//! # File format version 3, all little-endian
//! | offset | type | field |
//! |---|---|---|
//! | 0 | 4 bytes | magic `SKNN` |
//! | 4 | `u16` | format version, 3 |
//! | 6 | `u16` | game family: [`FAMILY_ATAXX`] (1) or [`FAMILY_TAFL`] (2) |
//! | 8 | `u16` | board size: squares along a side (7 to 13 for tafl) |
//! | 10 | `u16` | feature set, the family's id (tafl: 1, pieces per square) |
//! | 12 | `u16` | inputs (rows of `W1`), as the feature set and board give them |
//! | 14 | `u16` | hidden neurons per perspective `H`, a multiple of 32 |
//! | 16 | `u16` | `QA`, 255 |
//! | 18 | `u16` | `QB`, 2048 |
//! | 20 | `u16` | activation: 0 CReLU, 1 SCReLU |
//! | 22 | `u16` | perspectives `P`, 1 or 2 (`P × H` ≤ 1024) |
//! | 24 | `u16` | side-to-move heads `S`, 1 or 2 (the family says what they mean) |
//! | 26 | `u16` | output buckets `B`, 1 to 8 |
//! | 28 | `u16` | bucket divisor: pieces on the board that make the last bucket (≥ 1) |
//! | 30 | `u16` | reserved, 0 |
//! | 32 | `i32` | `scale`: centipawns per unit of output logit, ≥ 1 |
//! | 36 | 16 bytes | the variant the network was trained on (its protocol name, ASCII, NUL-padded) |
//! | 52 | 12 bytes | reserved, 0 |
//! | 64 | `i16` × inputs × `H` | `W1`, feature-major |
//! | … | `i16` × `H` | `b1` |
//! | … | `i16` × `P × H` × `S × B` | `W2`, head by head (head `s × B + b`) |
//! | … | `i32` × `S × B` | `b2`, head by head |
//!
//! Nothing follows; a file of any other length is refused. Every field is checked; a family
//! reader checks its own (family, board, feature set, inputs) and refuses a file of another
//! family or board with an error that names both ([`FormatError`]).

use std::path::Path;

use super::layers::Layers;
use super::{Activation, QA, QB};

/// The first four bytes of every network file.
pub const MAGIC: [u8; 4] = *b"SKNN";
/// The format version of the family-naming files (format 3).
pub const VERSION_FAMILY: u16 = 3;
/// Length of a format-3 header, bytes.
pub const HEADER_LEN: usize = 64;
/// Bytes of the variant name in a format-3 header.
pub const NAME_LEN: usize = 16;
/// Family id of Ataxx (its files are versions 1 and 2; the id is kept for format 3).
pub const FAMILY_ATAXX: u16 = 1;
/// Family id of tafl.
pub const FAMILY_TAFL: u16 = 2;

/// The game family a network file is for, from its first bytes: [`FAMILY_ATAXX`] for versions 1
/// and 2, the family field of a version-3 file; `None` when the bytes are too few, the magic
/// is wrong or the version unknown (the family's reader then says which).
pub fn file_family(bytes: &[u8]) -> Option<u16> {
    if bytes.len() < 6 || bytes[..4] != MAGIC {
        return None;
    }
    match u16::from_le_bytes([bytes[4], bytes[5]]) {
        1 | 2 => Some(FAMILY_ATAXX),
        VERSION_FAMILY if bytes.len() >= 8 => Some(u16::from_le_bytes([bytes[6], bytes[7]])),
        _ => None,
    }
}

/// The name of a family id for messages (`tafl`, `Ataxx`, `family 9`).
pub fn family_name(id: u16) -> String {
    match id {
        FAMILY_ATAXX => "Ataxx".into(),
        FAMILY_TAFL => "tafl".into(),
        n => format!("family {n}"),
    }
}

/// Why a format-3 network file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// The file cannot be read.
    #[error("cannot read network file {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The system's error.
        source: std::io::Error,
    },
    /// Fewer bytes than the header or the sizes call for (a truncated file).
    #[error("network file is truncated: {got} bytes, expected {expected}")]
    Truncated {
        /// Bytes the file should have.
        expected: usize,
        /// Bytes it has.
        got: usize,
    },
    /// More bytes than the sizes call for.
    #[error("network file has {extra} bytes after the network")]
    TrailingBytes {
        /// How many.
        extra: usize,
    },
    /// The first four bytes are not `SKNN`.
    #[error("not a skald network file (it does not start with \"SKNN\")")]
    BadMagic,
    /// Another format version than 3.
    #[error("network file format version {0}, this reader reads version {VERSION_FAMILY}")]
    Version(u16),
    /// A network of another game family.
    #[error("network file is for {}, not {}", family_name(*found), family_name(*expected))]
    Family {
        /// The family in the file.
        found: u16,
        /// The family of the reader.
        expected: u16,
    },
    /// A network for another board.
    #[error("network file is for {found}x{found} boards ({variant}), not {expected}x{expected}")]
    Board {
        /// The board size in the file.
        found: u16,
        /// The board size wanted.
        expected: u16,
        /// The variant it was trained on.
        variant: String,
    },
    /// A board size the family has no network for.
    #[error("network file is for {0}x{0} boards, this build reads {1}")]
    BoardSize(u16, &'static str),
    /// A feature-set id the family does not know.
    #[error("network feature set {0}, this build knows {1}")]
    FeatureSet(u16, &'static str),
    /// An input count that does not match the feature set and board.
    #[error("network has {found} inputs, its feature set and board have {expected}")]
    Inputs {
        /// Inputs in the file.
        found: u16,
        /// Inputs the feature set gives.
        expected: usize,
    },
    /// A hidden size or perspective count the accumulator cannot hold.
    #[error(
        "network has {hidden} hidden neurons and {perspectives} perspective(s): this build \
         needs 1 or 2 perspectives of a multiple of 32 hidden neurons, 1024 values in all"
    )]
    Shape {
        /// Hidden size in the file.
        hidden: u16,
        /// Perspectives in the file.
        perspectives: u16,
    },
    /// Another number of perspectives than the family's networks have.
    #[error("network has {0} perspective(s), this family's networks have {1}")]
    Perspectives(u16, usize),
    /// An activation id this build does not know.
    #[error("network activation {0}, this build knows 0 (CReLU) and 1 (SCReLU)")]
    Activation(u16),
    /// Other quantisation factors than [`QA`] and [`QB`].
    #[error("network quantisation QA={qa} QB={qb}, this build needs QA={QA} QB={QB}")]
    Quantisation {
        /// `QA` in the file.
        qa: u16,
        /// `QB` in the file.
        qb: u16,
    },
    /// Side-to-move heads other than 1 or 2, output buckets other than 1 to 8, or a bucket
    /// divisor of 0.
    #[error(
        "network has {side_heads} side-to-move head(s), {buckets} output bucket(s) and bucket \
         divisor {divisor}: this build reads 1 or 2 heads, 1 to 8 buckets and a divisor of 1 \
         or more"
    )]
    Heads {
        /// Side-to-move heads in the file.
        side_heads: u16,
        /// Output buckets in the file.
        buckets: u16,
        /// Bucket divisor in the file.
        divisor: u16,
    },
    /// A scale below 1 centipawn per logit unit.
    #[error("network scale {0} is not a positive number of centipawns")]
    Scale(i32),
    /// A variant name that is not NUL-padded ASCII, or a reserved field that is not 0.
    #[error("network header is damaged: {0}")]
    Header(&'static str),
}

/// The header of a format-3 file (the module docs give its bytes), read and checked by
/// [`Header::read`] for the fields every family shares.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Header {
    /// The game family ([`FAMILY_ATAXX`], [`FAMILY_TAFL`]).
    pub family: u16,
    /// Squares along a side of the board.
    pub board: u16,
    /// The family's feature-set id.
    pub feature_set: u16,
    /// Inputs (rows of `W1`).
    pub inputs: u16,
    /// Hidden neurons per perspective.
    pub hidden: u16,
    /// The hidden layer's activation.
    pub activation: Activation,
    /// Perspectives, 1 or 2.
    pub perspectives: u16,
    /// Side-to-move heads, 1 or 2.
    pub side_heads: u16,
    /// Output buckets, 1 to 8.
    pub buckets: u16,
    /// Pieces on the board that make the last bucket.
    pub bucket_divisor: u16,
    /// Centipawns per unit of the output logit.
    pub scale: i32,
    /// The variant it was trained on, its protocol name (at most [`NAME_LEN`] ASCII bytes).
    pub variant: String,
}

impl Header {
    /// Output heads: side-to-move heads × buckets.
    pub fn heads(&self) -> usize {
        self.side_heads as usize * self.buckets as usize
    }

    /// Bytes of the whole file this header describes.
    pub fn file_len(&self) -> usize {
        HEADER_LEN
            + Layers::weights_len(
                self.inputs as usize,
                self.hidden as usize,
                self.perspectives as usize,
                self.heads(),
            )
    }

    /// The header's bytes ([`HEADER_LEN`]); the variant name is cut to [`NAME_LEN`] bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN);
        out.extend_from_slice(&MAGIC);
        for v in [
            VERSION_FAMILY,
            self.family,
            self.board,
            self.feature_set,
            self.inputs,
            self.hidden,
            QA as u16,
            QB as u16,
            self.activation.id(),
            self.perspectives,
            self.side_heads,
            self.buckets,
            self.bucket_divisor,
            0,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.scale.to_le_bytes());
        let mut name = [0u8; NAME_LEN];
        for (d, s) in name.iter_mut().zip(self.variant.bytes()) {
            *d = s;
        }
        out.extend_from_slice(&name);
        out.resize(HEADER_LEN, 0);
        out
    }

    /// Reads and checks the header of a format-3 file from its bytes: the magic, the version,
    /// the quantisation, the activation, the shape ([`Layers::valid_shape`]), heads, buckets,
    /// the scale, the name and the reserved fields. The family's fields are left to the
    /// family's reader, and the file's length to [`Header::file_len`].
    ///
    /// # Errors
    /// A [`FormatError`] naming the first field that is wrong; never panics.
    pub fn read(bytes: &[u8]) -> Result<Header, FormatError> {
        if bytes.len() < 6 {
            return Err(FormatError::Truncated {
                expected: HEADER_LEN,
                got: bytes.len(),
            });
        }
        let mut r = Reader::new(bytes);
        if r.take::<4>() != MAGIC {
            return Err(FormatError::BadMagic);
        }
        let version = r.u16();
        if version != VERSION_FAMILY {
            return Err(FormatError::Version(version));
        }
        if bytes.len() < HEADER_LEN {
            return Err(FormatError::Truncated {
                expected: HEADER_LEN,
                got: bytes.len(),
            });
        }
        let [
            family,
            board,
            feature_set,
            inputs,
            hidden,
            qa,
            qb,
            activation,
        ] = std::array::from_fn(|_| r.u16());
        let [perspectives, side_heads, buckets, bucket_divisor, reserved] =
            std::array::from_fn(|_| r.u16());
        let scale = r.i32();
        let name: [u8; NAME_LEN] = r.take();
        let rest: [u8; HEADER_LEN - 52] = r.take();
        if qa as i32 != QA || qb as i32 != QB {
            return Err(FormatError::Quantisation { qa, qb });
        }
        let activation =
            Activation::from_id(activation).ok_or(FormatError::Activation(activation))?;
        if !Layers::valid_shape(hidden as usize, perspectives as usize) {
            return Err(FormatError::Shape {
                hidden,
                perspectives,
            });
        }
        if !(1..=2).contains(&side_heads) || !(1..=8).contains(&buckets) || bucket_divisor == 0 {
            return Err(FormatError::Heads {
                side_heads,
                buckets,
                divisor: bucket_divisor,
            });
        }
        if scale < 1 {
            return Err(FormatError::Scale(scale));
        }
        if reserved != 0 || rest.iter().any(|&b| b != 0) {
            return Err(FormatError::Header("a reserved field is not 0"));
        }
        let len = name.iter().position(|&b| b == 0).unwrap_or(NAME_LEN);
        if !name[..len].iter().all(|b| b.is_ascii_graphic()) || name[len..].iter().any(|&b| b != 0)
        {
            return Err(FormatError::Header(
                "the variant name is not NUL-padded ASCII",
            ));
        }
        Ok(Header {
            family,
            board,
            feature_set,
            inputs,
            hidden,
            activation,
            perspectives,
            side_heads,
            buckets,
            bucket_divisor,
            scale,
            variant: String::from_utf8_lossy(&name[..len]).into_owned(),
        })
    }

    /// The layers of the file `bytes`, whose header this is, once its length is checked.
    ///
    /// # Errors
    /// [`FormatError::Truncated`] or [`FormatError::TrailingBytes`] when the file is not
    /// [`Header::file_len`] bytes long.
    pub fn read_layers(&self, bytes: &[u8]) -> Result<Layers, FormatError> {
        match bytes.len() {
            n if n < self.file_len() => {
                return Err(FormatError::Truncated {
                    expected: self.file_len(),
                    got: n,
                });
            }
            n if n > self.file_len() => {
                return Err(FormatError::TrailingBytes {
                    extra: n - self.file_len(),
                });
            }
            _ => {}
        }
        let mut r = Reader::new(&bytes[HEADER_LEN..]);
        Ok(Layers::read_weights(
            &mut r,
            self.inputs as usize,
            self.hidden as usize,
            self.perspectives as usize,
            self.heads(),
            self.activation,
            self.scale,
        ))
    }
}

/// A little-endian reader over a byte slice whose length has been checked.
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub(crate) fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, pos: 0 }
    }

    /// The next `N` bytes (the caller has checked that they are there).
    pub(crate) fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0; N];
        out.copy_from_slice(&self.bytes[self.pos..self.pos + N]);
        self.pos += N;
        out
    }

    /// The next `u16`.
    pub(crate) fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.take())
    }

    /// The next `i16`.
    pub(crate) fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }

    /// The next `i32`.
    pub(crate) fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }
}

/// At most `cap` bytes of the regular file `path`: a device, a FIFO or a directory is refused
/// at once instead of blocking, and a huge file is not read whole.
///
/// # Errors
/// The system's error, or "not a regular file".
pub fn read_capped(path: &Path, cap: usize) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    // Looked at before opening: opening a FIFO for reading waits for a writer.
    if !std::fs::metadata(path)?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(cap as u64).read_to_end(&mut bytes)?;
    Ok(bytes)
}
