//! The Monte-Carlo tree search as the engine's move generator.

use super::alphabeta_generator::{build_alphabeta, load_evaluator};
use super::{Analysis, ChildAnalysis, MoveGenerator, StoneBudget, ThinkObserver};
use crate::config::{EngineConfig, SearchKind};
use crate::eval::Evaluator;
use crate::rules::{Board, Point};
use crate::search::{
    ChildInfo, Limits, PolicyFactory, PositionFactory, Search, SearchParams, SearchWatch,
    SimpleFactory, Watch,
};
use std::sync::Arc;
use std::time::Duration;

/// The search the configuration asks for: Bradley-Terry knowledge from `engine.weights`. A
/// weights file that is missing or cannot be used is an error naming the file (no silent
/// fallback); `weights = "none"` asks for the self-contained fallback knowledge on purpose.
/// With `search.playout_cutoff > 0` or `search.value_mix > 0`, the search reads the evaluator of
/// `engine.evaluator` (cut-off playouts, leaf values).
/// For `engine.search = "alphabeta"`, see [`build_alphabeta`].
pub fn build_generator(config: &EngineConfig) -> Result<Box<dyn MoveGenerator>, String> {
    if config.engine.search == SearchKind::AlphaBeta {
        return build_alphabeta(config);
    }
    let params = SearchParams::from_config(config)?;
    let path = &config.engine.weights;
    // Leaf values need the pattern board of the Bradley-Terry knowledge.
    let values_leaves = params.value_mix > 0.0 && path.as_os_str() != NO_WEIGHTS;
    let evaluator = if params.playout_cutoff > 0 || values_leaves {
        load_evaluator(
            config,
            "playouts run to the end (no cut-off) and alone give the reward (no value_mix)",
        )?
    } else {
        None
    };
    if path.as_os_str() == NO_WEIGHTS {
        tracing::info!("search knowledge: built-in fallback (weights = \"none\")");
        return Ok(Box::new(
            MctsGenerator::simple(params).with_evaluator(evaluator),
        ));
    }
    let factory = PolicyFactory::load(path)
        .map_err(|e| e.to_string())?
        .with_playout_policy(params.playout_policy);
    tracing::info!(weights = %path.display(), "search knowledge: Bradley-Terry gammas");
    Ok(Box::new(
        MctsGenerator::new(params, factory).with_evaluator(evaluator),
    ))
}

/// The front-end's observer as the search sees it.
struct ObserverWatch(Arc<dyn ThinkObserver>);

impl SearchWatch for ObserverWatch {
    fn stop_requested(&self) -> bool {
        self.0.stop_requested()
    }

    fn progress(&self, playouts: u64, elapsed: Duration, root: &[ChildInfo]) {
        let children: Vec<ChildAnalysis> = root.iter().map(child_analysis).collect();
        self.0.progress(playouts, elapsed, &children);
    }
}

/// The search's view of the front-end's observer (also for the alpha-beta search).
pub(super) fn watch(budget: &StoneBudget) -> Option<Watch> {
    let observer = budget.observer.clone()?;
    Some(Watch(Arc::new(ObserverWatch(observer))))
}

fn child_analysis(c: &ChildInfo) -> ChildAnalysis {
    ChildAnalysis {
        point: c.point,
        prior: c.prior,
        visits: c.visits,
        win_rate: c.win_rate,
    }
}

/// The `engine.weights` value that selects the fallback knowledge instead of a file.
pub const NO_WEIGHTS: &str = "none";

/// Time per stone when neither the clock nor config sets one and no playout limit is set.
pub const FALLBACK_STONE_TIME: Duration = Duration::from_secs(1);

pub struct MctsGenerator<F: PositionFactory> {
    search: Search<F>,
}

impl MctsGenerator<SimpleFactory> {
    /// The search with the self-contained fallback knowledge (no gammas).
    pub fn simple(params: SearchParams) -> Self {
        MctsGenerator::new(params, SimpleFactory)
    }
}

impl<F: PositionFactory> MctsGenerator<F> {
    pub fn new(params: SearchParams, factory: F) -> Self {
        MctsGenerator {
            search: Search::new(params, factory),
        }
    }

    /// Scores cut-off playouts with `evaluator` (see `search.playout_cutoff`).
    pub fn with_evaluator(mut self, evaluator: Option<Arc<Evaluator>>) -> Self {
        self.search.set_evaluator(evaluator);
        self
    }

    pub fn search(&self) -> &Search<F> {
        &self.search
    }

