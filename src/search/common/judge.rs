//! A second opinion on a position, for one search to ask of another without knowing it: the
//! MCTS's pair verification (`search.verify_depth`) asks alpha-beta, which implements this,
//! and the engine wires the two together.

use super::ThinkObserver;
use crate::rules::Board;
use std::fmt;
use web_time::Instant;

/// What a judgement may spend: it stops at `depth` stones, or earlier at the deadline, the node
/// limit or the observer's stop (then it has no verdict at that depth).
#[derive(Clone, Copy, Default)]
pub struct JudgeLimits<'a> {
    pub depth: u32,
    pub deadline: Option<Instant>,
    pub nodes: Option<u64>,
    /// The asking search's observer: a protocol interrupt ends the judgement too.
    pub observer: Option<&'a dyn ThinkObserver>,
}

impl fmt::Debug for JudgeLimits<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JudgeLimits")
            .field("depth", &self.depth)
            .field("deadline", &self.deadline)
            .field("nodes", &self.nodes)
            .field("observer", &self.observer.is_some())
            .finish()
    }
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
    fn judge(&mut self, board: &Board, limits: JudgeLimits<'_>) -> Option<Judgement>;
}
