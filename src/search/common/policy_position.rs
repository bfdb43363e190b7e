//! The Bradley-Terry policy board as a search position: tree priors P(m) and roulette-wheel
//! playouts from the trained gammas (docs/patterns.md, gammas).

use super::position::{PositionFactory, SearchPosition, SearchRng};
use crate::policy::FeatureBoard;
use crate::policy::{Gammas, PolicyBoard, WeightsError};
use crate::rules::{Board, Point};
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::path::Path;
use std::sync::Arc;

/// How a playout draws a stone once the hard rules (complete a six, block a six) are silent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayoutPolicy {
    /// Roulette wheel by the position's playout weights (the Bradley-Terry gammas).
    Gammas,
    /// Every empty cell alike: the plain-UCT baseline of the design's key ablation.
    Uniform,
}

/// A [`PolicyBoard`] seen by the search, with the way its playouts draw free stones, the stone
/// count from which the tree priors give way to the playout gammas, and a buffer for the tree
/// priors.
pub struct PolicyPosition(
    PolicyBoard,
    PlayoutPolicy,
    usize,
    RefCell<Vec<(Point, f64)>>,
);

impl Clone for PolicyPosition {
    fn clone(&self) -> Self {
        PolicyPosition(self.0.clone(), self.1, self.2, RefCell::default())
    }

    /// The search restores its position after every playout: reuse the buffers.
    fn clone_from(&mut self, source: &Self) {
        self.0.clone_from(&source.0);
        self.1 = source.1;
        self.2 = source.2;
    }
}

impl PolicyPosition {
    pub fn policy_board(&self) -> &PolicyBoard {
        &self.0
    }
}

impl SearchPosition for PolicyPosition {
    fn board(&self) -> &Board {
        self.0.board()
    }

    fn play(&mut self, p: Point) {
        self.0
            .play(p)
            .expect("the search only plays empty points of ongoing games");
    }

    /// The tree priors: the weights file's tree model when it has one and the position is
    /// within `search.tree_prior_plies` of the root (its strengths relative to the strongest
    /// cell, so that f32 neither overflows nor loses a candidate; in a forced position only the
    /// forced stones, the only children the search gives it), else the playout weights of every
    /// legal point.
    fn candidates(&self, out: &mut Vec<(Point, f32)>) {
        out.clear();
        if self.0.gammas().tree().is_none() || self.0.board().stone_count() >= self.2 {
            self.0.for_each_weight(|p, w| out.push((p, w as f32)));
            return;
        }
        let mut strengths = self.3.borrow_mut();
        self.0.tree_strengths(&mut strengths);
        let max = strengths
            .iter()
            .map(|c| c.1)
            .fold(f64::MIN_POSITIVE, f64::max);
        out.extend(
            strengths
                .iter()
                .map(|&(p, s)| (p, ((s / max) as f32).max(f32::MIN_POSITIVE))),
        );
    }

    fn winning_points(&self, out: &mut Vec<Point>) {
        out.clear();
        let size = self.0.board().size();
        out.extend(self.0.winning_points().points(size));
    }

    /// The policy board's blocking points already belong to smallest hitting sets of the
    /// opponent's threat windows, so any of them is as good a block as another.
    fn blocking_points(&self, out: &mut Vec<Point>) {
        out.clear();
        let size = self.0.board().size();
        out.extend(self.0.blocking_points().points(size));
    }

    fn block_value(&self, _p: Point) -> u32 {
        1
    }

    fn sample_playout_stone(&mut self, rng: &mut SearchRng) -> Option<Point> {
        match self.1 {
            PlayoutPolicy::Gammas => self.0.sample(rng),
            PlayoutPolicy::Uniform => uniform_empty_point(self.0.board(), rng),
        }
    }

    fn opponent_threat_count(&self) -> Option<u32> {
        Some(self.0.opponent_threats())
    }

    fn features(&self) -> Option<&FeatureBoard> {
        Some(self.0.features())
    }
}

/// An empty point drawn uniformly: random cells until an empty one (few tries while the board
/// is mostly empty), then an exact draw among the empty points.
fn uniform_empty_point(board: &Board, rng: &mut SearchRng) -> Option<Point> {
    let size = board.size();
    for _ in 0..16 {
        let p = Point::from_index(rng.gen_range(0..size * size), size);
        if board.is_empty_at(p) {
            return Some(p);
        }
    }
    let empty = board.legal_points().count();
    if empty == 0 {
        return None;
    }
    board.legal_points().nth(rng.gen_range(0..empty))
}

/// Builds [`PolicyPosition`]s sharing one set of gammas.
#[derive(Clone)]
pub struct PolicyFactory {
    gammas: Arc<Gammas>,
    playouts: PlayoutPolicy,
    /// `search.tree_prior_plies` (0 = every depth).
    tree_plies: u32,
}

impl PolicyFactory {
    pub fn new(gammas: Arc<Gammas>) -> PolicyFactory {
        PolicyFactory {
            gammas,
            playouts: PlayoutPolicy::Gammas,
            tree_plies: 0,
        }
    }