    pub fn search_mut(&mut self) -> &mut Search<F> {
        &mut self.search
    }
}

impl<F: PositionFactory> MoveGenerator for MctsGenerator<F> {
    fn generate(&mut self, board: &Board, budget: StoneBudget) -> Point {
        let time = match (budget.time, self.search.params().playouts_per_stone) {
            (None, None) => Some(FALLBACK_STONE_TIME),
            (t, _) => t,
        };
        let limits = Limits {
            time,
            playouts: None,
            watch: watch(&budget),
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

    /// Searches the opponent's position with no time limit (a playout limit still holds, so
    /// a reproducible configuration stays reproducible); `reuse_tree` keeps the subtree of the
    /// stones they play.
    fn ponder(&mut self, board: &Board, budget: StoneBudget) {
        if budget.observer.is_none() {
            return; // nothing could ever stop it
        }
        let limits = Limits {
            time: None,
            playouts: None,
            watch: watch(&budget),
        };
        self.search.think(board, limits);
    }

    fn new_game(&mut self, _board: &Board) {
        self.search.clear();
    }

    fn analysis(&self) -> Option<Analysis> {
        let info = self.search.root_info();
        Some(Analysis {
            stone_count: info.stone_count,
            policy: info.policy.clone(),
            children: info.children.iter().map(child_analysis).collect(),
        })
    }

    fn policy(&self, board: &Board) -> Option<Vec<(Point, f32)>> {
        Some(self.search.policy(board))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Engine, TimeSettings};
    use crate::rules::Color;
    use std::time::Instant;

    fn engine(playouts: Option<u64>) -> Engine {
        let params = SearchParams {
            playouts_per_stone: playouts,
            max_nodes: 1 << 18,
            ..SearchParams::default()
        };
        Engine::new(19, Box::new(MctsGenerator::simple(params))).unwrap()
    }

    #[test]
    fn engine_plays_legal_stones_and_reports_analysis() {
        let mut e = engine(Some(300));
        for _ in 0..6 {
            let color = e.board().to_move();
            let before = e.board().clone();
            let p = e.genmove(color).unwrap();
            assert!(before.is_empty_at(p));
            // Black's opening stone needs no search, so it leaves no analysis.
            let Some(a) = e.analysis() else {
                assert_eq!(before.stone_count(), 0);
                continue;
            };
            assert_eq!(a.stone_count, before.stone_count());
            let total: u32 = a.children.iter().map(|c| c.visits).sum();
            assert!(total > 0);
        }
        let policy = e.policy().unwrap();
        let sum: f32 = policy.iter().map(|x| x.1).sum();
        assert!((sum - 1.0).abs() < 1e-4);
        assert!(policy.iter().all(|&(p, _)| e.board().is_empty_at(p)));
    }

    #[test]
    fn builds_from_config_with_fallback_and_clear_errors() {
        let mut config = EngineConfig::builtin();
        config.engine.threads = 1;
        // A missing file is an error like a broken one; "none" asks for the fallback.
        config.engine.weights = "/nonexistent/liuzi.weights".into();
        let err = build_generator(&config).err().unwrap();
        assert!(
            err.contains("/nonexistent/liuzi.weights") && err.contains("missing"),
            "{err}"
        );
        config.engine.weights = NO_WEIGHTS.into();
        assert!(build_generator(&config).is_ok());
        let dir = std::env::temp_dir().join(format!("liuzi-gen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.weights");
        std::fs::write(&bad, "not weights").unwrap();
        config.engine.weights = bad.clone();
        let err = build_generator(&config).err().unwrap();
        assert!(err.contains("bad.weights"), "{err}");
        let good = dir.join("good.weights");
        crate::policy::Gammas::uniform().save(&good).unwrap();
        config.engine.weights = good;
        assert!(build_generator(&config).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn engine_keeps_to_the_clock() {
        let mut e = engine(None);
        e.clock_mut().set_settings(TimeSettings {
            main: Duration::from_secs(6),
            byo_yomi: Duration::ZERO,
            byo_yomi_stones: 0,
        });
        e.clock_mut().policy.lag = Duration::from_millis(50);
        let start = Instant::now();
        for _ in 0..5 {
            let c = e.board().to_move();
            e.genmove(c).unwrap();
        }
        // 5 stones of a 30-turn plan over 6 s: well under a second and a half in all.
        assert!(
            start.elapsed() < Duration::from_millis(1500),
            "{:?}",
            start.elapsed()
        );
        let left = e.clock().left[Color::White.index()].unwrap();
        assert!(left.time < Duration::from_secs(6));
    }
}
