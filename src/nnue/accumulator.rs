//! The accumulator: a network's hidden-layer sums before activation, one per ply of the search.

/// Values an [`Accumulator`] holds: the hidden sums of all perspectives together (2 × 512 for
/// an Ataxx pattern network of 512, one tafl accumulator of up to 1024).
pub const ACCUMULATOR_ROOM: usize = 1024;

/// The hidden layer's values before activation for every perspective of a network (units of
/// `1/QA`), room for [`ACCUMULATOR_ROOM`] values. A network of `hidden` neurons keeps
/// perspective `i` in `v[i * hidden..(i + 1) * hidden]`: the values in use are the first
/// `perspectives × hidden`, contiguous (512 bytes for two perspectives of 128), whatever the
/// room; the rest stay as they were (zero from [`Accumulator::default`]). 2 KiB, aligned for
/// vector loads; `Copy`, so a search can keep one per ply. Which positions it belongs to is the
/// family's business (Ataxx: `x`'s perspective then `o`'s; tafl: one accumulator).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub(crate) v: [i16; ACCUMULATOR_ROOM],
}

/// All zeros (not any position's accumulator: a network's refresh makes one).
impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            v: [0; ACCUMULATOR_ROOM],
        }
    }
}

impl Accumulator {
    /// The `hidden` values of perspective `i` of a network of `hidden` neurons.
    #[inline(always)]
    pub fn side(&self, i: usize, hidden: usize) -> &[i16] {
        &self.v[i * hidden..(i + 1) * hidden]
    }

    /// The `hidden` values of perspective `i` of a network of `hidden` neurons, to write.
    #[inline(always)]
    pub fn side_mut(&mut self, i: usize, hidden: usize) -> &mut [i16] {
        &mut self.v[i * hidden..(i + 1) * hidden]
    }

    /// Copies the first `used` values from `from`: those a network uses (`perspectives ×
    /// hidden`), for a pass or a null move, which leave the pieces as they were.
    #[inline(always)]
    pub fn copy_used(&mut self, from: &Accumulator, used: usize) {
        self.v[..used].copy_from_slice(&from.v[..used]);
    }
}
