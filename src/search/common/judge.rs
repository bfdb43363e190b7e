//! A second opinion on a position, for one search to ask of another without knowing it: the
//! MCTS's pair verification (`search.verify_depth`) asks alpha-beta, which implements this,
//! and the engine wires the two together.

use crate::rules::Board;
use std::time::Instant;

/// What a judgement may spend: it stops at `depth` stones, or earlier at the deadline or node
/// limit (then it has no verdict at that depth).
#[derive(Clone, Copy, Debug)]
pub struct JudgeLimits {
    pub depth: u32,
    pub deadline: Option<Instant>,
    pub nodes: Option<u64>,
}

/// A fixed-depth search's verdict on one position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judgement {
    /// The side to move's win probability.
    pub win_probability: f64,
    /// The depth (stones) the verdict comes from; below the asked depth when a limit cut the
    /// search short. A proven win or loss counts as the asked depth (it holds at any).
    pub depth: u32,
    pub nodes: u64,
}

pub trait PositionJudge: Send {
    /// The side to move's prospects on `board` (a game still going) by a search of
    /// `limits.depth` stones. `None` when not even the first stone's depth finished.
    fn judge(&mut self, board: &Board, limits: JudgeLimits) -> Option<Judgement>;
}
