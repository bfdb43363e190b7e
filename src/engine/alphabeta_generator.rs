//! The alpha-beta search as the engine's move generator (`engine.search = "alphabeta"`).

use super::mcts_generator::{FALLBACK_STONE_TIME, NO_WEIGHTS};
use super::{Analysis, ChildAnalysis, MoveGenerator, StoneBudget};
use crate::config::EngineConfig;
use crate::eval::{EvalFileErrorKind, Evaluator};
use crate::policy::Gammas;
use crate::rules::{Board, Point};
use crate::search::alphabeta::{
    proximity_gammas, score, AbLimits, AlphaBeta, AlphaBetaParams, LeafEvaluator,
};
use std::sync::Arc;

/// The evaluator `engine.evaluator` names: `None` when the key is empty, or (with a warning
/// saying what falls back) when the file does not exist. A file that exists but cannot be
/// used is an error naming the file.
pub fn load_evaluator(
    config: &EngineConfig,
    fallback: &str,
) -> Result<Option<Arc<Evaluator>>, String> {
    let path = &config.engine.evaluator;
    if path.as_os_str().is_empty() {
        tracing::warn!("no evaluator configured (engine.evaluator is empty): {fallback}");
        return Ok(None);
    }
    match Evaluator::load(path) {
        Ok(e) => {
            tracing::info!(evaluator = %path.display(), "learned evaluator loaded");
            Ok(Some(Arc::new(e)))
        }
        Err(e) if matches!(e.kind, EvalFileErrorKind::Missing) => {
            tracing::warn!("{e}: {fallback}");
            Ok(None)
        }
        Err(e) => Err(e.to_string()),
    }
}

/// The alpha-beta search the configuration asks for: move ordering from `engine.weights`
/// (a missing or broken file is an error; `"none"` = the built-in proximity ordering), leaves
/// scored by
/// `engine.evaluator` (the built-in formula when that file does not exist).
pub fn build_alphabeta(config: &EngineConfig) -> Result<Box<dyn MoveGenerator>, String> {
    let params = AlphaBetaParams::from_config(config)?;
    let path = &config.engine.weights;
    let gammas = if path.as_os_str() == NO_WEIGHTS {
        tracing::info!("alpha-beta ordering: distance to the nearest stone (weights = \"none\")");
        proximity_gammas()
    } else {
        let gammas = Gammas::load(path).map_err(|e| e.to_string())?;
        tracing::info!(weights = %path.display(), "alpha-beta ordering: Bradley-Terry gammas");
        gammas
    };
    let leaf = match load_evaluator(config, "alpha-beta scores leaves by a fixed formula")? {
        Some(e) => LeafEvaluator::Learned(e),
        None => LeafEvaluator::Heuristic,
    };
    Ok(Box::new(AlphaBetaGenerator::new(
        params,
        Arc::new(gammas),
        leaf,
    )))
}

pub struct AlphaBetaGenerator {
    search: AlphaBeta,
}

impl AlphaBetaGenerator {
    pub fn new(params: AlphaBetaParams, gammas: Arc<Gammas>, leaf: LeafEvaluator) -> Self {
        AlphaBetaGenerator {
            search: AlphaBeta::new(params, gammas, leaf),
        }
    }

    pub fn search(&self) -> &AlphaBeta {
        &self.search
    }
}

impl MoveGenerator for AlphaBetaGenerator {
    fn generate(&mut self, board: &Board, budget: StoneBudget) -> Point {
        let time = match (budget.time, self.search.params().max_nodes) {
            (None, None) => Some(FALLBACK_STONE_TIME),
            (t, _) => t,
        };
        let limits = AbLimits {
            time,
            ..AbLimits::default()
        };
        match self.search.think(board, limits) {
            Some(outcome) => outcome.best,
            // Unreachable by the trait's contract (never called on a finished game); stay legal.
            None => board
                .legal_points()
                .next()
                .expect("generate is only called with an empty point left"),
        }
    }

    fn new_game(&mut self, _board: &Board) {
        self.search.clear();
    }

    /// Root stones of the last search: `visits` holds the nodes each one's subtree took and
    /// `win_rate` the probability its score stands for (for stones that did not beat the best,
    /// the score is only an upper bound).
    fn analysis(&self) -> Option<Analysis> {
        let root = self.search.last_root();
        Some(Analysis {
            stone_count: self.search.last_stone_count(),
            policy: self.search.last_policy().to_vec(),
            children: root
                .iter()
                .map(|m| ChildAnalysis {
                    point: m.point,
                    prior: m.prior,
                    visits: m.nodes.min(u32::MAX as u64) as u32,
                    win_rate: Some(score::to_probability(m.score) as f32),
                })
                .collect(),
        })
    }

    fn policy(&self, board: &Board) -> Option<Vec<(Point, f32)>> {
        Some(self.search.policy(board))
    }
}
