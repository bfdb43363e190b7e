//! The raw line patterns of the Connect6 Bradley-Terry paper, for reproducing its experiment
//! (`liuzi-train paper`): one group per direction through the candidate stone, whose value is
//! the exact contents of the `k` nearest cells of that line (3^k codes: empty, Black, White),
//! times the colour to move (x2): 3^k * 2 values per direction.
//!
//! The stone's own cell (always empty) is not part of the pattern: a pattern of length `k` is
//! the ceil(k/2) cells on the line's positive side and floor(k/2) on its negative side
//! (lengths up to 10: the 20-bit line keys of [`liuzi::patterns`] see 5 cells each side).
//! An off-board cell reads as a stone of the side not to move: it blocks the same way.
//! Directions keep their own gammas (horizontal, vertical and the two diagonals are separate
//! regions), as in the paper.

use crate::extract::FeatureSet;
use liuzi::policy::{FeatureBoard, TurnContext};
use liuzi::rules::Color;

/// Line cells each side a 20-bit key holds.
const HALF: usize = 5;

/// Four line patterns, one per direction, of the given lengths (2..=10).
#[derive(Clone, Debug)]
pub struct LinePatterns {
    pub lengths: [usize; 4],
}

impl LinePatterns {
    /// The paper's four action-evaluation functions by name: `l6`, `l7`, `l8` (four line
    /// patterns of that length) and `l8l7` (length 8 horizontally and vertically, 7 on the
    /// diagonals).
    pub fn named(name: &str) -> Option<LinePatterns> {
        let lengths = match name {
            "l6" => [6; 4],
            "l7" => [7; 4],
            "l8" => [8; 4],
            "l8l7" => [8, 8, 7, 7],
            _ => return None,
        };
        Some(LinePatterns { lengths })
    }

    pub const NAMES: [&'static str; 4] = ["l6", "l7", "l8", "l8l7"];

    /// Code of the pattern of `length` in a line key, for `to_move`.
    pub fn code(key: u32, length: usize, to_move: Color) -> u32 {
        // Key slot of the cell `j` steps along the line: slots 0..5 are the negative side
        // (slot 0 farthest), 5..10 the positive side (slot 5 nearest).
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
}

impl FeatureSet for LinePatterns {
    fn id(&self) -> String {
        format!(
            "line patterns of length {} (directions 0-3, 3^k x 2 values each)",
            self.lengths.map(|k| k.to_string()).join("/")
        )
    }

    fn sizes(&self) -> Vec<usize> {
        self.lengths
            .iter()
            .map(|&k| 3usize.pow(k as u32) * 2)
            .collect()
    }

    fn team(&self, fb: &FeatureBoard, ctx: &TurnContext, cell: usize, out: &mut [u32]) {
        for (dir, (slot, &k)) in out.iter_mut().zip(&self.lengths).enumerate() {
            *slot = LinePatterns::code(fb.patterns().key(cell, dir), k, ctx.to_move);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use liuzi::rules::{Board, Point};

    #[test]
    fn codes_are_in_range_and_read_the_line() {
        let mut b = Board::standard();
        // Black at (9,9), White at (10,9) and (11,9) ... candidates along row 9.
        for p in [(9, 9), (10, 9), (11, 9)] {
            b.play(Point::new(p.0, p.1)).unwrap();
        }
        let fb = FeatureBoard::new(&b);
        let ctx = fb.context();
        for name in LinePatterns::NAMES {
            let lp = LinePatterns::named(name).unwrap();
            let sizes = lp.sizes();
            let mut out = [0u32; 4];
            for p in b.legal_points() {
                lp.team(&fb, &ctx, p.index(19), &mut out);
                for (v, s) in out.iter().zip(&sizes) {
                    assert!((*v as usize) < *s, "{name} {p:?}: {v} >= {s}");
                }
            }
        }
        // An empty line in the middle of the board is code 0 (plus the colour offset).
        let empty = FeatureBoard::new(&Board::standard());
        let ctx0 = empty.context();
        let mut out = [0u32; 4];
        LinePatterns::named("l8").unwrap().team(
            &empty,
            &ctx0,
            Point::new(9, 9).index(19),
            &mut out,
        );
        assert_eq!(out, [0; 4]);
        // Next to stones the codes differ from the empty line's, and walls count at the edge.
        let lp = LinePatterns::named("l6").unwrap();
        lp.team(&fb, &ctx, Point::new(8, 9).index(19), &mut out);
        assert!(out.iter().any(|&v| v % 729 != 0));
        lp.team(&empty, &ctx0, Point::new(0, 9).index(19), &mut out);
        assert!(out.iter().any(|&v| v != 0), "walls at the edge");
    }
}
