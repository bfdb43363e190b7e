//! The Monte-Carlo tree search as the engine's move generator.

use super::{Analysis, MoveGenerator, StoneBudget};
use crate::eval::Evaluator;
use crate::rules::{Board, Point};
use crate::search::mcts::SearchParams;
use crate::search::{PositionFactory, PositionJudge, Search, FALLBACK_STONE_TIME};
use std::sync::Arc;

pub struct MctsGenerator<F: PositionFactory> {
    search: Search<F>,
    /// The last `generate`'s best line.
    pv: Vec<Point>,
}

impl<F: PositionFactory> MctsGenerator<F> {
    pub fn new(params: SearchParams, factory: F) -> Self {
        MctsGenerator {
            search: Search::new(params, factory),
            pv: Vec::new(),
        }
    }

    /// Scores cut-off playouts with `evaluator` (see `search.playout_cutoff`).
    pub fn with_evaluator(mut self, evaluator: Option<Arc<Evaluator>>) -> Self {
        self.search.set_evaluator(evaluator);
        self
    }

    /// Judges the pairs the search would play (see `search.verify_depth`).
    pub fn with_judge(mut self, judge: Option<Box<dyn PositionJudge>>) -> Self {
        self.search.set_judge(judge);
        self
    }

    pub fn search(&self) -> &Search<F> {
        &self.search
    }
}

impl<F: PositionFactory> MoveGenerator for MctsGenerator<F> {
    fn generate(&mut self, board: &Board, mut limits: StoneBudget) -> Point {
        if limits.time.is_none() && self.search.params().playout_limit().is_none() {
            limits.time = Some(FALLBACK_STONE_TIME);
        }
        self.pv.clear();
        match self.search.think(board, &limits) {
            Some(outcome) => {
                self.pv = outcome.pv;
                outcome.best
            }
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
        let limits = StoneBudget {
            time: None,
            ..budget
        };
        self.pv = self
            .search
            .think(board, &limits)
            .map_or_else(Vec::new, |outcome| outcome.pv);
    }

    fn new_game(&mut self, _board: &Board) {
        self.search.clear();
    }

    fn end_game(&mut self) {
        let time_use = self.search.take_time_use();
        if !time_use.is_empty() {
            tracing::info!("{time_use}");
        }
    }

    fn analysis(&self) -> Option<Analysis> {
        Some(self.search.analysis().clone())
    }

    fn principal_variation(&self) -> Vec<Point> {
        self.pv.clone()
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
    use crate::search::{proximity_gammas, PolicyFactory};
    use std::time::Duration;
    use web_time::Instant;

    fn engine(playouts: Option<u64>) -> Engine {
        let params = SearchParams {
            playouts: playouts.unwrap_or(0),
            max_nodes: 1 << 18,
            ..SearchParams::default()
        };
        let factory = PolicyFactory::new(Arc::new(proximity_gammas()));
        Engine::new(19, Box::new(MctsGenerator::new(params, factory))).unwrap()
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
