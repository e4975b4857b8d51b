//! An NNUE-style network evaluation for Ataxx: the network file, the accumulator and the
//! integer forward pass, and [`AtaxxEval`], the search's Ataxx evaluation
//! ([`crate::eval::Evaluator`]).
//!
//! # In the search
//! The search evaluates Ataxx with a network unless the engine option `EvalFile` says `hand`:
//! by default the network built into the binary ([`embedded`], the file `nets/`
//! [`EMBEDDED_NAME`]), or one read from the file `EvalFile` names. Each search thread keeps one
//! [`Accumulator`] per ply: computed from scratch at the root ([`Accumulator::refresh`]), then
//! copied from the parent and updated for the move at each child ([`Accumulator::apply_move`]).
//! Every Ataxx node is evaluated (there is no quiescence move, and the static evaluation goes
//! to the transposition table), so the update is made eagerly when the child is made.
//!
//! # Architecture
//! `(147 → HIDDEN)×2 → 1`, the usual "perspective" NNUE:
//!
//! - **Features** ([`features`]): 147 binary inputs seen from one side, the *perspective* `p`:
//!   index `sq` for a stone of `p` on square `sq` ("own"), `49 + sq` for a stone of the other
//!   side ("their"), `98 + sq` for a blocked square (square index `rank * 7 + file`, `a1` = 0).
//!   No mirroring: Ataxx is the same game for both colours.
//! - **Accumulators** ([`Accumulator`]): one hidden vector of [`HIDDEN`] values per perspective
//!   (`x`'s and `o`'s), each `b1 + Σ W1[f]` over that perspective's active features. Both use the
//!   same weights `W1`, `b1`. A move changes a few features (a clone adds a stone and flips up to
//!   8; a jump also removes one), so the accumulators are updated by adding and subtracting rows
//!   of `W1` instead of recomputed ([`Accumulator::apply_move`]).
//! - **Output** ([`Network::evaluate`]): clipped ReLU `clamp(a, 0, 1)` on both accumulators,
//!   the side to move's first, then one linear neuron:
//!   `y = W2 · [crelu(a_stm), crelu(a_other)] + b2`. `y` is a logit: the trainer fits `sigmoid(y)` to the expected game result, so
//!   centipawns are `y × scale` with the file's `scale` (the trainer's `K`, centipawns per unit
//!   of logit, which matches the search scores it was trained on).
//!
//! # Quantisation
//! `W1`, `b1` are stored as `round(w × QA)` in `i16` ([`QA`] = 255), so the accumulator is in
//! units of `1/QA` and the clipped ReLU is `clamp(a, 0, QA)`. `W2` is stored as `round(w × QB)`
//! in `i16` ([`QB`] = 2048), `b2` as `round(b × QA × QB)` in `i32`. Then
//! `y = (Σ crelu(a_i) × W2_i + b2) / (QA × QB)`. `QB` is large because `y` is multiplied by a
//! scale of about 1000 centipawns: with `QB` = 64 the rounding of `W2` alone moved evaluations
//! by about 26 cp; with 2048 it is below 1 cp (the rounding of `W1` leaves a few cp). The
//! trainer keeps every float weight within ±1.98 so that an accumulator of at most 49 active
//! features and the bias cannot leave `i16` (50 × 505 < 32767) and the output sum cannot leave
//! `i32` (256 × 255 × 4055 < 2³¹); the arithmetic wraps rather than panics on files that break
//! this.
//!
//! # File format (version 1), all little-endian
//! | offset | type | field |
//! |---|---|---|
//! | 0 | 4 bytes | magic `SKNN` |
//! | 4 | `u16` | format version, 1 |
//! | 6 | `u16` | inputs, 147 ([`NUM_FEATURES`]) |
//! | 8 | `u16` | hidden size per perspective, [`HIDDEN`] |
//! | 10 | `u16` | `QA`, 255 |
//! | 12 | `u16` | `QB`, 2048 |
//! | 14 | `u16` | reserved, 0 |
//! | 16 | `i32` | `scale`: centipawns per unit of output logit, ≥ 1 |
//! | 20 | `i16` × inputs × hidden | `W1`, feature-major (the `hidden` weights of feature 0 first) |
//! | … | `i16` × hidden | `b1` |
//! | … | `i16` × 2 × hidden | `W2`: the weights of the side to move's accumulator, then the other's |
//! | … | `i32` | `b2` |
//!
//! Nothing follows; a file of any other length is refused. With `HIDDEN` = 128 a file is
//! 38 424 bytes.

use std::path::Path;
use std::sync::{Arc, LazyLock};

