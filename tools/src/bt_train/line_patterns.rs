//! The raw line patterns of the Connect6 Bradley-Terry paper as trainer feature sets
//! (`liuzi-train paper`, and the tree-prior model of `liuzi-train train`): one group per
//! direction through the candidate stone, whose value is the library's
//! [`liuzi::policy::lines::line_code`] (the `k` nearest line cells, 3^k codes, times the colour
//! to move). Directions keep their own gammas (horizontal, vertical and the two diagonals are
//! separate regions), as in the paper.

use super::feature_set::FeatureSet;
use liuzi::policy::lines::{line_code, line_values};
use liuzi::policy::{FeatureBoard, TurnContext};

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
}

impl FeatureSet for LinePatterns {
    fn id(&self) -> String {
        format!(
            "line patterns of length {} (directions 0-3, 3^k x 2 values each)",
            self.lengths.map(|k| k.to_string()).join("/")
        )
    }

    fn sizes(&self) -> Vec<usize> {
        self.lengths.iter().map(|&k| line_values(k)).collect()
    }

    fn team(&self, fb: &FeatureBoard, ctx: &TurnContext, cell: usize, out: &mut [u32]) {
        for (dir, (slot, &k)) in out.iter_mut().zip(&self.lengths).enumerate() {
            *slot = line_code(fb.patterns().key(cell, dir), k, ctx.to_move);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use liuzi::rules::{Board, Point};

    #[test]
    fn every_set_gives_values_in_range() {
        let mut b = Board::standard();
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
    }
}
