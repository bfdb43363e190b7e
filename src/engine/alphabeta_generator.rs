//! The alpha-beta search as the engine's move generator (`engine.search = "alphabeta"`).

use super::{Analysis, MoveGenerator, StoneBudget};
use crate::policy::Gammas;
use crate::rules::{Board, Point};
use crate::search::alphabeta::{AlphaBeta, AlphaBetaParams, LeafEvaluator};
use crate::search::common::SolverParams;
use crate::search::FALLBACK_STONE_TIME;
use std::sync::Arc;

pub struct AlphaBetaGenerator {
    search: AlphaBeta,
}

impl AlphaBetaGenerator {
    pub fn new(
        params: AlphaBetaParams,
        solver: SolverParams,
        gammas: Arc<Gammas>,
        leaf: LeafEvaluator,
    ) -> Result<Self, String> {
        Ok(AlphaBetaGenerator {
            search: AlphaBeta::new(params, gammas, leaf)?.with_solver(solver),
        })
    }

    pub fn search(&self) -> &AlphaBeta {
        &self.search
    }
}

impl MoveGenerator for AlphaBetaGenerator {
    fn generate(&mut self, board: &Board, mut limits: StoneBudget) -> Point {
        if limits.time.is_none() && self.search.params().node_limit().is_none() {
            limits.time = Some(FALLBACK_STONE_TIME);
        }
        match self.search.think(board, &limits) {
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
    /// `win_rate` the probability its score stands for.
    fn analysis(&self) -> Option<Analysis> {
        Some(self.search.analysis().clone())
    }

    fn policy(&self, board: &Board) -> Option<Vec<(Point, f32)>> {
        Some(self.search.policy(board))
    }
}