use super::bitboard::{Bitboard, NUM_SQUARES, SINGLE, Squares};
use super::mv::Move;
use super::position::Position;
use crate::game::Side;

/// Number of input features per perspective: own stones, their stones, blocked squares.
pub const NUM_FEATURES: usize = 3 * NUM_SQUARES;
/// Hidden neurons per perspective (the accumulator's length).
pub const HIDDEN: usize = 128;
/// Quantisation factor of the first layer (and the clipped ReLU's ceiling).
pub const QA: i32 = 255;
/// Quantisation factor of the output weights.
pub const QB: i32 = 2048;
/// The file's first four bytes.
pub const MAGIC: [u8; 4] = *b"SKNN";
/// The file format version this module reads and writes.
pub const VERSION: u16 = 1;
/// Length of the header, bytes.
pub const HEADER_LEN: usize = 20;
/// Length of a whole network file, bytes.
pub const FILE_LEN: usize = HEADER_LEN + 2 * (NUM_FEATURES * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

/// Offset of "their" stones in the feature index.
const THEIR: usize = NUM_SQUARES;
/// Offset of blocked squares in the feature index.
const BLOCKED: usize = 2 * NUM_SQUARES;

/// The active features of `pos` seen from `perspective` (indices `0..NUM_FEATURES`, see the
/// module docs): own stones, then their stones, then blocked squares, each lowest square first.
pub fn features(pos: &Position, perspective: Side) -> impl Iterator<Item = usize> {
    let own = pos.stones(perspective);
    let their = pos.stones(perspective.opponent());
    Squares(own)
        .map(|s| s.index())
        .chain(Squares(their).map(|s| THEIR + s.index()))
        .chain(Squares(pos.blocked()).map(|s| BLOCKED + s.index()))
}

/// Why a network file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum NetworkError {
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
    #[error("not a skald network file (magic {0:?}, expected \"SKNN\")")]
    BadMagic([u8; 4]),
    /// A format version this build does not read.
    #[error("network file format version {0}, this build reads version {VERSION}")]
    Version(u16),
    /// A network of another shape than this build's architecture.
    #[error(
        "network has {inputs} inputs and {hidden} hidden neurons, this build needs {NUM_FEATURES} \
         and {HIDDEN}"
    )]
    Shape {
        /// Inputs in the file.
        inputs: u16,
        /// Hidden size in the file.
        hidden: u16,
    },
    /// Other quantisation factors than [`QA`] and [`QB`].
    #[error("network quantisation QA={qa} QB={qb}, this build needs QA={QA} QB={QB}")]
    Quantisation {
        /// `QA` in the file.
        qa: u16,
        /// `QB` in the file.
        qb: u16,
    },
    /// A scale below 1 centipawn per logit unit.
    #[error("network scale {0} is not a positive number of centipawns")]
    Scale(i32),
}

/// A quantised network (see the module docs): `W1` and `b1` in units of `1/QA`, `W2` in units
/// of `1/QB`, `b2` in units of `1/(QA × QB)`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Network {
    w1: Box<[[i16; HIDDEN]; NUM_FEATURES]>,
    b1: [i16; HIDDEN],
    w2: [[i16; HIDDEN]; 2],
    b2: i32,
    scale: i32,
    /// Per square, `W1[own sq] − W1[their sq]` (wrapping): what a stone on `sq` changing colour
    /// adds to its new owner's accumulator and takes from the other's. Derived from `w1`.
    flip: Box<[[i16; HIDDEN]; NUM_SQUARES]>,
}

/// A little-endian reader over a byte slice that has been checked to be long enough.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0; N];
        out.copy_from_slice(&self.bytes[self.pos..self.pos + N]);
        self.pos += N;
        out
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.take())
    }
    fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }
    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }
}

impl Network {
    /// A network from its quantised parts: `w1` feature-major (`NUM_FEATURES × HIDDEN`), `b1`
    /// (`HIDDEN`), `w2` (`2 × HIDDEN`, the side to move's half first), `b2`, and `scale`
    /// (centipawns per logit unit). `None` if a length is wrong or `scale < 1`.
    pub fn from_parts(w1: &[i16], b1: &[i16], w2: &[i16], b2: i32, scale: i32) -> Option<Network> {
        if w1.len() != NUM_FEATURES * HIDDEN
            || b1.len() != HIDDEN
            || w2.len() != 2 * HIDDEN
            || scale < 1
        {
            return None;
        }
        let mut net = Network::zeroed(scale);
        for (row, chunk) in net.w1.iter_mut().zip(w1.chunks_exact(HIDDEN)) {
            row.copy_from_slice(chunk);
        }
        net.b1.copy_from_slice(b1);
        net.w2[0].copy_from_slice(&w2[..HIDDEN]);
        net.w2[1].copy_from_slice(&w2[HIDDEN..]);
        net.b2 = b2;
        net.derive_flip_rows();
        Some(net)
    }

