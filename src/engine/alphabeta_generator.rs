//! The alpha-beta search as the engine's move generator (`engine.search = "alphabeta"`).

use super::mcts_generator::{FALLBACK_STONE_TIME, NO_WEIGHTS};
use super::{Analysis, ChildAnalysis, MoveGenerator, StoneBudget};
use crate::config::EngineConfig;
use crate::eval::Evaluator;
use crate::policy::Gammas;
use crate::rules::{Board, Point};
use crate::search::alphabeta::{
    proximity_gammas, score, AbLimits, AlphaBeta, AlphaBetaParams, LeafEvaluator,
};
use std::sync::Arc;

/// `engine.evaluator = "none"` (or empty): no learned evaluator.
pub const NO_EVALUATOR: &str = "none";

/// The evaluator `engine.evaluator` names; `None` when the key is `"none"` or empty (then
/// `without` says what the search does instead). A file that is missing or cannot be used is an
/// error naming the file, as for the weights.
pub fn load_evaluator(
    config: &EngineConfig,
    without: &str,
) -> Result<Option<Arc<Evaluator>>, String> {
    let path = &config.engine.evaluator;
    if path.as_os_str().is_empty() || path.as_os_str() == NO_EVALUATOR {
        tracing::info!("no evaluator (engine.evaluator = \"none\"): {without}");
        return Ok(None);
    }
    let evaluator = Evaluator::load(path).map_err(|e| e.to_string())?;
    tracing::info!(evaluator = %path.display(), "learned evaluator loaded");
    Ok(Some(Arc::new(evaluator)))
}

/// The alpha-beta search the configuration asks for: move ordering from `engine.weights`
/// (`"none"` = the built-in proximity ordering), leaves scored by `engine.evaluator` (`"none"`
/// = the built-in formula). A missing or broken file is an error naming it.
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
        self.search.set_watch(super::mcts_generator::watch(&budget));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SearchKind;
    use crate::engine::{build_generator, Engine};

    fn config() -> EngineConfig {
        let mut c = EngineConfig::builtin();
        c.engine.search = SearchKind::AlphaBeta;
        c.engine.threads = 1;
        c.engine.weights = NO_WEIGHTS.into();
        c.engine.evaluator = NO_EVALUATOR.into();
        c.alphabeta.max_nodes = 2000;
        c.alphabeta.hash_mb = 2;
        c
    }

    #[test]
    fn builds_from_config_with_fallbacks_and_clear_errors() {
        let dir = tempfile::tempdir().unwrap();
        let mut c = config();
        // A missing weights file is an error naming it, as for the MCTS.
        let mut missing = c.clone();
        missing.engine.weights = dir.path().join("absent.weights");
        let err = build_generator(&missing).err().unwrap();
        assert!(
            err.contains("absent.weights") && err.contains("missing"),
            "{err}"
        );
        // So is a missing evaluator.
        let mut missing = c.clone();
        missing.engine.evaluator = dir.path().join("absent.eval");
        let err = build_generator(&missing).err().unwrap();
        assert!(
            err.contains("absent.eval") && err.contains("missing"),
            "{err}"
        );
        // weights = "none", evaluator = "none": proximity ordering and the fixed formula.
        let mut e = Engine::new(19, build_generator(&c).unwrap()).unwrap();
        for _ in 0..3 {
            let colour = e.board().to_move();
            let before = e.board().clone();
            let p = e.genmove(colour).unwrap();
            assert!(before.is_empty_at(p));
        }
        assert!(!e.analysis().unwrap().children.is_empty());
        assert_eq!(e.analysis().unwrap().stone_count, 2);
        let policy = e.policy().unwrap();
        assert!((policy.iter().map(|x| x.1).sum::<f32>() - 1.0).abs() < 1e-3);

        // Both files present and good.
        let eval_path = dir.path().join("good.eval");
        crate::eval::testing::sample_evaluator()
            .save(&eval_path)
            .unwrap();
        let weights = dir.path().join("good.weights");
        Gammas::uniform().save(&weights).unwrap();
        c.engine.evaluator = eval_path;
        c.engine.weights = weights;
        assert!(build_generator(&c).is_ok());

        // A damaged evaluator is an error naming the file, for alpha-beta, for leaf values and
        // for cut-offs.
        let bad = dir.path().join("bad.eval");
        std::fs::write(&bad, "liuzi-eval 1\n").unwrap();
        c.engine.evaluator = bad;
        let err = build_generator(&c).err().unwrap();
        assert!(err.contains("bad.eval"), "{err}");
        c.engine.search = SearchKind::Mcts;
        assert!(c.search.value_mix > 0.0, "leaf values are on by default");
        let err = build_generator(&c).err().unwrap();
        assert!(err.contains("bad.eval"), "{err}");
        c.search.value_mix = 0.0;
        assert!(
            build_generator(&c).is_ok(),
            "no cut-off, no leaf values: the evaluator is not read"
        );
        c.search.playout_cutoff = 20;
        let err = build_generator(&c).err().unwrap();
        assert!(err.contains("bad.eval"), "{err}");
        // No evaluator with a cut-off: full playouts.
        c.engine.evaluator = NO_EVALUATOR.into();
        assert!(build_generator(&c).is_ok());
        // Bad alpha-beta parameters name the key.
        c.engine.search = SearchKind::AlphaBeta;
        c.alphabeta.width = 0;
        let err = build_generator(&c).err().unwrap();
        assert!(err.contains("alphabeta.width"), "{err}");
    }
}
