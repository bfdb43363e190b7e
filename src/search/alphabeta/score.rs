//! Scores of the alpha-beta search, always for the side to move at the node: integers, so that
//! comparisons and the transposition table are exact and the search is reproducible.
//!
//! An evaluated position scores (2·P(win) − 1)·[`EVAL_SCALE`]; a six scores ±([`WIN`] − plies
//! to it), so a nearer win is worth more and a later loss less.

pub type Score = i32;

pub const EVAL_SCALE: f64 = 1000.0;
pub const WIN: Score = 100_000;
/// Scores beyond this are wins or losses at a known distance.
pub const WIN_BOUND: Score = WIN - 1000;
pub const INFINITY: Score = WIN + 1;

/// The score of a win probability `p` for the side to move.
pub fn from_probability(p: f64) -> Score {
    ((2.0 * p.clamp(0.0, 1.0) - 1.0) * EVAL_SCALE).round() as Score
}

/// The win probability a score stands for (wins and losses are 1 and 0).
pub fn to_probability(score: Score) -> f64 {
    if score >= WIN_BOUND {
        1.0
    } else if score <= -WIN_BOUND {
        0.0
    } else {
        ((score as f64 / EVAL_SCALE + 1.0) / 2.0).clamp(0.0, 1.0)
    }
}

pub fn is_decisive(score: Score) -> bool {
    score.abs() >= WIN_BOUND
}

/// A win for the side to move, `plies` stones from the root.
pub fn win_in(plies: u32) -> Score {
    WIN - plies as Score
}

/// Mate-distance scores are stored relative to the node, not the root.
pub fn to_table(score: Score, ply: u32) -> Score {
    if score >= WIN_BOUND {
        score + ply as Score
    } else if score <= -WIN_BOUND {
        score - ply as Score
    } else {
        score
    }
}

pub fn from_table(score: Score, ply: u32) -> Score {
    if score >= WIN_BOUND {
        score - ply as Score
    } else if score <= -WIN_BOUND {
        score + ply as Score
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probabilities_and_mate_distances() {
        assert_eq!(from_probability(0.5), 0);
        assert_eq!(from_probability(1.0), 1000);
        assert_eq!(from_probability(0.25), -500);
        assert!((to_probability(from_probability(0.8)) - 0.8).abs() < 1e-3);
        assert_eq!(to_probability(win_in(3)), 1.0);
        assert_eq!(to_probability(-win_in(3)), 0.0);
        assert!(is_decisive(win_in(7)) && !is_decisive(1000));
        // A win 5 plies from the root found at ply 2 is 3 plies from that node.
        let s = win_in(5);
        assert_eq!(to_table(s, 2), win_in(3));
        assert_eq!(from_table(to_table(s, 2), 2), s);
        assert_eq!(from_table(to_table(-s, 2), 2), -s);
        assert_eq!(to_table(123, 9), 123);
    }
}