    fn zeroed(scale: i32) -> Network {
        Network {
            w1: Box::new([[0; HIDDEN]; NUM_FEATURES]),
            b1: [0; HIDDEN],
            w2: [[0; HIDDEN]; 2],
            b2: 0,
            scale,
            flip: Box::new([[0; HIDDEN]; NUM_SQUARES]),
        }
    }

    /// Fills `flip` from `w1`.
    fn derive_flip_rows(&mut self) {
        for (sq, row) in self.flip.iter_mut().enumerate() {
            for (i, d) in row.iter_mut().enumerate() {
                *d = self.w1[sq][i].wrapping_sub(self.w1[THEIR + sq][i]);
            }
        }
    }

    /// Reads a network from the bytes of a file (format in the module docs).
    ///
    /// # Errors
    /// A [`NetworkError`] for a truncated or overlong file, a wrong magic, version, shape or
    /// quantisation, or a scale below 1. Never panics.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < HEADER_LEN {
            return Err(NetworkError::Truncated {
                expected: FILE_LEN,
                got: bytes.len(),
            });
        }
        let mut r = Reader { bytes, pos: 0 };
        let magic: [u8; 4] = r.take();
        if magic != MAGIC {
            return Err(NetworkError::BadMagic(magic));
        }
        let version = r.u16();
        if version != VERSION {
            return Err(NetworkError::Version(version));
        }
        let (inputs, hidden, qa, qb, _reserved) = (r.u16(), r.u16(), r.u16(), r.u16(), r.u16());
        if inputs as usize != NUM_FEATURES || hidden as usize != HIDDEN {
            return Err(NetworkError::Shape { inputs, hidden });
        }
        if qa as i32 != QA || qb as i32 != QB {
            return Err(NetworkError::Quantisation { qa, qb });
        }
        let scale = r.i32();
        if scale < 1 {
            return Err(NetworkError::Scale(scale));
        }
        match bytes.len() {
            n if n < FILE_LEN => {
                return Err(NetworkError::Truncated {
                    expected: FILE_LEN,
                    got: n,
                });
            }
            n if n > FILE_LEN => {
                return Err(NetworkError::TrailingBytes {
                    extra: n - FILE_LEN,
                });
            }
            _ => {}
        }
        let mut net = Network::zeroed(scale);
        for row in net.w1.iter_mut() {
            for w in row.iter_mut() {
                *w = r.i16();
            }
        }
        for b in net.b1.iter_mut() {
            *b = r.i16();
        }
        for half in net.w2.iter_mut() {
            for w in half.iter_mut() {
                *w = r.i16();
            }
        }
        net.b2 = r.i32();
        net.derive_flip_rows();
        Ok(net)
    }

    /// Reads a network file: a regular file, of which at most [`FILE_LEN`] + 1 bytes are read
    /// (enough for [`Network::from_bytes`] to see a wrong length), so that a device, a FIFO or
    /// a huge file is refused at once instead of blocking or filling memory.
    ///
    /// # Errors
    /// [`NetworkError::Io`] if the file cannot be read or is not a regular file, else as
    /// [`Network::from_bytes`].
    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        use std::io::Read;
        let io = |source| NetworkError::Io {
            path: path.display().to_string(),
            source,
        };
        // Looked at before opening: opening a FIFO for reading waits for a writer.
        if !std::fs::metadata(path).map_err(io)?.is_file() {
            return Err(io(std::io::Error::other("not a regular file")));
        }
        let file = std::fs::File::open(path).map_err(io)?;
        let mut bytes = Vec::with_capacity(FILE_LEN + 1);
        file.take(FILE_LEN as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        Network::from_bytes(&bytes)
    }

    /// The network as the bytes of a file (format in the module docs), [`FILE_LEN`] long.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_LEN);
        out.extend_from_slice(&MAGIC);
        for v in [
            VERSION,
            NUM_FEATURES as u16,
            HIDDEN as u16,
            QA as u16,
            QB as u16,
            0,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.scale.to_le_bytes());
        for w in self.w1.iter().flatten().chain(self.b1.iter()) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for w in self.w2.iter().flatten() {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        out
    }

    /// Centipawns per unit of the output logit.
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// The evaluation of the position whose accumulators are `acc`, in centipawns from the view
    /// of `side_to_move`. Integer arithmetic only; the two loops over `HIDDEN` vectorise.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, side_to_move: Side) -> i32 {
        let us = &acc.v[side_to_move.index()];
        let them = &acc.v[side_to_move.index() ^ 1];
        let sum = crelu_dot(us, &self.w2[0]).wrapping_add(crelu_dot(them, &self.w2[1]));
        let out = sum.wrapping_add(self.b2) as i64;
        (out * self.scale as i64 / (QA * QB) as i64) as i32
    }

    /// The evaluation of `pos` from scratch (a fresh accumulator), centipawns from the side to
    /// move's view.
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        self.evaluate(&Accumulator::new(self, pos), pos.side)
    }
}

