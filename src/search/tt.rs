//! The shared transposition table: a lock-free hash table of search results keyed by Zobrist
//! hashes, shared by all search threads (Lazy SMP).
//!
//! Each entry is two `AtomicU64` words written and read with relaxed ordering: `data` and
//! `key ^ data` (the "XOR trick" of Hyatt's Crafty, also used by Viridithas and Stockfish-style
//! engines). A read whose two words come from different writes fails the key check and is a miss,
//! never a wrong hit, so torn reads are harmless. The move stored is still checked for legality by
//! the search before it is played.

use super::types::MATE_BOUND;
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

/// Entries per cluster: four 16-byte entries fill one 64-byte cache line.
pub const CLUSTER_SIZE: usize = 4;

/// The size of a huge page on x86-64 and most 64-bit ARM Linux systems: 2 MiB.
const HUGE_PAGE: usize = 2 << 20;

/// Asks the kernel to back `len` bytes from `ptr` with huge pages (Linux's
/// `madvise(MADV_HUGEPAGE)`, as Stockfish does for its table): a probe lands anywhere in the
/// table, and with 4 KiB pages nearly every probe of a table of some MiB also misses the
/// address-translation cache. Only advice: when the kernel has transparent huge pages off,
/// or no huge page free, the table keeps small pages. A no-op off Linux.
fn advise_huge_pages(ptr: *mut u8, len: usize) {
    #[cfg(target_os = "linux")]
    if len >= HUGE_PAGE {
        // SAFETY: `ptr..ptr + len` is one allocation of ours; `madvise` with
        // `MADV_HUGEPAGE` changes no contents, and its error (no support) is ignored.
        unsafe {
            libc::madvise(ptr.cast(), len, libc::MADV_HUGEPAGE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (ptr, len);
}

/// Writes zeros over the `len` bytes from `ptr` (one allocation of ours), in parallel chunks
/// when they are [`PARALLEL_CLEAR_MIB`] or more, as [`TranspositionTable::clear`] does: a
/// table of some GiB would otherwise take seconds on one thread.
fn zero(ptr: *mut u8, len: usize) {
    const CHUNK: usize = 1 << 20;
    if len >= PARALLEL_CLEAR_MIB << 20 {
        use rayon::prelude::*;
        let base = ptr as usize;
        (0..len.div_ceil(CHUNK)).into_par_iter().for_each(|c| {
            let start = c * CHUNK;
            // SAFETY: the chunks are disjoint and within the allocation.
            unsafe { std::ptr::write_bytes((base + start) as *mut u8, 0, CHUNK.min(len - start)) };
        });
    } else {
        // SAFETY: `ptr` holds `len` bytes.
        unsafe { std::ptr::write_bytes(ptr, 0, len) };
    }
}

/// A bucket of entries that share one cache line: a probe or a store touches one line only.
#[repr(C, align(64))]
struct Cluster {
    slots: [Slot; CLUSTER_SIZE],
}

/// The searches one age step is worth in plies of depth when an entry is chosen for
/// replacement (Stockfish's `depth8 - relative_age`).
const AGE_WEIGHT: i32 = 8;

/// Searches are numbered modulo this (the 6-bit age field of an entry).
const AGE_CYCLE: u64 = 64;

/// Tables at least this large, MiB, are cleared in parallel ([`TranspositionTable::clear`]).
pub const PARALLEL_CLEAR_MIB: usize = 64;

/// A fixed-size, lock-free transposition table. Size is set in MiB; each entry takes 16 bytes,
/// in clusters of [`CLUSTER_SIZE`] entries per 64-byte cache line. A position's hash picks its
/// cluster; within the cluster the entry with the same key is found by the key check.
///
/// Replacement (as in Stockfish): a result for a position already in the cluster goes into that
/// entry (unless it is much shallower, not exact, and the old one is from this search);
/// otherwise it replaces the entry worth least, worth being depth − 8 × searches since it was
/// written (an empty entry is worth least of all).
///
/// The table's own fields (read at every probe) are aligned to 128 bytes so that nothing
/// written elsewhere shares their cache lines.
#[repr(align(128))]
pub struct TranspositionTable {
    clusters: NonNull<Cluster>,
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
        let len = mib * (1 << 20) / std::mem::size_of::<Cluster>();
        let layout = Self::layout(len).ok_or(TableError::AllocationFailed(mib))?;
        // SAFETY: the layout has nonzero size.
        let ptr = unsafe { alloc::alloc(layout) };
        let clusters =
            NonNull::new(ptr as *mut Cluster).ok_or(TableError::AllocationFailed(mib))?;
        advise_huge_pages(ptr, layout.size());
        // Zeroed after the advice, so that the pages are first touched as huge pages; zeroed
        // memory is a valid array of atomics.
        zero(ptr, layout.size());
        Ok(TranspositionTable {
            clusters,
            len,
            age: AtomicU64::new(0),
        })
    }

    /// The table's memory layout for `len` clusters: aligned to [`HUGE_PAGE`] when it is at
    /// least that large, so that the kernel can back it with huge pages.
    fn layout(len: usize) -> Option<Layout> {
        let size = len.checked_mul(std::mem::size_of::<Cluster>())?;
        let align = if size >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<Cluster>()
        };
        Layout::from_size_align(size, align).ok()
    }

    /// The number of entries ([`CLUSTER_SIZE`] per cluster).
    pub fn len(&self) -> usize {
        self.len * CLUSTER_SIZE
    }

    /// `true` if the table has no entries (never, for a table made by `new`).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn clusters(&self) -> &[Cluster] {
        // SAFETY: `clusters` points to `len` initialised (zeroed) clusters owned by `self`.
        unsafe { std::slice::from_raw_parts(self.clusters.as_ptr(), self.len) }
    }

    /// Empties the table (for `ucinewgame`). A table of [`PARALLEL_CLEAR_MIB`] or more is
    /// cleared in chunks on rayon's global pool (one thread per core): clearing gigabytes on one
    /// thread takes seconds.
    pub fn clear(&self) {
        let clear = |clusters: &[Cluster]| {
            for slot in clusters.iter().flat_map(|c| &c.slots) {
                slot.key_xor_data.store(0, Ordering::Relaxed);
                slot.data.store(0, Ordering::Relaxed);
            }
        };
        if self.len * std::mem::size_of::<Cluster>() >= PARALLEL_CLEAR_MIB << 20 {
            use rayon::prelude::*;
            self.clusters().par_chunks(1 << 14).for_each(clear);
        } else {
            clear(self.clusters());
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: older entries become preferred for replacement.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn current_age(&self) -> u64 {
        self.age.load(Ordering::Relaxed) % AGE_CYCLE
    }

    #[inline]
    fn cluster(&self, hash: u64) -> &Cluster {
        let index = ((hash as u128 * self.len as u128) >> 64) as usize;
        &self.clusters()[index]
    }

    /// Asks the processor to bring `hash`'s cluster into the cache ahead of a [`probe`]: the
    /// search calls it as soon as a child position's hash is known, before the child's
    /// evaluation update, so that the memory latency of the probe overlaps that work. Only a
    /// hint: nothing is read or written. A no-op off x86-64.
    ///
    /// [`probe`]: TranspositionTable::probe
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let ptr = std::ptr::from_ref(self.cluster(hash)).cast::<i8>();
            // SAFETY: a prefetch never faults and changes no memory; `ptr` is in the table.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(ptr) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// Looks `hash` up; `None` on a miss (including a torn entry).
    #[inline]
    pub fn probe(&self, hash: u64) -> Option<Entry> {
        self.cluster(hash).slots.iter().find_map(|slot| {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.key_xor_data.load(Ordering::Relaxed);
            (data != 0 && check ^ data == hash).then(|| unpack(data))
        })
    }

    /// Stores a result for `hash`: into the entry of the same position if the cluster has one,
    /// else over the entry worth least (see [`TranspositionTable`]).
    #[inline]
    pub fn store(&self, hash: u64, entry: Entry) {
        let cluster = self.cluster(hash);
        let age = self.current_age();
        let mut entry = entry;
        let mut victim = &cluster.slots[0];
        let mut victim_worth = i32::MAX;
        for slot in &cluster.slots {
            let old_data = slot.data.load(Ordering::Relaxed);
            if old_data == 0 {
                if victim_worth > i32::MIN {
                    victim = slot;
                    victim_worth = i32::MIN;
                }
                continue;
            }
            let old_key = slot.key_xor_data.load(Ordering::Relaxed) ^ old_data;
            let old = unpack(old_data);
            let old_age = old_data >> 58;
            if old_key == hash {
                if entry.mv == 0 {
                    entry.mv = old.mv;
                }
                if entry.bound != Bound::Exact && entry.depth + 2 < old.depth && old_age == age {
                    return;
                }
                victim = slot;
                break;
            }
            let searches_ago = (AGE_CYCLE + age - old_age) % AGE_CYCLE;
            let worth = old.depth as i32 - AGE_WEIGHT * searches_ago as i32;
            if worth < victim_worth {
                victim = slot;
                victim_worth = worth;
            }
        }
        let data = pack(entry, age);
        victim.data.store(data, Ordering::Relaxed);
        victim.key_xor_data.store(hash ^ data, Ordering::Relaxed);
    }

    /// How full the table is, in permill: the share of entries written in the current search
    /// among those of the first 250 clusters (1000 entries; UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.current_age();
        let sample = self.clusters().iter().take(1000 / CLUSTER_SIZE);
        let n = (sample.len() * CLUSTER_SIZE).max(1);
        let used = sample
            .flat_map(|c| &c.slots)
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && d >> 58 == age
            })
            .count();
        (used * 1000 / n) as u32
    }
}

