//! Line shapes: what one direction through an empty cell offers each colour, read from the cell's
//! 20-bit line key (5 cells each side, 2 bits a cell) through a table built once.
//!
//! Classes are defined for Black as the side to move ("own") against White ("opp"); White's view of
//! a key is Black's view of the key with the colours swapped ([`swap_colours`]). Every class is
//! symmetric under mirroring the line, so the table is mirror-folded by construction.
//!
//! Own class (after placing own on the centre), over the six 6-windows through the centre that
//! hold no opponent stone and no wall ("open windows"); `m` = most own stones in one:
//! * 0: no open window;
//! * 1..=9: `m` = 1..=3 times how many open windows reach `m` (1 / 2-3 / 4+), "openness";
//! * 10..=13: `m` = 4 or 5, times the line's threats through the centre (1 / 2+): the number of
//!   stones the opponent needs to spoil every such window (Wu & Huang, docs/tactics.md, VCDT);
//! * 14: six (or more) in a row.
//!
//! Opponent class (the centre still empty), the same over windows free of own stones and walls,
//! `m` = most opponent stones: 0 (none), 1..=9 as above, 10..=13 for `m` = 4 or 5 times the
//! stones needed to spoil the opponent's windows *without* using the centre (1 / 2+; a window whose
//! only empty cell is the centre counts as 2+: only this cell stops it).

use super::geometry::{BLACK, EMPTY, HALF, WALL, WHITE};
use std::sync::OnceLock;

pub const OWN_CLASSES: usize = 15;
pub const OPP_CLASSES: usize = 14;
pub const OWN_SIX: u8 = 14;
const KEY_BITS: u32 = 20;
const CELLS: usize = 2 * HALF as usize + 1;
const CENTRE: usize = HALF as usize;

/// Swaps black and white in a key; empty and wall stay.
#[inline]
pub fn swap_colours(key: u32) -> u32 {
    let lo = key & 0x55555;
    let hi = (key >> 1) & 0x55555;
    key ^ ((lo ^ hi) * 3)
}

/// The line read from the key, index 0 = five cells left of the centre; the centre is `EMPTY`.
fn decode(key: u32) -> [u32; CELLS] {
    let mut cells = [EMPTY; CELLS];
    for (slot, i) in (0..CENTRE).chain(CENTRE + 1..CELLS).enumerate() {
        cells[i] = (key >> (2 * slot)) & 3;
    }
    cells
}

/// Minimum blockers for windows (as [start, start+6) on `cells`) using only `allowed` cells:
/// greedy on intervals sorted by start, which is exact. `None` if some window has no allowed cell.
fn hitting_number(starts: &[usize], allowed: impl Fn(usize) -> bool) -> Option<u32> {
    let mut blocker: Option<usize> = None;
    let mut count = 0;
    for &s in starts {
        if blocker.is_some_and(|b| b >= s && b < s + 6) {
            continue;
        }
        let b = (s..s + 6).rev().find(|&i| allowed(i))?;
        blocker = Some(b);
        count += 1;
    }
    Some(count)
}

/// Class of one side's prospects on this line: `mine` is that side's stone code, `centre_counts`
/// whether the centre counts as its stone (own class) or stays empty (opponent class).
fn classify(cells: &[u32; CELLS], mine: u32, centre_counts: bool) -> u8 {
    let other = mine ^ 3;
    let mut counts = [None; CENTRE + 1];
    for (s, slot) in counts.iter_mut().enumerate() {
        let window = &cells[s..s + 6];
        if window.iter().any(|&c| c == other || c == WALL) {
            continue;
        }
        let n = window.iter().filter(|&&c| c == mine).count() + usize::from(centre_counts);
        *slot = Some(n);
    }
    let Some(m) = counts.iter().flatten().copied().max() else {
        return 0;
    };
    match m {
        0 => 0,
        1..=3 => {
            let reach = counts.iter().flatten().filter(|&&n| n == m).count();
            let openness = match reach {
                1 => 0,
                2 | 3 => 1,
                _ => 2,
            };
            (1 + (m - 1) * 3 + openness) as u8
        }
        4 | 5 => {
            let starts: Vec<usize> = (0..=CENTRE)
                .filter(|&s| counts[s].is_some_and(|n| n >= 4))
                .collect();
            let allowed = |i: usize| i != CENTRE && cells[i] == EMPTY;
            let threats = hitting_number(&starts, allowed).map_or(2, |t| t.min(2));
            (10 + (m - 4) * 2 + threats as usize - 1) as u8
        }
        _ => OWN_SIX,
    }
}

