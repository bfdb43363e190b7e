//! Pattern knowledge on top of the rules: incremental line keys and shape classes, 6-cell windows,
//! exact threat counts, immediate wins and forced blocks (docs/tactics.md, VCDT; docs/search.md,
//! playouts and the leaf value).
//!
//! Depends on `rules` only. [`PatternBoard`] keeps everything current on play and undo; the free
//! functions [`winning_points`], [`blocking_points`] and [`threat_count`] compute from scratch.

mod board;
mod cellset;
pub mod geometry;
pub mod shape;
mod threats;

pub use board::{stone_code, PatternBoard};
pub use cellset::CellSet;
pub use geometry::Geometry;
pub use threats::{
    blocking_points, pair_bin, stones_left, threat_count, winning_points, CellView, ThreatWindows,
    MAX_EXACT_THREATS, MIN_LIVE,
};