/// `Σ clamp(a_i, 0, QA) × w_i` in `i32` (wrapping).
#[inline(always)]
fn crelu_dot(acc: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
    let mut sum = 0i32;
    for (&a, &w) in acc.iter().zip(w.iter()) {
        let c = a.clamp(0, QA as i16) as i32;
        sum = sum.wrapping_add(c.wrapping_mul(w as i32));
    }
    sum
}

/// `out = base + add − sub ± Σ flips` (wrapping; `+` when `flips_add`), in chunks that stay in
/// vector registers.
#[inline(always)]
fn fused(
    out: &mut [i16; HIDDEN],
    base: &[i16; HIDDEN],
    add: &[i16; HIDDEN],
    sub: Option<&[i16; HIDDEN]>,
    flips: &[&[i16; HIDDEN]],
    flips_add: bool,
) {
    const CHUNK: usize = 32;
    for c in (0..HIDDEN).step_by(CHUNK) {
        let mut r = [0i16; CHUNK];
        for i in 0..CHUNK {
            r[i] = base[c + i].wrapping_add(add[c + i]);
        }
        if let Some(sub) = sub {
            for i in 0..CHUNK {
                r[i] = r[i].wrapping_sub(sub[c + i]);
            }
        }
        for row in flips {
            if flips_add {
                for i in 0..CHUNK {
                    r[i] = r[i].wrapping_add(row[c + i]);
                }
            } else {
                for i in 0..CHUNK {
                    r[i] = r[i].wrapping_sub(row[c + i]);
                }
            }
        }
        out[c..c + CHUNK].copy_from_slice(&r);
    }
}

#[inline(always)]
fn add_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, &w) in acc.iter_mut().zip(row.iter()) {
        *a = a.wrapping_add(w);
    }
}

#[inline(always)]
fn sub_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, &w) in acc.iter_mut().zip(row.iter()) {
        *a = a.wrapping_sub(w);
    }
}

/// The file name under `nets/` of the network built into the binary (the default evaluation).
/// Changing the network built in is a change of this one line.
macro_rules! embedded_file_name {
    () => {
        "ataxx-v2.nnue"
    };
}

/// The file name under `nets/` of the network built into the binary ([`embedded`]).
pub const EMBEDDED_NAME: &str = embedded_file_name!();

static EMBEDDED_BYTES: &[u8] = include_bytes!(concat!("../../nets/", embedded_file_name!()));

static EMBEDDED: LazyLock<Arc<Network>> = LazyLock::new(|| {
    Arc::new(
        Network::from_bytes(EMBEDDED_BYTES)
            .expect("the network built into the binary is a valid network file (a test checks)"),
    )
});

/// The network built into the binary (`nets/` [`EMBEDDED_NAME`]), read on first use.
pub fn embedded() -> &'static Arc<Network> {
    &EMBEDDED
}

/// Ataxx's evaluation for the search ([`crate::eval::Evaluator`]): a network with an
/// [`Accumulator`] per ply, or the hand-written evaluation (whose accumulator is left alone).
#[derive(Clone, Debug)]
pub enum AtaxxEval {
    /// The hand-written evaluation ([`crate::game::Game::evaluate`]).
    Hand,
    /// A network; `name` says which for people (the embedded one's file name or a path).
    Network {
        /// The network.
        net: Arc<Network>,
        /// Its file name or path.
        name: String,
    },
}

impl AtaxxEval {
    /// The network built into the binary.
    pub fn embedded() -> AtaxxEval {
        AtaxxEval::Network {
            net: Arc::clone(embedded()),
            name: format!("{EMBEDDED_NAME} (built in)"),
        }
    }

    /// The evaluator an [`crate::eval::EvalChoice`] selects: the embedded network by default
    /// (and for a network of another game family, which is not this game's), a network read by
    /// [`load_network`], or the hand-written evaluation.
    pub fn for_choice(choice: &crate::eval::EvalChoice) -> AtaxxEval {
        use crate::eval::EvalChoice;
        match choice {
            EvalChoice::Hand => AtaxxEval::Hand,
            EvalChoice::Network { name, .. } => match choice.network::<Network>() {
                Some(net) => AtaxxEval::Network {
                    net,
                    name: name.clone(),
                },
                None => AtaxxEval::embedded(),
            },
            EvalChoice::Default => AtaxxEval::embedded(),
        }
    }
}

