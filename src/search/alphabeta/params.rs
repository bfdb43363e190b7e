//! Alpha-beta parameters: the `[alphabeta]` section of the engine configuration, and the
//! threat solver's keys of `[search]`, which both searches share.

use crate::search::common::SolverParams;

#[derive(Clone, Debug, PartialEq)]
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
    /// Nodes per stone; `None` = time (or depth) decides. Fixed nodes make the search
    /// reproducible whatever the machine's speed.
    pub max_nodes: Option<u64>,
    /// The threat-space solver's root pre-pass (the `[search] solver*` keys, as for the MCTS).
    pub solver: SolverParams,
}

impl Default for AlphaBetaParams {
    fn default() -> Self {
        AlphaBetaParams {
            max_depth: 12,
            width: 8,
            root_width: 16,
            hash_mb: 32,
            max_nodes: None,
            solver: SolverParams::default(),
        }
    }
}

impl AlphaBetaParams {
    /// The `[alphabeta]` section of `config`, checked.
    pub fn from_config(config: &crate::config::EngineConfig) -> Result<AlphaBetaParams, String> {
        let a = &config.alphabeta;
        let params = AlphaBetaParams {
            max_depth: a.max_depth,
            width: a.width,
            root_width: a.root_width,
            hash_mb: a.hash_mb,
            max_nodes: (a.max_nodes > 0).then_some(a.max_nodes),
            solver: SolverParams::from_config(config)?,
        };
        params.validate()?;
        Ok(params)
    }

    /// Checks ranges; the error names the offending key.
    pub fn validate(&self) -> Result<(), String> {
        if !(1..=64).contains(&self.max_depth) {
            return Err(format!(
                "alphabeta.max_depth must be in 1..=64, got {}",
                self.max_depth
            ));
        }
        if self.width == 0 || self.width > 625 {
            return Err(format!(
                "alphabeta.width must be in 1..=625, got {}",
                self.width
            ));
        }
        if self.root_width == 0 || self.root_width > 625 {
            return Err(format!(
                "alphabeta.root_width must be in 1..=625, got {}",
                self.root_width
            ));
        }
        if !(1..=65536).contains(&self.hash_mb) {
            return Err(format!(
                "alphabeta.hash_mb must be in 1..=65536, got {}",
                self.hash_mb
            ));
        }
        Ok(())
    }
}
