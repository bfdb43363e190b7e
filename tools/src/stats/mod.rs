//! Match statistics: Elo difference, confidence interval, LOS and the SPRT.

pub mod elo;
pub mod sprt;

pub use elo::{elo_estimate, elo_from_score, format_elo, los, score_from_elo, EloEstimate, Wdl};
pub use sprt::{EloModel, Pentanomial, SprtConfig, SprtDecision, SprtStatus};
