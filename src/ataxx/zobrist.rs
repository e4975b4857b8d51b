//! Zobrist keys for Ataxx positions: fixed-seed random numbers from a const-fn splitmix64, so
//! hashes are the same in every run and every build.

use super::bitboard::NUM_SQUARES;

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// All keys of the game, generated at compile time.
#[derive(Debug)]
pub struct Zobrist {
    /// `stone[side][sq]`: a stone of `side` (0 = `x`, 1 = `o`) on `sq`.
    pub stone: [[u64; NUM_SQUARES]; 2],
    /// `flip[sq]` = `stone[0][sq] ^ stone[1][sq]`: a stone on `sq` changing colour.
    pub flip: [u64; NUM_SQUARES],
    /// `blocked[sq]`: a blocked square `sq`.
    pub blocked: [u64; NUM_SQUARES],
    /// Added when `o` is to move.
    pub side: u64,
}

const fn generate() -> Zobrist {
    let mut z = Zobrist {
        stone: [[0; NUM_SQUARES]; 2],
        flip: [0; NUM_SQUARES],
        blocked: [0; NUM_SQUARES],
        side: 0,
    };
    let mut state = 0x5EED_A7A8_5EED_A7A8u64;
    let mut sq = 0;
    while sq < NUM_SQUARES {
        let (s, a) = splitmix64(state);
        let (s, b) = splitmix64(s);
        let (s, c) = splitmix64(s);
        state = s;
        z.stone[0][sq] = a;
        z.stone[1][sq] = b;
        z.flip[sq] = a ^ b;
        z.blocked[sq] = c;
        sq += 1;
    }
    z.side = splitmix64(state).1;
    z
}

/// The Zobrist keys of Ataxx (seed `0x5EEDA7A85EEDA7A8`).
pub static ZOBRIST: Zobrist = generate();
