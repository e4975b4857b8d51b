//! The shared transposition table: a lock-free hash table of search results keyed by Zobrist
//! hashes, shared by all search threads (Lazy SMP).
//!
//! Each entry is two `AtomicU64` words written and read with relaxed ordering: `data` and
//! `key ^ data` (the "XOR trick" of Hyatt's Crafty, also used by Viridithas and Stockfish-style
//! engines). A read whose two words come from different writes fails the key check and is a miss,
//! never a wrong hit, so torn reads are harmless. The move stored is still checked for legality by
//! the search before it is played.

use std::alloc::{self, Layout};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};

/// Default size in MiB (the UCI `Hash` option's default).
pub const DEFAULT_HASH_MIB: usize = 16;
/// Largest size accepted by [`TranspositionTable::new`], in MiB.
pub const MAX_HASH_MIB: usize = 65536;

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true value is at least the score (a fail-high).
    Lower,
    /// The true value is at most the score (a fail-low).
    Upper,
    /// The score is exact.
    Exact,
}

/// A decoded table entry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// The best or refutation move, packed by `Game::encode_move`; 0 for none.
    pub mv: u16,
    /// The score, in the table's convention (mate scores relative to the node, see the search).
    pub score: i16,
    /// The static evaluation of the position, in centipawns.
    pub eval: i16,
    /// The remaining depth the score was searched to, in plies.
    pub depth: u8,
    /// How the score bounds the true value.
    pub bound: Bound,
}

struct Slot {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

/// Tables at least this large, MiB, are cleared in parallel ([`TranspositionTable::clear`]).
pub const PARALLEL_CLEAR_MIB: usize = 64;

/// A fixed-size, lock-free transposition table. Size is set in MiB; each entry takes 16 bytes.
pub struct TranspositionTable {
    slots: NonNull<Slot>,
    len: usize,
    age: AtomicU64,
}

// SAFETY: the table is a block of atomics; all access goes through atomic operations.
unsafe impl Send for TranspositionTable {}
// SAFETY: as above.
unsafe impl Sync for TranspositionTable {}

/// The table could not be given the requested size.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The size is outside 1 ..= [`MAX_HASH_MIB`].
    #[error("hash size {0} MiB is outside 1..={MAX_HASH_MIB}")]
    OutOfRange(usize),
    /// The memory could not be allocated.
    #[error("cannot allocate {0} MiB for the hash table")]
    AllocationFailed(usize),
}