/// Ataxx's network reader for the engine option `EvalFile` ([`crate::eval::NetworkLoader`]):
/// [`Network::load`], the network held opaque for [`crate::eval::EvalChoice`].
///
/// # Errors
/// As [`Network::load`] (the message is the [`NetworkError`]'s).
pub fn load_network(path: &Path) -> Result<crate::eval::AnyNetwork, crate::eval::NetworkLoadError> {
    Ok(Arc::new(Network::load(path)?))
}

impl crate::eval::Evaluator<Position, Move> for AtaxxEval {
    type Accumulator = Accumulator;

    #[inline]
    fn refresh(&self, pos: &Position, acc: &mut Accumulator) {
        if let AtaxxEval::Network { net, .. } = self {
            acc.refresh(net, pos);
        }
    }

    #[inline]
    fn update(
        &self,
        parent: &Position,
        mv: Move,
        _child: &Position,
        parent_acc: &Accumulator,
        child_acc: &mut Accumulator,
    ) {
        if let AtaxxEval::Network { net, .. } = self {
            child_acc.apply_move_from(parent_acc, net, parent, mv);
        }
    }

    #[inline]
    fn evaluate(&self, pos: &Position, acc: &Accumulator) -> i32 {
        match self {
            AtaxxEval::Hand => super::eval::evaluate(pos),
            AtaxxEval::Network { net, .. } => net.evaluate(acc, pos.side),
        }
    }

    fn terms(&self, pos: &Position) -> Vec<(&'static str, i32)> {
        match self {
            AtaxxEval::Hand => super::eval::terms(pos).to_vec(),
            AtaxxEval::Network { net, .. } => vec![("network", net.evaluate_position(pos))],
        }
    }

    fn describe(&self) -> String {
        match self {
            AtaxxEval::Hand => "hand-written".to_string(),
            AtaxxEval::Network { name, .. } => format!("network {name}"),
        }
    }
}

/// The hidden layer's values before activation for both perspectives: `v[0]` seen from `x`,
/// `v[1]` from `o` (units of `1/QA`). 512 bytes, aligned for vector loads; `Copy`, so a search
/// can keep one per ply.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Accumulator {
    v: [[i16; HIDDEN]; 2],
}

/// All zeros (not any position's accumulator: [`Accumulator::refresh`] makes one).
impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            v: [[0; HIDDEN]; 2],
        }
    }
}

impl Accumulator {
    /// The accumulators of `pos` computed from scratch.
    pub fn new(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator {
            v: [[0; HIDDEN]; 2],
        };
        acc.refresh(net, pos);
        acc
    }

    /// Recomputes both accumulators from scratch: `b1` plus the rows of every active feature.
    pub fn refresh(&mut self, net: &Network, pos: &Position) {
        for side in [Side::First, Side::Second] {
            let v = &mut self.v[side.index()];
            *v = net.b1;
            for f in features(pos, side) {
                add_row(v, &net.w1[f]);
            }
        }
    }

    /// Updates both accumulators for stones of `colour` that appeared on `added` and vanished
    /// from `removed` (blocked squares never change).
    #[inline]
    fn change(&mut self, net: &Network, colour: Side, added: Bitboard, removed: Bitboard) {
        let c = colour.index();
        for sq in Squares(added) {
            add_row(&mut self.v[c], &net.w1[sq.index()]);
            add_row(&mut self.v[c ^ 1], &net.w1[THEIR + sq.index()]);
        }
        for sq in Squares(removed) {
            sub_row(&mut self.v[c], &net.w1[sq.index()]);
            sub_row(&mut self.v[c ^ 1], &net.w1[THEIR + sq.index()]);
        }
    }

    /// Updates the accumulators of `before` to those of `after` from the stones that differ
    /// (any two positions with the same blocked squares; for a move that is 1 to 18 rows of
    /// `W1` per perspective).
    pub fn update(&mut self, net: &Network, before: &Position, after: &Position) {
        debug_assert_eq!(before.blocked(), after.blocked());
        for colour in [Side::First, Side::Second] {
            let (b, a) = (before.stones(colour), after.stones(colour));
            self.change(net, colour, a & !b, b & !a);
        }
    }