/// Own and opponent class for Black to move, packed as `own | opp << 4`.
fn shape_of(key: u32) -> u8 {
    let cells = decode(key);
    classify(&cells, BLACK, true) | classify(&cells, WHITE, false) << 4
}

/// The 5-slot halves a board can produce: off-board cells (walls) only at the far end. With `far`
/// = true the far end is slot 0 (the left half), else slot 4 (the right half).
fn halves(far_is_low: bool) -> Vec<u32> {
    let mut out = Vec::new();
    for walls in 0..=5u32 {
        for combo in 0..3u32.pow(5 - walls) {
            let mut half = 0;
            let mut rest = combo;
            for i in 0..5 {
                let is_wall = if far_is_low {
                    i < walls
                } else {
                    i >= 5 - walls
                };
                let code = if is_wall {
                    WALL
                } else {
                    let d = rest % 3;
                    rest /= 3;
                    d
                };
                half |= code << (2 * i);
            }
            out.push(half);
        }
    }
    out
}

/// Shapes of every key a board can produce (132,496 of the 2^20; the rest stay 0 and never occur).
fn table() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = vec![0u8; 1 << KEY_BITS];
        let right = halves(false);
        for left in halves(true) {
            for &r in &right {
                let key = left | r << 10;
                table[key as usize] = shape_of(key);
            }
        }
        table
    })
}

/// Both colours' classes of every key, `own | opp << 4` with Black to move, then the same with
/// White to move in the high byte: one lookup instead of two for incremental boards that keep
/// both views (2 MB, built on first use).
pub fn both_colours_table() -> &'static [u16] {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let black = table();
        (0..1u32 << KEY_BITS)
            .map(|key| black[key as usize] as u16 | (black[swap_colours(key) as usize] as u16) << 8)
            .collect()
    })
}

/// `(own class, opponent class)` of a line key with Black to move.
#[inline]
pub fn black_shape(key: u32) -> (u8, u8) {
    let v = table()[key as usize];
    (v & 15, v >> 4)
}

/// `(own class, opponent class)` of a line key for `to_move` (0 Black, 1 White).
#[inline]
pub fn shape_for(key: u32, to_move: usize) -> (u8, u8) {
    if to_move == 0 {
        black_shape(key)
    } else {
        black_shape(swap_colours(key))
    }
}

/// Order-independent id of the four directions' classes (Rapfi's `pattern4` idea): the multiset of
/// four classes out of `n`, numbered in lexicographic order of the sorted tuple.
pub struct Combiner {
    ids: Vec<u16>,
    pub count: usize,
}

impl Combiner {
    fn build(n: usize) -> Combiner {
        let mut index = std::collections::HashMap::new();
        for a in 0..n {
            for b in a..n {
                for c in b..n {
                    for d in c..n {
                        let id = index.len() as u16;
                        index.insert([a, b, c, d], id);
                    }
                }
            }
        }
        let mut ids = vec![u16::MAX; 1 << 16];
        for (packed, slot) in ids.iter_mut().enumerate() {
            let mut t = [
                packed & 15,
                packed >> 4 & 15,
                packed >> 8 & 15,
                packed >> 12,
            ];
            if t.iter().all(|&c| c < n) {
                t.sort_unstable();
                *slot = index[&t];
            }
        }
        Combiner {
            ids,
            count: index.len(),
        }
    }

    pub fn own() -> &'static Combiner {
        static C: OnceLock<Combiner> = OnceLock::new();
        C.get_or_init(|| Combiner::build(OWN_CLASSES))
    }

    pub fn opp() -> &'static Combiner {
        static C: OnceLock<Combiner> = OnceLock::new();
        C.get_or_init(|| Combiner::build(OPP_CLASSES))
    }

    /// Id of four classes packed 4 bits each.
    #[inline]
    pub fn id(&self, packed: u16) -> u16 {
        self.ids[packed as usize]
    }

    /// Id of four classes.
    pub fn id_of(&self, classes: [u8; 4]) -> u16 {
        let packed = classes
            .iter()
            .rev()
            .fold(0u16, |acc, &c| acc << 4 | c as u16);
        self.id(packed)
    }
}

