//! What every game family's NNUE evaluation shares, whatever its board: the quantisation
//! ([`QA`], [`QB`]), the hidden layer's activation ([`Activation`]), the per-ply
//! [`Accumulator`], the quantised layers and their integer forward pass ([`Layers`]), the inner
//! loops over the hidden values (`kernels.rs`, written so that the compiler vectorises them), and
//! the network files' common parts (`format.rs`: the magic, a capped reader, the family-naming
//! header of file format 3, [`Header`], and [`file_family`], which tells a file's game family
//! from its first bytes).
//!
//! The *features* are each family's: Ataxx's squares and 2×2 windows ([`crate::ataxx::nnue`]),
//! tafl's attackers, defenders and king per square ([`crate::tafl::nnue`]). A family's network
//! is a feature function plus a [`Layers`]: the family computes which inputs are active, and
//! which rows change with a move; the layers add the rows, activate and give centipawns.
//!
//! # The layers
//! `(inputs → H) × P → heads`: a first layer `W1` (`inputs × H`) and `b1` (`H`) shared by the
//! `P` *perspectives* (1 or 2: one accumulator, or one per side with the same weights seen from
//! either side, as chess NNUE), each perspective's accumulator `b1 + Σ W1[f]` over its active
//! features; then the activation on each, and an output layer with one or more *heads* (output
//! buckets: per stone count, per side to move), head `k` being
//! `y = W2[k] · [act(a_0), …, act(a_{P−1})] + b2[k]`, a logit, and `y × scale` centipawns.
//!
//! # Quantisation
//! `W1`, `b1` are stored as `round(w × QA)` in `i16` ([`QA`] = 255), so an accumulator is in
//! units of `1/QA` and the clipped ReLU is `clamp(a, 0, QA)`; `W2` as `round(w × QB)` in `i16`
//! ([`QB`] = 2048), `b2` as `round(b × QA × QB)` in `i32`. CReLU's output sum is formed in
//! `i32` (wrapping), SCReLU's (`clamp(a, 0, QA)² × W2`, units of `1/(QA² × QB)`) in `i64` and
//! divided by `QA` before `b2` is added; then `cp = (sum + b2) × scale / (QA × QB)`. The trainer
//! keeps the float weights small enough for the accumulators to fit `i16` (each family's docs
//! give its bound: it depends on how many features may be active at once); the update
//! arithmetic wraps, so a file that breaks the bounds gives wrong values but no panic.

mod accumulator;
mod format;
pub(crate) mod kernels;
mod layers;

pub use accumulator::{ACCUMULATOR_ROOM, Accumulator};
pub use format::{
    FAMILY_ATAXX, FAMILY_TAFL, FormatError, HEADER_LEN, Header, MAGIC, NAME_LEN, Reader,
    VERSION_FAMILY, family_name, file_family, read_capped,
};
pub use layers::{Layers, MAX_HEADS};

/// Quantisation factor of the first layer (and the clipped ReLU's ceiling).
pub const QA: i32 = 255;
/// Quantisation factor of the output weights.
pub const QB: i32 = 2048;
/// A runtime hidden size must be a multiple of this (the kernels' chunk).
pub const HIDDEN_MULTIPLE: usize = kernels::CHUNK;

/// The activation of a network's hidden layer (a field of the file header).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Activation {
    /// Clipped ReLU, `clamp(a, 0, 1)`: file id 0.
    CReLU,
    /// Squared clipped ReLU, `clamp(a, 0, 1)²`: file id 1.
    SCReLU,
}

impl Activation {
    /// The id in the file header.
    pub fn id(self) -> u16 {
        match self {
            Activation::CReLU => 0,
            Activation::SCReLU => 1,
        }
    }

    /// The activation of a header id, `None` for an unknown one.
    pub fn from_id(id: u16) -> Option<Activation> {
        match id {
            0 => Some(Activation::CReLU),
            1 => Some(Activation::SCReLU),
            _ => None,
        }
    }
}
