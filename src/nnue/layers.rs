//! The quantised layers of a network ([`Layers`]): the first layer's rows, the output heads,
//! and the integer forward pass from accumulators to centipawns. The layout and arithmetic are
//! in the module docs of [`crate::nnue`].

use super::kernels::{add_slice, crelu_dot_slice, fused_rows, fused_rows_fixed, screlu_dot_slice};
use super::{ACCUMULATOR_ROOM, Activation, HIDDEN_MULTIPLE, QA, QB, Reader};

/// The most output heads a network may have (two sides to move × 8 output buckets).
pub const MAX_HEADS: usize = 16;

/// A quantised network's layers (see the [module docs](crate::nnue)): `W1` (`inputs ×
/// hidden`, feature-major) and `b1` in units of `1/QA`, per head `W2` (`perspectives × hidden`,
/// perspective 0's weights first) in units of `1/QB` and `b2` in `1/(QA × QB)`, and the scale
/// (centipawns per unit of the output logit).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Layers {
    inputs: usize,
    hidden: usize,
    perspectives: usize,
    activation: Activation,
    w1: Vec<i16>,
    b1: Vec<i16>,
    w2: Vec<i16>,
    b2: Vec<i32>,
    scale: i32,
}

impl Layers {
    /// Whether a network may have `hidden` neurons per perspective and `perspectives` of them:
    /// 1 or 2 perspectives, `hidden` a positive multiple of [`HIDDEN_MULTIPLE`] (32), all of
    /// them within the [`super::Accumulator`]'s room of [`ACCUMULATOR_ROOM`] values.
    pub fn valid_shape(hidden: usize, perspectives: usize) -> bool {
        (1..=2).contains(&perspectives)
            && hidden > 0
            && hidden.is_multiple_of(HIDDEN_MULTIPLE)
            && hidden * perspectives <= ACCUMULATOR_ROOM
    }

    /// Layers from their quantised parts: `w1` feature-major (`inputs × hidden`), `b1`
    /// (`hidden`), `w2` (`perspectives × hidden` per head, head 0 first), `b2` (one per head:
    /// its length is the number of heads, 1 to [`MAX_HEADS`]) and `scale`. `None` if a size is
    /// wrong ([`Layers::valid_shape`]), `inputs` is 0 or `scale < 1`.
    #[allow(clippy::too_many_arguments)]
    pub fn from_parts(
        inputs: usize,
        hidden: usize,
        perspectives: usize,
        activation: Activation,
        w1: &[i16],
        b1: &[i16],
        w2: &[i16],
        b2: &[i32],
        scale: i32,
    ) -> Option<Layers> {
        let heads = b2.len();
        if !Layers::valid_shape(hidden, perspectives)
            || inputs == 0
            || !(1..=MAX_HEADS).contains(&heads)
            || w1.len() != inputs * hidden
            || b1.len() != hidden
            || w2.len() != perspectives * hidden * heads
            || scale < 1
        {
            return None;
        }
        Some(Layers {
            inputs,
            hidden,
            perspectives,
            activation,
            w1: w1.to_vec(),
            b1: b1.to_vec(),
            w2: w2.to_vec(),
            b2: b2.to_vec(),
            scale,
        })
    }

    /// The element-wise mean of networks of one shape (inputs, hidden size, perspectives,
    /// heads, activation and scale all equal): each quantised weight and bias the mean of the
    /// networks' values, rounded to the nearest integer (halves away from zero). Averaging the
    /// weights of networks fine-tuned from one another (a "model soup", Wortsman et al. 2022;
    /// stochastic weight averaging, Izmailov et al. 2018) gives one network of the same cost.
    /// `None` for an empty list or networks of different shapes.
    pub fn average(nets: &[&Layers]) -> Option<Layers> {
        let first = *nets.first()?;
        let shape = |n: &Layers| {
            (
                n.inputs,
                n.hidden,
                n.perspectives,
                n.activation,
                n.scale,
                n.heads(),
            )
        };
        if nets.iter().any(|n| shape(n) != shape(first)) {
            return None;
        }
        // The mean over the networks of one value each network has, rounded.
        let mean = |value: &dyn Fn(&Layers) -> i64| {
            (nets.iter().map(|n| value(n)).sum::<i64>() as f64 / nets.len() as f64).round()
        };
        let mean16 = |part: fn(&Layers) -> &[i16]| -> Vec<i16> {
            (0..part(first).len())
                .map(|i| mean(&|n| part(n)[i] as i64) as i16)
                .collect()
        };
        let b2 = (0..first.heads())
            .map(|i| mean(&|n| n.b2[i] as i64) as i32)
            .collect();
        Some(Layers {
            inputs: first.inputs,
            hidden: first.hidden,
            perspectives: first.perspectives,
            activation: first.activation,
            w1: mean16(|n| &n.w1),
            b1: mean16(|n| &n.b1),
            w2: mean16(|n| &n.w2),
            b2,
            scale: first.scale,
        })
    }