/// Number of multisets of 4 out of `n`.
pub const fn multisets_of_four(n: usize) -> usize {
    n * (n + 1) * (n + 2) * (n + 3) / 24
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a key from a picture of the line: 11 chars, `.` empty, `x` black, `o` white, `#` wall;
    /// the centre char is ignored.
    pub(crate) fn key(line: &str) -> u32 {
        let chars: Vec<char> = line.chars().collect();
        assert_eq!(chars.len(), CELLS);
        let mut key = 0;
        for (slot, i) in (0..CENTRE).chain(CENTRE + 1..CELLS).enumerate() {
            let code = match chars[i] {
                '.' => EMPTY,
                'x' => BLACK,
                'o' => WHITE,
                '#' => WALL,
                c => panic!("bad char {c}"),
            };
            key |= code << (2 * slot);
        }
        key
    }

    fn mirror(line: &str) -> String {
        line.chars().rev().collect()
    }

    #[test]
    fn classes_are_mirror_symmetric() {
        for line in [
            "...xx.x....",
            "#####......",
            "...ox.o.x..",
            "oooo.......",
            "#.xo..xxo.o",
        ] {
            assert_eq!(
                black_shape(key(line)),
                black_shape(key(&mirror(line))),
                "{line}"
            );
        }
    }

    #[test]
    fn classes_of_known_lines() {
        // Empty line: every window open, one stone in each: m = 1 reached 6 times.
        assert_eq!(black_shape(key("...........")), (3, 0));
        // In the corner only the window to the right is open.
        assert_eq!(black_shape(key("#####......")), (1, 0));
        // The centre completes six.
        assert_eq!(black_shape(key("xxxxx......")).0, OWN_SIX);
        // .xxxxC. : five in a window, spoiling it takes both ends: 2 threats.
        assert_eq!(black_shape(key(".xxxx......")).0, 13);
        // oxxxxC. : the left end is gone, one threat left.
        assert_eq!(black_shape(key("oxxxx......")).0, 12);
        // Opponent four to the right: two windows, spoiled without the centre only by 2 stones.
        assert_eq!(black_shape(key("......oooo.")).1, 11);
        // Opponent stones on both sides of the centre: the window oCoooo has only the centre
        // empty, so nothing else stops it.
        assert_eq!(black_shape(key("....o.oooo.")), (0, 13));
    }

    #[test]
    fn table_covers_every_key_of_a_board() {
        // Keys of every cell and direction on a few boards match a direct classification.
        let mut board = crate::rules::Board::new(7).unwrap();
        for (i, p) in board.points().collect::<Vec<_>>().into_iter().enumerate() {
            if i % 3 == 0 {
                let _ = board.play(p);
            }
        }
        let pb = crate::patterns::PatternBoard::new(board);
        for cell in 0..49 {
            for dir in 0..4 {
                let k = pb.key(cell, dir);
                assert_eq!(table()[k as usize], shape_of(k));
                let swapped = swap_colours(k);
                assert_eq!(table()[swapped as usize], shape_of(swapped));
                let both = both_colours_table()[k as usize];
                assert_eq!(both & 0xFF, shape_of(k) as u16);
                assert_eq!(both >> 8, shape_of(swapped) as u16);
            }
        }
        assert_eq!(halves(true).len(), 364);
    }

    #[test]
    fn swap_is_an_involution_that_exchanges_colours() {
        let k = key("#.xo.x.o.oo");
        assert_eq!(swap_colours(swap_colours(k)), k);
        assert_eq!(swap_colours(k), key("#.ox.o.x.xx"));
    }

    #[test]
    fn combiner_is_order_independent() {
        let own = Combiner::own();
        assert_eq!(own.count, multisets_of_four(OWN_CLASSES));
        assert_eq!(own.id_of([1, 5, 3, 14]), own.id_of([14, 3, 5, 1]));
        assert_ne!(own.id_of([1, 5, 3, 14]), own.id_of([1, 5, 3, 13]));
        assert_eq!(own.id_of([0, 0, 0, 0]), 0);
        assert_eq!(own.id_of([14, 14, 14, 14]) as usize, own.count - 1);
        assert_eq!(Combiner::opp().count, multisets_of_four(OPP_CLASSES));
    }
}
