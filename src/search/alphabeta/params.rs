//! Alpha-beta's settings: the `[alphabeta]` section (`engine.search = "alphabeta"`). As for
//! `[search]`: each field is the TOML key of the same name, its one default is in
//! `engine-config/default.toml`, and [`AlphaBetaParams::validate`] names the key of a value out
//! of range.

use crate::search::common::{check_memory, shipped_section};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AlphaBetaParams {
    /// Deepest iteration of iterative deepening, in stones.
    pub max_depth: u32,
    /// Candidate stones searched per node, the highest Bradley-Terry weights first. Forced
    /// stones (blocks of a six-threat) are never cut.
    pub width: u32,
    /// The same at the root.
    pub root_width: u32,
    /// Transposition table size in MiB (16-byte entries).
    pub hash_mb: usize,
    /// Nodes per stone; 0 = time (or depth) decides. Fixed nodes make the search reproducible
    /// whatever the machine's speed.
    pub max_nodes: u64,
}

impl Default for AlphaBetaParams {
    /// The shipped defaults (`engine-config/default.toml`).
    fn default() -> Self {
        shipped_section("alphabeta")
    }
}

impl AlphaBetaParams {
    /// The node limit per stone, `None` when time or depth decides.
    pub fn node_limit(&self) -> Option<u64> {
        (self.max_nodes > 0).then_some(self.max_nodes)
    }

    /// Checks ranges, and the table against the machine's memory; the error names the key.
    pub fn validate(&self) -> Result<(), String> {
        let ranges = [
            ("max_depth", self.max_depth, 64),
            ("width", self.width, 625),
            ("root_width", self.root_width, 625),
        ];
        for (key, v, max) in ranges {
            if !(1..=max).contains(&v) {
                return Err(format!("alphabeta.{key} must be in 1..={max}, not {v}"));
            }
        }
        if !(1..=65536).contains(&self.hash_mb) {
            return Err(format!(
                "alphabeta.hash_mb must be in 1..=65536, not {}",
                self.hash_mb
            ));
        }
        check_memory(
            "alphabeta.hash_mb",
            self.hash_mb,
            (self.hash_mb as u64) << 20,
        )
    }
}
