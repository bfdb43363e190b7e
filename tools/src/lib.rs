//! Shared code of the offline tools: the Bradley-Terry trainer with the generic MM core
//! ([`bt_train`], whose fitter the ratings use too), the evaluator's trainer ([`eval_train`]), the
//! match runner, engine ratings and match statistics, and the self-play generator ([`selfplay`])
//! whose games (with the search's values) the evaluator's trainer reads.

pub mod bt_train;
pub mod eval_train;
pub mod line_file;
pub mod match_runner;
pub mod progress;
pub mod rating;
pub mod report;
pub mod selfplay;
pub mod stats;
pub mod stderr_log;
pub mod tune;
