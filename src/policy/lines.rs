//! Raw line patterns (the Connect6 Bradley-Terry paper's action-evaluation functions): per
//! direction through a candidate stone, the exact contents of the `k` nearest line cells (3^k
//! codes: empty, Black, White) times the colour to move (x2). The tree-prior model
//! ([`super::TreeModel`]) uses them next to the feature groups; `liuzi-train paper` fits them alone.
//!
//! The stone's own cell (always empty) is not part of the pattern: a pattern of length `k` is
//! the ceil(k/2) cells on the line's positive side and floor(k/2) on its negative side (lengths
//! up to 10: the 20-bit line keys of [`crate::patterns`] see 5 cells each side). An off-board
//! cell reads as a stone of the side not to move: it blocks the same way.

use crate::rules::Color;

/// Line cells each side a 20-bit key holds.
const HALF: usize = 5;

/// Longest pattern a line key holds.
pub const MAX_LINE_LENGTH: usize = 2 * HALF;

/// Values of one direction's pattern of `length`: 3^length codes x 2 colours to move.
pub fn line_values(length: usize) -> usize {
    3usize.pow(length as u32) * 2
}

/// Code of the pattern of `length` (2..=10) in a line key, for `to_move`.
pub fn line_code(key: u32, length: usize, to_move: Color) -> u32 {
    debug_assert!((1..=MAX_LINE_LENGTH).contains(&length));
    // Key slot of the cell `j` steps along the line: slots 0..5 are the negative side (slot 0
    // farthest), 5..10 the positive side (slot 5 nearest).
    let positive = length.div_ceil(2);
    let negative = length / 2;
    let slots = (0..positive)
        .map(|j| HALF + j)
        .chain((0..negative).map(|j| HALF - 1 - j));
    let wall = match to_move {
        Color::Black => 2,
        Color::White => 1,
    };
    let mut code = 0;
    for slot in slots.rev() {
        let state = match key >> (2 * slot) & 3 {
            3 => wall,
            s => s,
        };
        code = code * 3 + state;
    }
    code + (to_move.index() as u32) * 3u32.pow(length as u32)
}

/// [`line_code`] for one length as a table lookup: the pattern's cells are `2 * length`
/// consecutive bits of the key, so a table of 4^length entries per colour maps them to the code.
#[derive(Clone, Debug)]
pub struct LineCodes {
    length: usize,
    shift: u32,
    mask: u32,
    /// `[colour][window bits]`.
    codes: [Vec<u16>; 2],
}

impl LineCodes {
    /// Lengths 1..=7 (4^7 entries per colour at most; longer patterns use [`line_code`]).
    pub fn new(length: usize) -> LineCodes {
        assert!((1..=7).contains(&length), "line code tables up to length 7");
        let negative = length / 2;
        let shift = 2 * (HALF - negative) as u32;
        let bits = 2 * length as u32;
        let codes = [Color::Black, Color::White].map(|c| {
            (0..1u32 << bits)
                .map(|w| line_code(w << shift, length, c) as u16)
                .collect()
        });
        LineCodes {
            length,
            shift,
            mask: (1 << bits) - 1,
            codes,
        }
    }

    pub fn length(&self) -> usize {
        self.length
    }

    #[inline]
    pub fn code(&self, key: u32, to_move: Color) -> u16 {
        self.codes[to_move.index()][(key >> self.shift & self.mask) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::FeatureBoard;
    use crate::rules::{Board, Point};

    #[test]
    fn codes_are_in_range_read_the_line_and_match_the_table() {
        let mut b = Board::standard();
        for p in [(9, 9), (10, 9), (11, 9), (0, 3)] {
            b.play(Point::new(p.0, p.1)).unwrap();
        }
        let fb = FeatureBoard::new(&b);
        let to_move = b.to_move();
        for length in 2..=MAX_LINE_LENGTH {
            let table = (length <= 7).then(|| LineCodes::new(length));
            for p in b.legal_points() {
                for dir in 0..4 {
                    let key = fb.patterns().key(p.index(19), dir);
                    let code = line_code(key, length, to_move);
                    assert!((code as usize) < line_values(length));
                    if let Some(t) = &table {
                        assert_eq!(t.code(key, to_move) as u32, code, "{p:?} {dir}");
                    }
                }
            }
        }
        // An empty line in the middle of the board is code 0 (plus the colour offset).
        let empty = FeatureBoard::new(&Board::standard());
        let centre = Point::new(9, 9).index(19);
        for dir in 0..4 {
            assert_eq!(
                line_code(empty.patterns().key(centre, dir), 8, Color::Black),
                0
            );
            assert_eq!(
                line_code(empty.patterns().key(centre, dir), 6, Color::White),
                729
            );
        }
        // Next to stones the codes differ from the empty line's, and walls count at the edge.
        let next = Point::new(8, 9).index(19);
        assert!(
            (0..4).any(|d| !line_code(fb.patterns().key(next, d), 6, to_move).is_multiple_of(729))
        );
        let edge = Point::new(0, 9).index(19);
        assert!((0..4).any(|d| line_code(empty.patterns().key(edge, d), 6, Color::Black) != 0));
    }
}
