//! Search statistics for front-ends (GoGui analyze commands: policy heat map, visits and win
//! rates on the board). Protocol-free: the front-end formats them.

use crate::rules::Point;

/// One root child of the last search.
#[derive(Clone, Debug, PartialEq)]
pub struct ChildAnalysis {
    pub point: Point,
    /// P(m) among the root's children.
    pub prior: f32,
    pub visits: u32,
    /// For the side that was to move at the root; `None` without visits.
    pub win_rate: Option<f32>,
}

/// The root of the last search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Analysis {
    /// Stones on the board when the search ran (front-ends can tell a stale analysis).
    pub stone_count: usize,
    /// P(m) of every candidate stone of the root position.
    pub policy: Vec<(Point, f32)>,
    /// Searched children (forced stones skip the search and leave this empty).
    pub children: Vec<ChildAnalysis>,
}
