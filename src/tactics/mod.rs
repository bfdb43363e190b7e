//! Threat-space search (design.md A2): exact threat analysis of a position, a VCDT solver
//! (victory by continuous double threats) and the defensive query with its relevance zone.
//!
//! Sits between `policy` and `search`: depends on `rules` and `patterns` (the incremental threat
//! windows), never on the search. [`analysis`] answers what the threats force on the next stone;
//! [`Solver`] proves wins by threat sequences; [`defend`] tells which of our stones can break the
//! opponent's; [`suite`] reads the regression positions; [`bench`] measures solver speed.

pub mod analysis;
mod bench;
mod defence;
pub mod movegen;
mod solver;
pub mod suite;
mod threat_board;

pub use analysis::{forced_stones, Forced, ThreatInfo};
pub use bench::{bench, BenchReport};
pub use defence::{defend, defend_on, partner, Defence, DefenceLimits, Partner, Threat};
pub use solver::{SolveStats, Solver, SolverLimits, Verdict, WinProof};
pub use threat_board::ThreatBoard;