    /// Input features (rows of `W1`).
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// Hidden neurons per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Perspectives (accumulators) the output layer reads, 1 or 2.
    pub fn perspectives(&self) -> usize {
        self.perspectives
    }

    /// Values of an [`super::Accumulator`] in use: `perspectives × hidden`.
    pub fn used(&self) -> usize {
        self.perspectives * self.hidden
    }

    /// Output heads, 1 to [`MAX_HEADS`].
    pub fn heads(&self) -> usize {
        self.b2.len()
    }

    /// The hidden layer's activation.
    pub fn activation(&self) -> Activation {
        self.activation
    }

    /// Centipawns per unit of the output logit.
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// The quantised parts, as [`Layers::from_parts`] takes them: `w1` (`inputs × hidden`, units
    /// of `1/QA`), `b1` (`1/QA`), `w2` (`perspectives × hidden` per head, `1/QB`) and `b2` (one
    /// per head, `1/(QA × QB)`). For a trainer that starts from a network.
    pub fn parts(&self) -> (&[i16], &[i16], &[i16], &[i32]) {
        (&self.w1, &self.b1, &self.w2, &self.b2)
    }

    /// The first layer's row of feature `f` (`hidden` values).
    #[inline(always)]
    pub fn row(&self, f: usize) -> &[i16] {
        &self.w1[f * self.hidden..(f + 1) * self.hidden]
    }

    /// `b1`.
    #[inline(always)]
    pub fn bias(&self) -> &[i16] {
        &self.b1
    }

    /// Sets `out` (`hidden` values) to `b1` plus the rows of `features`.
    pub fn refresh(&self, out: &mut [i16], features: impl IntoIterator<Item = usize>) {
        out.copy_from_slice(&self.b1);
        for f in features {
            add_slice(out, self.row(f));
        }
    }

    /// `out = base + Σ adds − Σ subs` over `hidden` values (wrapping), in one pass: an
    /// accumulator updated by the rows of the features a move turned on and off. The common
    /// sizes (128, 256, 512) are compiled for their size.
    #[inline(always)]
    pub fn update(&self, out: &mut [i16], base: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
        match self.hidden {
            128 => fused_rows_fixed::<128>(out, base, adds, subs),
            256 => fused_rows_fixed::<256>(out, base, adds, subs),
            512 => fused_rows_fixed::<512>(out, base, adds, subs),
            _ => fused_rows(out, base, adds, subs),
        }
    }

    /// The output of head `head` from the accumulators `halves` (one per perspective, in the
    /// order of the head's weights), in centipawns. Integer arithmetic only (module docs).
    #[inline]
    pub fn output(&self, halves: &[&[i16]], head: usize) -> i32 {
        let h = self.hidden;
        let width = self.perspectives * h;
        let w2 = &self.w2[width * head..width * (head + 1)];
        let out: i64 = match self.activation {
            Activation::CReLU => halves
                .iter()
                .zip(w2.chunks_exact(h))
                .fold(0i32, |sum, (a, w)| sum.wrapping_add(crelu_dot_slice(a, w)))
                as i64,
            // In units of 1/(QA² × QB): divided by QA to the output's 1/(QA × QB).
            Activation::SCReLU => {
                halves
                    .iter()
                    .zip(w2.chunks_exact(h))
                    .map(|(a, w)| screlu_dot_slice(a, w))
                    .sum::<i64>()
                    / QA as i64
            }
        };
        ((out + self.b2[head] as i64) * self.scale as i64 / (QA * QB) as i64) as i32
    }

    /// Bytes of the weights of layers of these sizes in a file: `W1`, `b1`, `W2` as `i16`,
    /// `b2` as `i32`.
    pub const fn weights_len(
        inputs: usize,
        hidden: usize,
        perspectives: usize,
        heads: usize,
    ) -> usize {
        2 * (inputs * hidden + hidden + perspectives * hidden * heads) + 4 * heads
    }

    /// Appends the weights to a file's bytes, little-endian: `W1` feature-major, `b1`, `W2` head
    /// by head (`i16` each), then `b2` (`i32` each).
    pub fn write_weights(&self, out: &mut Vec<u8>) {
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.b2 {
            out.extend_from_slice(&b.to_le_bytes());
        }
    }

    /// Reads weights written by [`Layers::write_weights`] from `r`, which has been checked to
    /// hold [`Layers::weights_len`] more bytes, for a shape [`Layers::valid_shape`] accepts.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn read_weights(
        r: &mut Reader<'_>,
        inputs: usize,
        hidden: usize,
        perspectives: usize,
        heads: usize,
        activation: Activation,
        scale: i32,
    ) -> Layers {
        let mut i16s = |n: usize| -> Vec<i16> { (0..n).map(|_| r.i16()).collect() };
        let w1 = i16s(inputs * hidden);
        let b1 = i16s(hidden);
        let w2 = i16s(perspectives * hidden * heads);
        let b2 = (0..heads).map(|_| r.i32()).collect();
        Layers {
            inputs,
            hidden,
            perspectives,
            activation,
            w1,
            b1,
            w2,
            b2,
            scale,
        }
    }
}