    /// Sets `self` to the accumulators after the legal move `mv` of `pos`'s side to move, given
    /// `parent`, the accumulators of `pos`: the same as copying `parent` and
    /// [`Accumulator::apply_move`], in one pass over each perspective's values (the parent read
    /// once, the child written once, the changed rows added in registers), and a flipped stone
    /// is one row (`W1[own] − W1[their]`) instead of two.
    #[inline]
    pub fn apply_move_from(
        &mut self,
        parent: &Accumulator,
        net: &Network,
        pos: &Position,
        mv: Move,
    ) {
        let us = pos.side;
        let (to, from) = match mv {
            Move::Pass => {
                *self = *parent;
                return;
            }
            Move::Clone { to } => (to.index(), None),
            Move::Jump { from, to } => (to.index(), Some(from.index())),
        };
        let flips = SINGLE[to] & pos.stones(us.opponent());
        // The mover's perspective gains an own stone on `to` (and loses one on `from`), the
        // other's a "their" stone; each flip adds `flip[sq]` to the mover's, subtracts it from
        // the other's.
        let mut flip_rows: [&[i16; HIDDEN]; 8] = [&net.b1; 8];
        let mut n = 0;
        for sq in Squares(flips) {
            flip_rows[n] = &net.flip[sq.index()];
            n += 1;
        }
        let flip_rows = &flip_rows[..n];
        let u = us.index();
        fused(
            &mut self.v[u],
            &parent.v[u],
            &net.w1[to],
            from.map(|f| &net.w1[f]),
            flip_rows,
            true,
        );
        fused(
            &mut self.v[u ^ 1],
            &parent.v[u ^ 1],
            &net.w1[THEIR + to],
            from.map(|f| &net.w1[THEIR + f]),
            flip_rows,
            false,
        );
    }

    /// Updates the accumulators of `pos` for the legal move `mv` of its side to move, without
    /// making the move: the mover gains `to` and the flipped stones (and loses `from` for a
    /// jump), the opponent loses the flipped stones; a pass changes nothing.
    pub fn apply_move(&mut self, net: &Network, pos: &Position, mv: Move) {
        let us = pos.side;
        let (to, from) = match mv {
            Move::Pass => return,
            Move::Clone { to } => (to, 0),
            Move::Jump { from, to } => (to, from.bit()),
        };
        let flips = SINGLE[to.index()] & pos.stones(us.opponent());
        self.change(net, us, to.bit() | flips, from);
        self.change(net, us.opponent(), 0, flips);
    }
}

#[cfg(test)]
mod tests {
    /// A device or a directory is refused at once (`/dev/zero` used to be read without end).
    #[test]
    fn only_regular_files_are_read_as_networks() {
        for path in ["/dev/zero", "/dev/null", "/"] {
            let p = std::path::Path::new(path);
            if p.exists() {
                assert!(
                    matches!(super::Network::load(p), Err(super::NetworkError::Io { .. })),
                    "{path}"
                );
            }
        }
    }

    use super::*;
    use crate::rng::SeededRng;

    /// A network with random weights in ±505 (the trainer's bound), random scale.
    pub(crate) fn random_network(seed: u64) -> Network {
        let mut rng = SeededRng::new(seed);
        let mut w = |n: usize, m: i16| -> Vec<i16> {
            (0..n)
                .map(|_| (rng.below(2 * m as u64 + 1) as i64 - m as i64) as i16)
                .collect()
        };
        let w1 = w(NUM_FEATURES * HIDDEN, 505);
        let b1 = w(HIDDEN, 505);
        let w2 = w(2 * HIDDEN, 127);
        Network::from_parts(&w1, &b1, &w2, 12345, 300).unwrap()
    }

    /// The forward pass written out plainly, from the feature lists.
    fn reference_eval(net: &Network, pos: &Position) -> i32 {
        let hidden = |p: Side| -> Vec<i32> {
            let mut h: Vec<i32> = net.b1.iter().map(|&b| b as i32).collect();
            for f in features(pos, p) {
                for (x, &w) in h.iter_mut().zip(net.w1[f].iter()) {
                    *x += w as i32;
                }
            }
            h
        };
        let (us, them) = (hidden(pos.side), hidden(pos.side.opponent()));
        let mut sum = net.b2 as i64;
        for i in 0..HIDDEN {
            sum += us[i].clamp(0, QA) as i64 * net.w2[0][i] as i64;
            sum += them[i].clamp(0, QA) as i64 * net.w2[1][i] as i64;
        }
        (sum * net.scale as i64 / (QA * QB) as i64) as i32
    }

