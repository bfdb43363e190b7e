//! Alpha-beta: the classical baseline next to the MCTS (Rapfi's `search/ab` beside
//! `search/mcts`), for comparing search methods on equal terms.
//!
//! * Iterative deepening over a negamax with one stone per ply; the sign of a child's score
//!   flips only when the player changes ([`search`](self::search)).
//! * Move ordering by the Bradley-Terry weights of the policy board, a candidate width limit,
//!   forced blocks never cut ([`order`](self::order)).
//! * A transposition table keyed by `Board::hash` (stones and stage) ([`tt`](self::tt)).
//! * Leaves scored by the learned evaluator, or a fixed formula without it ([`leaf`](self::leaf)).
//! * The same threat rules and per-stone time budgets as the MCTS.

mod leaf;
mod order;
mod params;
pub mod score;
mod search;
mod tt;

pub use leaf::{heuristic_probability, LeafEvaluator};
pub use params::AlphaBetaParams;
pub use search::{AlphaBeta, RootMove};

#[cfg(test)]
mod tests;
