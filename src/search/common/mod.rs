//! The layer both searches stand on: time control ([`Limits`], the [`Clock`]), what it
//! answers ([`SearchOutcome`], [`Analysis`]), the stones that need no search
//! ([`forced_stone`]), the threat solver's root plan ([`root_plan`]), the position interface
//! ([`SearchPosition`]) with the Bradley-Terry positions and the fallback knowledge, the
//! solver's settings ([`SolverParams`]), the memory check of the settings that size an
//! allocation ([`check_memory`]) and the shipped defaults of every search setting.
//!
//! `mcts/` and `alphabeta/` import from here and never from each other.

mod fallback;
mod forced;
mod judge;
mod memory;
mod memory_limits;
mod outcome;
mod policy_position;
mod position;
mod root_plan;
mod shipped;
mod solver_params;
#[cfg(test)]
pub(crate) mod test_support;
mod time_control;

pub use fallback::proximity_gammas;
pub(crate) use forced::{forced_stone, policy_of};
pub use judge::{JudgeLimits, Judgement, PositionJudge};
pub use memory::{auto_tree_edges, check_memory, physical_memory, EDGE_BYTES, MAX_TREE_EDGES};
pub use outcome::{Analysis, ChildAnalysis, Decision, SearchOutcome};
pub use policy_position::{PlayoutPolicy, PolicyFactory, PolicyPosition};
pub use position::{PositionFactory, SearchPosition, SearchRng};
pub(crate) use root_plan::{quiet_turn_limits, root_plan, RootPlan};
pub(crate) use shipped::shipped_section;
pub use solver_params::SolverParams;
pub(crate) use time_control::min_cap;
pub use time_control::{
    Clock, Limits, StoneTime, ThinkObserver, TimeLeft, TimePolicy, TimeSettings, TimeUse,
    FALLBACK_STONE_TIME, PROGRESS_INTERVAL,
};