    fn random_games(seed: u64, mut visit: impl FnMut(&Position, Move, &Position)) {
        let mut rng = SeededRng::new(seed);
        let starts = [
            Position::start(),
            Position::from_fen("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1").unwrap(),
            Position::from_fen("x5o/1-3-1/7/3-3/7/1-3-1/o5x o 0 1").unwrap(),
        ];
        let mut moves = Vec::new();
        for game in 0..30 {
            let mut pos = starts[game % starts.len()];
            while !pos.is_game_over() {
                moves.clear();
                pos.legal_moves(&mut moves);
                let mv = moves[rng.below(moves.len() as u64) as usize];
                let mut next = pos;
                next.play(mv);
                visit(&pos, mv, &next);
                pos = next;
            }
        }
    }

    #[test]
    fn incremental_updates_equal_refresh() {
        let net = random_network(1);
        let mut count = 0;
        let mut acc_move = None::<(Position, Accumulator, Accumulator)>;
        random_games(2, |before, mv, after| {
            // Carry two accumulators along the game: one by apply_move, one by update.
            let (a, b) = match acc_move.take() {
                Some((p, a, b)) if p == *before => (a, b),
                _ => {
                    let a = Accumulator::new(&net, before);
                    (a, a)
                }
            };
            let (mut a, mut b) = (a, b);
            let mut c = Accumulator::default();
            c.apply_move_from(&a, &net, before, mv);
            a.apply_move(&net, before, mv);
            assert_eq!(c, a, "apply_move_from after {mv} from {}", before.to_fen());
            b.update(&net, before, after);
            let fresh = Accumulator::new(&net, after);
            assert_eq!(a, fresh, "apply_move after {mv} from {}", before.to_fen());
            assert_eq!(b, fresh, "update after {mv} from {}", before.to_fen());
            assert_eq!(net.evaluate(&a, after.side), reference_eval(&net, after));
            acc_move = Some((*after, a, b));
            count += 1;
        });
        assert!(count > 1000, "only {count} moves checked");
    }

    #[test]
    fn the_search_evaluator_updates_equal_refreshes() {
        use crate::eval::{EvalChoice, Evaluator};
        let random = EvalChoice::Network {
            net: Arc::new(random_network(9)),
            name: "random".into(),
        };
        for choice in [EvalChoice::Default, random, EvalChoice::Hand] {
            let eval = AtaxxEval::for_choice(&choice);
            let mut carried = None::<(Position, Accumulator)>;
            random_games(10, |before, mv, after| {
                let parent = match carried.take() {
                    Some((p, acc)) if p == *before => acc,
                    _ => {
                        let mut acc = Accumulator::default();
                        eval.refresh(before, &mut acc);
                        acc
                    }
                };
                let mut child = Accumulator::default();
                eval.update(before, mv, after, &parent, &mut child);
                let mut fresh = Accumulator::default();
                eval.refresh(after, &mut fresh);
                assert_eq!(
                    child,
                    fresh,
                    "{} after {mv} from {}",
                    eval.describe(),
                    before.to_fen()
                );
                let v = eval.evaluate(after, &child);
                assert_eq!(v, eval.evaluate_fresh(after));
                assert_eq!(v, eval.terms(after).iter().map(|t| t.1).sum::<i32>());
                carried = Some((*after, child));
            });
        }
    }

