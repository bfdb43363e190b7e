//! What the search needs from a position: the seam between the tree search and the move
//! knowledge (the Bradley-Terry policy board, or the self-contained fallback).

use crate::policy::FeatureBoard;
use crate::rules::{Board, Point};

/// The random generator of every search thread (seeded per thread for determinism).
pub type SearchRng = rand_xoshiro::Xoshiro256PlusPlus;

/// A position the search plays stones on. Each search thread owns a clone; after a playout the
/// thread restores it with `clone_from` from its root copy, so `clone_from` should reuse buffers.
pub trait SearchPosition: Clone + Send {
    fn board(&self) -> &Board;

    /// Places the next stone of the side to move. `p` is empty and the game is not over.
    fn play(&mut self, p: Point);

    /// Candidate stones for a tree node with prior weights (> 0, any scale): P(m) is the weight
    /// over the sum of the candidates' weights. Order is free; the search sorts by weight.
    fn candidates(&self, out: &mut Vec<(Point, f32)>);

    /// Stones that let the side to move complete a six within this turn: with two stones to
    /// go, either stone of a completing pair; with one, the completing stone. Cleared first.
    fn winning_points(&self, out: &mut Vec<Point>);

    /// Empty cells of the opponent's six-threats: the windows of six cells the opponent could
    /// fill to six with its next two stones (at least four of its stones and none of ours).
    /// Every stone of ours must hit this set while it is not empty. Cleared first.
    fn blocking_points(&self, out: &mut Vec<Point>);

    /// How many opponent six-threat windows a stone on `p` would break (playouts block
    /// greedily with the best-scoring blocking stone).
    fn block_value(&self, p: Point) -> u32;

    /// A roulette-wheel draw among the empty cells by playout weight; `None` when no empty cell
    /// remains.
    fn sample_playout_stone(&mut self, rng: &mut SearchRng) -> Option<Point>;

    /// The opponent's threat count (the fewest stones that stop its six next turn), when the
    /// position keeps it incrementally; `None` when it would be a recount. A playout facing
    /// more threats than it has stones this turn ends at once: the opponent's six is certain.
    fn opponent_threat_count(&self) -> Option<u32> {
        None
    }

    /// The position's incremental feature state, if it keeps one (the leaf evaluator reads it;
    /// without it the evaluator rebuilds the pattern state from the board).
    fn features(&self) -> Option<&FeatureBoard> {
        None
    }
}

/// Builds positions from boards; owns whatever knowledge they share (e.g. the gammas).
pub trait PositionFactory: Send + Sync {
    type Position: SearchPosition;

    fn position(&self, board: &Board) -> Self::Position;

    /// Short name for logs and the bench report.
    fn name(&self) -> &'static str;
}
