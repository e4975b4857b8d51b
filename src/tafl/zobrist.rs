//! Zobrist keys from a fixed-seed splitmix64 generator (reproducible across runs and builds).

/// One splitmix64 step: returns the next state and its output.
const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

use super::bitboard::MAX_SQUARES;

/// Keys for squares 0–127 come first in the stream, then the side key, then the keys of the
/// squares of boards over 11×11 (so the keys of the smaller boards never changed).
const fn make_keys() -> ([[u64; MAX_SQUARES]; 3], u64) {
    let mut keys = [[0u64; MAX_SQUARES]; 3];
    let mut state = 0x5EED_7AF1_u64;
    let mut k = 0;
    while k < 3 {
        let mut s = 0;
        while s < 128 {
            let (ns, v) = splitmix64(state);
            state = ns;
            keys[k][s] = v;
            s += 1;
        }
        k += 1;
    }
    let (mut state, side) = splitmix64(state);
    let mut k = 0;
    while k < 3 {
        let mut s = 128;
        while s < MAX_SQUARES {
            let (ns, v) = splitmix64(state);
            state = ns;
            keys[k][s] = v;
            s += 1;
        }
        k += 1;
    }
    (keys, side)
}

const KEYS: ([[u64; MAX_SQUARES]; 3], u64) = make_keys();

/// Zobrist keys per piece kind ([`super::Piece::index`]) and square.
pub static PIECE_KEYS: [[u64; MAX_SQUARES]; 3] = KEYS.0;

/// XORed into the hash when the defenders are to move.
pub const SIDE_KEY: u64 = KEYS.1;
