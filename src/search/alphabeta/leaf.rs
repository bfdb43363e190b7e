//! How the alpha-beta search scores the positions at its horizon: by the learned evaluator
//! (`crate::eval`) when one is loaded, otherwise by a fixed hand-made formula over the same
//! features, so that the engine still plays sensibly without the file.

use crate::eval::features::{self, LineShapes, SIDE_FEATURES};
use crate::eval::qda::sigmoid;
use crate::eval::{decided, Evaluator};
use std::sync::Arc;

#[derive(Clone)]
pub enum LeafEvaluator {
    /// The trained per-phase classifier.
    Learned(Arc<Evaluator>),
    /// The fallback formula (see [`heuristic_probability`]).
    Heuristic,
}

impl LeafEvaluator {
    /// P(win) for the side to move.
    pub fn win_probability<S: LineShapes + ?Sized>(&self, shapes: &S) -> f64 {
        match self {
            LeafEvaluator::Learned(e) => e.win_probability(shapes),
            LeafEvaluator::Heuristic => heuristic_probability(shapes),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            LeafEvaluator::Learned(_) => "learned",
            LeafEvaluator::Heuristic => "heuristic",
        }
    }
}

/// Weights of ln(1 + roads of k stones), k = 1..=5, and of the threat count, for the own side
/// (positive) and the other (negative). Set by hand, not fitted: only the fallback.
const ROAD_WEIGHTS: [f64; 5] = [0.02, 0.1, 0.3, 0.6, 0.6];
const THREAT_WEIGHT: f64 = 0.8;

/// The threat rules where they decide; otherwise a logistic formula of the difference of both
/// sides' roads and threats.
pub fn heuristic_probability<S: LineShapes + ?Sized>(shapes: &S) -> f64 {
    if let Some(p) = decided(shapes.patterns()) {
        return p;
    }
    let f = features::extract(shapes);
    let side = |base: usize| {
        THREAT_WEIGHT * f[base]
            + ROAD_WEIGHTS
                .iter()
                .enumerate()
                .map(|(k, w)| w * f[base + 1 + k])
                .sum::<f64>()
    };
    sigmoid(side(0) - side(SIDE_FEATURES))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::patterns::PatternBoard;
    use crate::rules::{Board, Point};

    #[test]
    fn heuristic_favours_the_side_with_more_shape() {
        let mut pb = PatternBoard::new(Board::standard());
        // Black builds a three on row 9; White scatters.
        for (c, r) in [(9, 9), (0, 0), (18, 18), (10, 9), (11, 9), (0, 18), (18, 0)] {
            pb.play(Point::new(c, r)).unwrap();
        }
        // Black to move: ahead.
        let p = heuristic_probability(&pb);
        assert!(p > 0.6 && p < 0.999, "{p}");
        pb.play(Point::new(3, 3)).unwrap();
        pb.play(Point::new(4, 4)).unwrap();
        // White to move: behind.
        assert!(heuristic_probability(&pb) < 0.4);
    }
}
