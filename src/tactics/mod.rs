//! Threat-space search (docs/tactics.md): exact threat analysis of a position, a VCDT solver
//! (victory by continuous double threats) and the defensive query with its relevance zone.
//!
//! Sits between `policy` and `search`: depends on `rules` and `patterns` (the incremental threat
//! windows), never on the search. [`analysis`] answers what the threats force on the next stone;
//! [`Solver`] proves wins by threat sequences; [`defend`] tells which of our stones can break the
//! opponent's, [`pair_defence`] which pairs, pruned by the zones of the proofs it finds; [`suite`] reads the regression positions ([`SUITE`], `vcdt.txt`).

pub mod analysis;
mod defence;
pub mod movegen;
mod pair_defence;
mod quiet_turns;
mod quiet_win;
mod single_threat;
mod solver;
pub mod suite;
mod threat_board;

pub use analysis::{forced_stones, Forced, ThreatInfo};
pub use defence::{
    defend, defend_on, partner, partner_besides, Defence, DefenceLimits, Partner, Threat,
};
pub use pair_defence::{pair_defence, PairDefence, PairDefenceLimits, PairThreat};
pub use quiet_turns::{find_quiet_turn, quiet_candidates, quiet_cells, QuietTurn, QuietTurnLimits};
pub use quiet_win::{defender_lost, QuietWin, QuietWinLimits};
pub use single_threat::{single_threat_win, SingleThreat, SingleThreatLimits};
pub use solver::{SolveStats, Solver, SolverLimits, StopSignal, Verdict, WinProof};
pub use threat_board::ThreatBoard;

/// The VCDT regression suite (`vcdt.txt` beside this file; format in [`suite`]): the solver's
/// tests and `liuzi bench solver` read it.
pub const SUITE: &str = include_str!("vcdt.txt");