    #[test]
    fn the_embedded_network_is_read_and_used_by_default() {
        use crate::eval::{EvalChoice, Evaluator};
        let file = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/nets/",
            embedded_file_name!()
        ))
        .unwrap();
        assert_eq!(**embedded(), Network::from_bytes(&file).unwrap());
        let eval = AtaxxEval::for_choice(&EvalChoice::Default);
        assert!(eval.describe().contains(EMBEDDED_NAME));
        let pos = Position::from_fen("xx4o/xx5/7/7/7/7/o5x o 0 2").unwrap();
        assert_eq!(
            eval.evaluate_fresh(&pos),
            embedded().evaluate_position(&pos)
        );
        let hand = AtaxxEval::for_choice(&EvalChoice::Hand);
        assert_eq!(
            hand.evaluate_fresh(&pos),
            super::super::eval::evaluate(&pos)
        );
    }

    #[test]
    fn eval_file_values() {
        use crate::eval::EvalChoice;
        assert!(matches!(
            EvalChoice::from_eval_file("", load_network),
            Ok(EvalChoice::Default)
        ));
        assert!(matches!(
            EvalChoice::from_eval_file("<default>", load_network),
            Ok(EvalChoice::Default)
        ));
        assert!(matches!(
            EvalChoice::from_eval_file(" HAND ", load_network),
            Ok(EvalChoice::Hand)
        ));
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/", embedded_file_name!());
        match EvalChoice::from_eval_file(path, load_network) {
            Ok(choice @ EvalChoice::Network { .. }) => {
                assert_eq!(*choice.network::<Network>().unwrap(), **embedded());
                assert_eq!(choice.eval_file(), path);
                assert!(choice.network::<u8>().is_none());
            }
            other => panic!("{other:?}"),
        }
        let err = EvalChoice::from_eval_file("/nonexistent/x.nnue", load_network).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("cannot read network file /nonexistent/x.nnue")
        );
    }

    #[test]
    fn colour_swap_keeps_the_evaluation() {
        // Features are relative to the side to move, so swapping the colours and the side to
        // move changes nothing.
        let net = random_network(3);
        random_games(4, |_, _, pos| {
            let mut swapped = *pos;
            swapped.stones.swap(0, 1);
            swapped.side = pos.side.opponent();
            assert_eq!(net.evaluate_position(pos), net.evaluate_position(&swapped));
        });
    }

    #[test]
    fn file_round_trip_and_bad_files() {
        let net = random_network(5);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), FILE_LEN);
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        for cut in [0, 3, HEADER_LEN - 1, HEADER_LEN, FILE_LEN / 2, FILE_LEN - 1] {
            assert!(
                matches!(
                    Network::from_bytes(&bytes[..cut]),
                    Err(NetworkError::Truncated { .. } | NetworkError::BadMagic(_))
                ),
                "a file cut at {cut} bytes"
            );
        }
        let err = Network::from_bytes(&bytes[..FILE_LEN - 1]).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "network file is truncated: {} bytes, expected {FILE_LEN}",
                FILE_LEN - 1
            )
        );
        let mut long = bytes.clone();
        long.push(0);
        assert!(matches!(
            Network::from_bytes(&long),
            Err(NetworkError::TrailingBytes { extra: 1 })
        ));
        let patched = |at: usize, v: &[u8]| {
            let mut b = bytes.clone();
            b[at..at + v.len()].copy_from_slice(v);
            Network::from_bytes(&b)
        };
        assert!(matches!(
            patched(0, b"NNUE"),
            Err(NetworkError::BadMagic(_))
        ));
        assert!(matches!(patched(4, &[2, 0]), Err(NetworkError::Version(2))));
        assert!(matches!(
            patched(8, &[64, 0]),
            Err(NetworkError::Shape { .. })
        ));
        assert!(matches!(
            patched(10, &[0, 1]),
            Err(NetworkError::Quantisation { .. })
        ));
        assert!(matches!(
            patched(16, &[0, 0, 0, 0]),
            Err(NetworkError::Scale(0))
        ));
        let missing = Network::load(Path::new("/nonexistent/net.nnue")).unwrap_err();
        assert!(missing.to_string().starts_with("cannot read network file"));
    }

    /// Speed of refresh, incremental update and evaluation (run with `--ignored --nocapture`).
    #[test]
    #[ignore]
    fn speed() {
        use std::hint::black_box;
        use std::time::Instant;
        let net = random_network(7);
        let mut samples = Vec::new();
        random_games(8, |before, mv, after| samples.push((*before, mv, *after)));
        let rounds = 50;
        let n = (samples.len() * rounds) as f64;
        let mut acc = Accumulator::new(&net, &samples[0].0);
        let t = Instant::now();
        for _ in 0..rounds {
            for (_, _, after) in &samples {
                acc.refresh(&net, black_box(after));
                black_box(&acc);
            }
        }
        let refresh = t.elapsed().as_nanos() as f64 / n;
        let t = Instant::now();
        for _ in 0..rounds {
            for (before, mv, _) in &samples {
                let mut a = black_box(acc);
                a.apply_move(&net, before, *mv);
                black_box(&a);
            }
        }
        let update = t.elapsed().as_nanos() as f64 / n;
        let t = Instant::now();
        let mut child = acc;
        for _ in 0..rounds {
            for (before, mv, _) in &samples {
                child.apply_move_from(black_box(&acc), &net, before, *mv);
                black_box(&child);
            }
        }
        let fused = t.elapsed().as_nanos() as f64 / n;
        let t = Instant::now();
        let mut s = 0;
        for _ in 0..rounds {
            for (_, _, after) in &samples {
                s += net.evaluate(black_box(&acc), after.side);
            }
        }
        black_box(s);
        let eval = t.elapsed().as_nanos() as f64 / n;
        println!(
            "{} positions: refresh {refresh:.1} ns, copy + apply_move {update:.1} ns, \
             apply_move_from {fused:.1} ns, evaluate {eval:.1} ns",
            samples.len()
        );
    }
}
