//! Monte-Carlo tree search with the Bradley-Terry bias (design.md A2-A4).
//!
//! * One stone per tree ply; a node's stage and pending first stone follow from its path.
//! * Selection by the biased UCB of Ikeda & Viennot with explicit first-play urgency
//!   ([`select`](self::select)); children sorted by prior; forced sets (win, block) at
//!   expansion ([`expand`](self::expand)).
//! * Stone-level playouts: hard rules, then a roulette-wheel draw ([`playout`](self::playout)).
//! * Tree-parallel workers with virtual loss over a lock-free arena ([`tree`](self::tree),
//!   [`node`](self::node)); tree reuse by re-rooting.
//! * The threat-space solver ([`solver_hooks`](self::solver_hooks)): proven wins played at
//!   once, the opponent's threat sequences met, proven nodes in the tree.
//!
//! The search is generic over [`SearchPosition`]; [`SimplePosition`] is the self-contained
//! fallback used without gammas.
//!
//! [`alphabeta`] holds the classical baseline: iterative-deepening alpha-beta over the same
//! policy board, threat rules and time budgets.

pub mod alphabeta;
pub mod bench;
mod expand;
#[cfg(test)]
pub(crate) mod fixtures;
mod mcts;
mod node;
mod params;
mod playout;
mod policy_position;
mod position;
mod select;
mod simple;
mod solver_hooks;
mod tree;

pub use mcts::{
    ChildInfo, Decision, Limits, RootInfo, Search, SearchOutcome, SearchWatch, Watch,
    PROGRESS_INTERVAL,
};
pub use params::{PairOrder, PlayoutPolicy, SearchParams, SolverParams};
pub use policy_position::{PolicyFactory, PolicyPosition};
pub use position::{PositionFactory, SearchPosition, SearchRng};
pub use simple::{SimpleFactory, SimplePosition};

#[cfg(test)]
mod tests;
