//! Shared code of the offline tools.

pub mod match_runner;
pub mod rating;
pub mod stats;
