//! What a search answers: the chosen stone with the figures the per-stone log shows
//! ([`SearchOutcome`]), and the root as the search left it ([`Analysis`]), which the engine
//! hands to front-ends as it is (GoGui analyze commands).

use crate::rules::Point;
use std::time::Duration;

/// Why the stone was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// It completes (or starts a sure completion of) a six this turn: no search.
    Win,
    /// The only stone that meets the opponent's six-threat: no search.
    ForcedBlock,
    /// It starts a proven threat sequence (VCDT, or a proven win found by the search).
    Proven,
    /// Chosen by the search.
    Searched,
}

/// The answer of one stone's search. Figures that one search does not have stay 0.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOutcome {
    pub best: Point,
    pub decision: Decision,
    pub elapsed: Duration,
    /// Win rate of the chosen stone for the side to move (draws count half); alpha-beta: the
    /// probability its score stands for.
    pub win_rate: Option<f32>,
    /// Principal variation, starting with `best`.
    pub pv: Vec<Point>,
    /// MCTS: playouts run by this search.
    pub playouts: u64,
    /// MCTS: tree edges in use after the search. Alpha-beta: nodes searched.
    pub nodes: u64,
    /// MCTS: root visits carried over from the previous search by tree reuse.
    pub reused_visits: u32,
    /// MCTS: root visits after the search.
    pub root_visits: u32,
    /// Alpha-beta: deepest iteration whose result is used, in stones (0 without search).
    pub depth: u32,
    /// Alpha-beta: the score of `best` (see `alphabeta::score`).
    pub score: i32,
}

impl SearchOutcome {
    /// An outcome without search (forced or proven stone).
    pub fn unsearched(best: Point, decision: Decision, elapsed: Duration) -> SearchOutcome {
        SearchOutcome {
            best,
            decision,
            elapsed,
            win_rate: None,
            pv: vec![best],
            playouts: 0,
            nodes: 0,
            reused_visits: 0,
            root_visits: 0,
            depth: 0,
            score: 0,
        }
    }

    pub fn playouts_per_second(&self) -> f64 {
        self.playouts as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// One root stone of the last search.
#[derive(Clone, Debug, PartialEq)]
pub struct ChildAnalysis {
    pub point: Point,
    /// P(m) among the root's candidates.
    pub prior: f32,
    /// MCTS: visits. Alpha-beta: the nodes its subtree took.
    pub visits: u32,
    /// For the side that was to move at the root; `None` without visits. Alpha-beta: the
    /// probability its score stands for (only an upper bound for stones that did not beat the
    /// best).
    pub win_rate: Option<f32>,
    /// The stones the search expects from this one on, this one first (MCTS: the most visited
    /// line; alpha-beta: this stone alone). Analysis streams show it.
    pub pv: Vec<Point>,
}

/// The root of the last search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Analysis {
    /// Stones on the board when the search ran (front-ends can tell a stale analysis).
    pub stone_count: usize,
    /// P(m) of every candidate stone of the root position.
    pub policy: Vec<(Point, f32)>,
    /// Searched root stones (forced stones skip the search and leave this empty).
    pub children: Vec<ChildAnalysis>,
    /// The stone chosen without a search of this position, and why (a six, a forced block, a
    /// proven threat sequence); `None` when the search ran.
    pub decided: Option<(Point, Decision)>,
}
