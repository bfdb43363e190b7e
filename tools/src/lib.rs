//! Shared code of the offline tools.

pub mod stats;