impl TranspositionTable {
    /// A zeroed table of `mib` MiB. Errors if `mib` is out of range or the memory cannot be had.
    pub fn new(mib: usize) -> Result<Self, TableError> {
        if !(1..=MAX_HASH_MIB).contains(&mib) {
            return Err(TableError::OutOfRange(mib));
        }
        let len = mib * (1 << 20) / std::mem::size_of::<Slot>();
        let layout = Layout::array::<Slot>(len).map_err(|_| TableError::AllocationFailed(mib))?;
        // SAFETY: the layout has nonzero size; zeroed memory is a valid array of atomics.
        let ptr = unsafe { alloc::alloc_zeroed(layout) } as *mut Slot;
        let slots = NonNull::new(ptr).ok_or(TableError::AllocationFailed(mib))?;
        Ok(TranspositionTable {
            slots,
            len,
            age: AtomicU64::new(0),
        })
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` if the table has no entries (never, for a table made by `new`).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn slots(&self) -> &[Slot] {
        // SAFETY: `slots` points to `len` initialised (zeroed) slots owned by `self`.
        unsafe { std::slice::from_raw_parts(self.slots.as_ptr(), self.len) }
    }

    /// Empties the table (for `ucinewgame`). A table of [`PARALLEL_CLEAR_MIB`] or more is
    /// cleared in chunks on rayon's global pool (one thread per core): clearing gigabytes on one
    /// thread takes seconds.
    pub fn clear(&self) {
        let clear = |slots: &[Slot]| {
            for slot in slots {
                slot.key_xor_data.store(0, Ordering::Relaxed);
                slot.data.store(0, Ordering::Relaxed);
            }
        };
        if self.len * std::mem::size_of::<Slot>() >= PARALLEL_CLEAR_MIB << 20 {
            use rayon::prelude::*;
            self.slots().par_chunks(1 << 16).for_each(clear);
        } else {
            clear(self.slots());
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: older entries become preferred for replacement.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn current_age(&self) -> u64 {
        self.age.load(Ordering::Relaxed) & 0x3f
    }

    #[inline]
    fn slot(&self, hash: u64) -> &Slot {
        let index = ((hash as u128 * self.len as u128) >> 64) as usize;
        &self.slots()[index]
    }

    /// Looks `hash` up; `None` on a miss (including a torn entry).
    #[inline]
    pub fn probe(&self, hash: u64) -> Option<Entry> {
        let slot = self.slot(hash);
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.key_xor_data.load(Ordering::Relaxed);
        if data == 0 || check ^ data != hash {
            return None;
        }
        Some(unpack(data))
    }

    /// Stores a result for `hash`, replacing the old entry unless that one is for the same
    /// position or is from this search and deeper.
    #[inline]
    pub fn store(&self, hash: u64, entry: Entry) {
        let slot = self.slot(hash);
        let old_data = slot.data.load(Ordering::Relaxed);
        let old_key = slot.key_xor_data.load(Ordering::Relaxed) ^ old_data;
        let age = self.current_age();
        let mut entry = entry;
        if old_data != 0 {
            let old = unpack(old_data);
            let old_age = (old_data >> 58) & 0x3f;
            if old_key == hash {
                if entry.mv == 0 {
                    entry.mv = old.mv;
                }
                if entry.bound != Bound::Exact && entry.depth + 2 < old.depth && old_age == age {
                    return;
                }
            } else if old_age == age && entry.bound != Bound::Exact && entry.depth + 3 < old.depth {
                return;
            }
        }
        let data = pack(entry, age);
        slot.data.store(data, Ordering::Relaxed);
        slot.key_xor_data.store(hash ^ data, Ordering::Relaxed);
    }

    /// How full the table is, in permill, from a sample of the first 1000 entries written in
    /// the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.current_age();
        let sample = self.slots().iter().take(1000);
        let n = sample.len().max(1);
        let used = sample
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && (d >> 58) & 0x3f == age
            })
            .count();
        (used * 1000 / n) as u32
    }
}

impl Drop for TranspositionTable {
    fn drop(&mut self) {
        let layout = Layout::array::<Slot>(self.len).expect("layout was valid at allocation");
        // SAFETY: allocated in `new` with this layout.
        unsafe { alloc::dealloc(self.slots.as_ptr() as *mut u8, layout) }
    }
}

// data layout: mv 16 | score 16 | eval 16 | depth 8 | bound 2 | valid 1 | (pad 3) | age 6 (top)
fn pack(e: Entry, age: u64) -> u64 {
    let bound = match e.bound {
        Bound::Lower => 1u64,
        Bound::Upper => 2,
        Bound::Exact => 3,
    };
    (e.mv as u64)
        | ((e.score as u16 as u64) << 16)
        | ((e.eval as u16 as u64) << 32)
        | ((e.depth as u64) << 48)
        | (bound << 56)
        | (age << 58)
}

fn unpack(d: u64) -> Entry {
    Entry {
        mv: d as u16,
        score: (d >> 16) as u16 as i16,
        eval: (d >> 32) as u16 as i16,
        depth: (d >> 48) as u8,
        bound: match (d >> 56) & 3 {
            1 => Bound::Lower,
            2 => Bound::Upper,
            _ => Bound::Exact,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_then_probe_round_trips() {
        let tt = TranspositionTable::new(1).unwrap();
        let e = Entry {
            mv: 0x1234,
            score: -29_950,
            eval: 17,
            depth: 9,
            bound: Bound::Lower,
        };
        tt.store(0xdead_beef_0000_0001, e);
        assert_eq!(tt.probe(0xdead_beef_0000_0001), Some(e));
        assert_eq!(tt.probe(0xdead_beef_0000_0002), None);
        tt.clear();
        assert_eq!(tt.probe(0xdead_beef_0000_0001), None);
    }

    #[test]
    fn a_large_table_clears_in_parallel_too() {
        let tt = TranspositionTable::new(PARALLEL_CLEAR_MIB).unwrap();
        let e = Entry {
            mv: 1,
            score: 5,
            eval: 5,
            depth: 3,
            bound: Bound::Exact,
        };
        let keys: Vec<u64> = (1..1000u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        for &k in &keys {
            tt.store(k, e);
        }
        assert!(keys.iter().all(|&k| tt.probe(k) == Some(e)));
        tt.clear();
        assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
    }

    #[test]
    fn sizes_out_of_range_are_errors() {
        assert_eq!(
            TranspositionTable::new(0).err(),
            Some(TableError::OutOfRange(0))
        );
        assert!(TranspositionTable::new(MAX_HASH_MIB + 1).is_err());
    }
}
