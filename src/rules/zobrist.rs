//! Zobrist keys: fixed, seeded once, so hashes are the same in every run and every process.

use super::coord::MAX_SIZE;
use std::sync::OnceLock;

pub(crate) struct ZobristKeys {
    /// `stone[color][point index on a MAX_SIZE board]`
    pub stone: [[u64; MAX_SIZE * MAX_SIZE]; 2],
    /// XORed in while the next stone is the second of a turn.
    pub second_stage: u64,
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

pub(crate) fn keys() -> &'static ZobristKeys {
    static KEYS: OnceLock<ZobristKeys> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut state = 0x6C69_757A_6936_u64; // "liuzi6"
        let mut stone = [[0u64; MAX_SIZE * MAX_SIZE]; 2];
        for colour in stone.iter_mut() {
            for key in colour.iter_mut() {
                *key = splitmix64(&mut state);
            }
        }
        ZobristKeys {
            stone,
            second_stage: splitmix64(&mut state),
        }
    })
}

/// The key a `colour` stone on `p` XORs into [`super::Board::hash`]. At the start of a turn a
/// board's hash is the XOR of the keys of its stones, so code that keeps its own stones (the
/// threat solver, which lets a side pass) can key tables the same way.
pub fn stone_key(colour: super::Color, p: super::Point) -> u64 {
    keys().stone[colour.index()][p.index(MAX_SIZE)]
}
