//! The two searches over one shared layer (Rapfi's `search/ab` and `search/mcts`):
//!
//! * [`common`]: what both use — the limits of one stone's search, the outcome and analysis the
//!   engine reads, the stones that need no search, the threat solver's root plan, the position
//!   interface with the Bradley-Terry positions and the fallback knowledge.
//! * [`mcts`]: the Monte-Carlo tree search with the Bradley-Terry bias, the engine's default.
//! * [`alphabeta`]: the classical baseline, iterative-deepening alpha-beta over the same policy
//!   board, threat rules and time budgets.
//!
//! `mcts` and `alphabeta` import from `common` only, never from each other.

pub mod alphabeta;
pub mod common;
pub mod mcts;

pub use common::{
    proximity_gammas, Analysis, ChildAnalysis, Decision, JudgeLimits, Judgement, Limits,
    PolicyFactory, PolicyPosition, PositionFactory, PositionJudge, SearchOutcome, SearchPosition,
    SearchRng, ThinkObserver, FALLBACK_STONE_TIME, PROGRESS_INTERVAL,
};
pub use mcts::Search;
