//! Shared code of the offline tools: the generic MM core (trainer and ratings), the match
//! runner, engine ratings and match statistics.

pub mod candidates;
pub mod eval_train;
pub mod extract;
pub mod line_patterns;
pub mod match_runner;
pub mod mm;
pub mod progress;
pub mod rating;
pub mod report;
pub mod stats;
pub mod tune;