    /// Positions that take their priors from the weights' tree section only for nodes fewer
    /// than `plies` stones below the position they were made for (0 = at every depth).
    pub fn with_tree_prior_plies(mut self, plies: u32) -> PolicyFactory {
        self.tree_plies = plies;
        self
    }

    /// Positions whose playouts draw free stones by `policy` (the tree priors still come from
    /// the gammas).
    pub fn with_playout_policy(mut self, policy: PlayoutPolicy) -> PolicyFactory {
        self.playouts = policy;
        self
    }

    /// Loads a weights file written by `liuzi-train`.
    pub fn load(path: &Path) -> Result<PolicyFactory, WeightsError> {
        Ok(PolicyFactory::new(Arc::new(Gammas::load(path)?)))
    }

    pub fn gammas(&self) -> &Arc<Gammas> {
        &self.gammas
    }
}

impl PositionFactory for PolicyFactory {
    type Position = PolicyPosition;

    fn position(&self, board: &Board) -> PolicyPosition {
        let tree_until = match self.tree_plies {
            0 => usize::MAX,
            n => board.stone_count() + n as usize,
        };
        PolicyPosition(
            PolicyBoard::new(board, Arc::clone(&self.gammas)),
            self.playouts,
            tree_until,
            RefCell::default(),
        )
    }

    fn name(&self) -> &'static str {
        match self.playouts {
            PlayoutPolicy::Gammas => "bradley-terry",
            PlayoutPolicy::Uniform => "bradley-terry tree, uniform playouts",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::common::test_support::fixtures::p;
    use crate::search::common::test_support::SimplePosition;
    use rand::SeedableRng;

    #[test]
    fn agrees_with_the_simple_position_on_wins_and_blocks() {
        let factory = PolicyFactory::new(Arc::new(Gammas::uniform()));
        let mut rng = SearchRng::seed_from_u64(4);
        for _ in 0..20 {
            let mut simple = SimplePosition::new(&Board::standard());
            let mut policy = factory.position(&Board::standard());
            let mut a = Vec::new();
            let mut b = Vec::new();
            while !simple.board().is_over() {
                simple.winning_points(&mut a);
                policy.winning_points(&mut b);
                a.sort();
                b.sort();
                assert_eq!(a, b, "{:?}", simple.board().history());
                // Every policy blocking point is one of the simple position's threat cells.
                simple.blocking_points(&mut a);
                policy.blocking_points(&mut b);
                assert!(b.iter().all(|q| a.contains(q)));
                assert_eq!(a.is_empty(), b.is_empty());
                let q = simple.sample_playout_stone(&mut rng).unwrap();
                simple.play(q);
                policy.play(q);
            }
        }
    }

    #[test]
    fn tree_priors_give_way_to_the_playout_gammas_below_their_plies() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine-config/default.weights");
        let factory = PolicyFactory::load(&path).unwrap().with_tree_prior_plies(2);
        let mut board = Board::standard();
        for q in [p(9, 9), p(10, 10), p(8, 10)] {
            board.play(q).unwrap();
        }
        let mut pos = factory.position(&board);
        let playout_weights = |pos: &PolicyPosition| {
            let mut v = Vec::new();
            pos.0.for_each_weight(|q, w| v.push((q, w as f32)));
            v
        };
        let mut priors = Vec::new();
        // Within the plies: the tree section, which ranks differently from the playout gammas.
        for _ in 0..2 {
            pos.candidates(&mut priors);
            assert_ne!(priors, playout_weights(&pos));
            let best = priors.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap().0;
            pos.play(best);
        }
        // Two stones below the root: the playout gammas, also for clones of the position.
        pos.candidates(&mut priors);
        assert_eq!(priors, playout_weights(&pos));
        let mut copy = factory.position(&Board::standard());
        copy.clone_from(&pos);
        copy.candidates(&mut priors);
        assert_eq!(priors, playout_weights(&pos));
        // Without the limit the tree section holds at every depth.
        let everywhere = PolicyFactory::load(&path).unwrap().position(pos.board());
        everywhere.candidates(&mut priors);
        assert_ne!(priors, playout_weights(&pos));
    }

    #[test]
    fn uniform_playouts_draw_every_empty_point_alike() {
        let gammas = Arc::new(Gammas::uniform());
        let factory = PolicyFactory::new(gammas).with_playout_policy(PlayoutPolicy::Uniform);
        let mut board = Board::new(7).unwrap();
        for q in [p(3, 3), p(0, 0), p(6, 6)] {
            board.play(q).unwrap();
        }
        let mut pos = factory.position(&board);
        let mut rng = SearchRng::seed_from_u64(9);
        let mut counts = [0u32; 49];
        let draws = 46_000;
        for _ in 0..draws {
            let q = pos.sample_playout_stone(&mut rng).unwrap();
            assert!(board.is_empty_at(q));
            counts[q.index(7)] += 1;
        }
        // 46 empty points, 1,000 expected draws each: 4.5 sigma is about 140.
        for q in board.legal_points() {
            let c = counts[q.index(7)];
            assert!((860..=1140).contains(&c), "{q:?} drawn {c} times");
        }
    }
}