impl Drop for TranspositionTable {
    fn drop(&mut self) {
        let layout = Self::layout(self.len).expect("layout was valid at allocation");
        // SAFETY: allocated in `new` with this layout.
        unsafe { alloc::dealloc(self.clusters.as_ptr() as *mut u8, layout) }
    }
}

/// An entry as the `data` word, from the low bits up: the move (bits 0-15), the score (16-31),
/// the static evaluation (32-47), the depth (48-55), the bound (56-57: 1 lower, 2 upper,
/// 3 exact) and the search's age (58-63), 64 bits in all. A written entry is never 0, since
/// its bound is not: a `data` of 0 is an empty slot.
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

/// Mate scores are stored relative to the node, so that a stored mate found at one ply can be
/// reused at another.
pub(super) fn score_to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

/// The inverse of [`score_to_tt`]: a stored score as seen from `ply`.
pub(super) fn score_from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
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

    /// The fields fill the 64 bits as [`pack`]'s doc says, each in its own bits, and no entry
    /// packs to 0 (an empty slot).
    #[test]
    fn the_data_word_is_laid_out_as_documented() {
        let e = Entry {
            mv: 0xffff,
            score: -1,
            eval: -1,
            depth: 0xff,
            bound: Bound::Exact,
        };
        assert_eq!(pack(e, AGE_CYCLE - 1), u64::MAX);
        let fields = [
            (
                Entry {
                    mv: 0xffff,
                    ..zero()
                },
                0,
                0xffff,
            ),
            (
                Entry {
                    score: -1,
                    ..zero()
                },
                16,
                0xffff,
            ),
            (Entry { eval: -1, ..zero() }, 32, 0xffff),
            (
                Entry {
                    depth: 0xff,
                    ..zero()
                },
                48,
                0xff,
            ),
        ];
        for (entry, shift, mask) in fields {
            let lower = pack(
                Entry {
                    bound: Bound::Lower,
                    ..zero()
                },
                0,
            );
            assert_eq!(pack(entry, 0) ^ lower, mask << shift, "{entry:?}");
            assert_eq!(unpack(pack(entry, 0)), entry);
        }
        for (bound, bits) in [(Bound::Lower, 1), (Bound::Upper, 2), (Bound::Exact, 3)] {
            assert_eq!(pack(Entry { bound, ..zero() }, 0), bits << 56);
        }
        assert_eq!(
            pack(
                Entry {
                    bound: Bound::Lower,
                    ..zero()
                },
                5
            ) >> 58,
            5
        );
    }

    /// An entry of zeros but its bound (lower).
    fn zero() -> Entry {
        Entry {
            mv: 0,
            score: 0,
            eval: 0,
            depth: 0,
            bound: Bound::Lower,
        }
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

    fn entry(depth: u8, eval: i16) -> Entry {
        Entry {
            mv: 7,
            score: 11,
            eval,
            depth,
            bound: Bound::Lower,
        }
    }

    /// Keys that all fall into cluster 0 (the index is taken from the top bits) and differ
    /// below.
    fn same_cluster_keys(n: u64) -> Vec<u64> {
        (1..=n).collect()
    }

    #[test]
    fn a_cluster_fills_one_cache_line() {
        assert_eq!(std::mem::size_of::<Cluster>(), 64);
        assert_eq!(std::mem::align_of::<Cluster>(), 64);
        let tt = TranspositionTable::new(1).unwrap();
        assert_eq!(tt.len(), (1 << 20) / 16);
        assert_eq!(tt.clusters.as_ptr() as usize % 64, 0);
    }

    #[test]
    fn a_cluster_holds_four_positions() {
        let tt = TranspositionTable::new(1).unwrap();
        let keys = same_cluster_keys(4);
        for (i, &k) in keys.iter().enumerate() {
            tt.store(k, entry(5, i as i16));
        }
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(tt.probe(k), Some(entry(5, i as i16)));
        }
    }

    #[test]
    fn the_same_position_replaces_its_own_entry() {
        let tt = TranspositionTable::new(1).unwrap();
        let keys = same_cluster_keys(4);
        for &k in &keys {
            tt.store(k, entry(9, 0));
        }
        // A shallower result for a stored position goes into that position's entry (within
        // two plies; or exact), not over another position's.
        tt.store(keys[2], entry(8, 42));
        assert_eq!(tt.probe(keys[2]), Some(entry(8, 42)));
        for &k in [keys[0], keys[1], keys[3]].iter() {
            assert_eq!(tt.probe(k), Some(entry(9, 0)));
        }
        // A much shallower bound from this search does not overwrite a deep one...
        tt.store(keys[2], entry(1, 43));
        assert_eq!(tt.probe(keys[2]), Some(entry(8, 42)));
        // ...but does from a later search, and keeps the old move if it has none.
        tt.new_search();
        tt.store(
            keys[2],
            Entry {
                mv: 0,
                ..entry(1, 44)
            },
        );
        assert_eq!(tt.probe(keys[2]), Some(entry(1, 44)));
    }

    #[test]
    fn deeper_and_newer_entries_are_kept() {
        let tt = TranspositionTable::new(1).unwrap();
        let keys = same_cluster_keys(7);
        for (&k, depth) in keys.iter().zip([10, 3, 8, 9]) {
            tt.store(k, entry(depth, 0));
        }
        // The cluster is full: the shallowest entry goes.
        tt.store(keys[4], entry(4, 0));
        assert_eq!(tt.probe(keys[1]), None);
        for &k in [keys[0], keys[2], keys[3], keys[4]].iter() {
            assert!(tt.probe(k).is_some());
        }
        // Two searches later, a shallow new entry replaces the old entry of least worth
        // (depth − 8 × age), here the depth-4 one; then the depth-8 one...
        tt.new_search();
        tt.new_search();
        tt.store(keys[5], entry(1, 0));
        assert_eq!(tt.probe(keys[4]), None);
        tt.store(keys[6], entry(1, 0));
        assert_eq!(tt.probe(keys[2]), None);
        // ...and the new entries, though shallow, outlast the old deep ones.
        tt.store(keys[1], entry(2, 0));
        assert_eq!(tt.probe(keys[3]), None);
        for &k in [keys[0], keys[1], keys[5], keys[6]].iter() {
            assert!(tt.probe(k).is_some(), "{k}");
        }
    }

    #[test]
    fn a_torn_entry_is_a_miss() {
        let tt = TranspositionTable::new(1).unwrap();
        let (a, b) = (0x1111_2222_3333_4444u64, 0x1111_2222_3333_4445u64);
        tt.store(a, entry(5, 1));
        tt.store(b, entry(6, 2));
        // Another thread's write of `b` got half-way over `a`'s entry: its data word with
        // `a`'s check word. The key check turns this into a miss.
        let slots = &tt.cluster(a).slots;
        let ia = slots
            .iter()
            .position(|s| {
                s.data.load(Ordering::Relaxed) ^ s.key_xor_data.load(Ordering::Relaxed) == a
            })
            .unwrap();
        let ib = slots
            .iter()
            .position(|s| {
                s.data.load(Ordering::Relaxed) ^ s.key_xor_data.load(Ordering::Relaxed) == b
            })
            .unwrap();
        let b_data = slots[ib].data.load(Ordering::Relaxed);
        slots[ia].data.store(b_data, Ordering::Relaxed);
        assert_eq!(tt.probe(a), None);
        assert_eq!(tt.probe(b), Some(entry(6, 2)));
    }

    #[test]
    fn threads_writing_at_once_never_give_a_wrong_hit() {
        // Two writers fill the same small table, each entry's evaluation derived from its key;
        // a reader checks that every hit carries its own key's data.
        let tt = TranspositionTable::new(1).unwrap();
        let keys: Vec<u64> = (0..50_000u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
            .collect();
        let tag = |k: u64| (k >> 17) as i16;
        std::thread::scope(|s| {
            for t in 0..2 {
                let (tt, keys) = (&tt, &keys);
                s.spawn(move || {
                    for round in 0..4u8 {
                        for &k in keys.iter().skip(t) {
                            tt.store(k, entry(round + t as u8, tag(k)));
                        }
                    }
                });
            }
            for _ in 0..4 {
                for &k in &keys {
                    if let Some(e) = tt.probe(k) {
                        assert_eq!(e.eval, tag(k));
                    }
                }
            }
        });
    }

    #[test]
    fn hashfull_counts_this_search_s_entries() {
        let tt = TranspositionTable::new(1).unwrap();
        assert_eq!(tt.hashfull(), 0);
        // One entry in each of the first 250 clusters: a quarter of the sample.
        for i in 0..250u64 {
            // The smallest key mapped to cluster i.
            let key = (((i as u128) << 64).div_ceil(tt.len as u128)) as u64;
            tt.store(key, entry(3, 0));
        }
        assert_eq!(tt.hashfull(), 250);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
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
