//! Quiet wins: a turn that makes no threat, after which the opponent is lost all the same. The
//! opponent, with its two stones to place, has no VCDT of its own, we have one if it passed, and
//! no pair of its stones breaks ours. That is how Cloudict wins most of the games we lose to it:
//! a quiet pair, and a turn later no defence holds (docs/tactics.md, the solver).
//!
//! Every pair that breaks our VCDT puts a stone in its defence zone (the cells the proof depends
//! on and the defender's counter-threat cells, [`defend_on`]), and the zone is taken again after
//! that first stone. So the defender is lost when every empty zone cell, as its first stone, has
//! no second stone that breaks the VCDT ([`partner`] answers `Lost`): the same proof as the
//! root's pair defence, within the solver's move model.

use super::defence::{defend_on, partner, DefenceLimits, Partner, Threat};
use super::solver::{Solver, SolverLimits, Verdict};
use super::threat_board::ThreatBoard;
use crate::patterns::CellSet;
use crate::rules::Color;
use std::time::Duration;
use web_time::Instant;

/// Verifications `partner` may make for one first stone: a zone is rarely larger, and a first
/// stone whose zone was not fully verified is no proof.
const MAX_VERIFICATIONS: usize = 400;

/// Limits of one quiet-win check.
#[derive(Clone, Debug, PartialEq)]
pub struct QuietWinLimits {
    /// Node limit of each VCDT solve: the defender's own, ours if it passed, and ours after each
    /// of its first stones.
    pub vcdt_nodes: u64,
    /// Node limit of each verification of a defender's second stone.
    pub verify_nodes: u64,
    /// Stones placed by all the solves together (checked between first stones).
    pub max_nodes: u64,
    pub max_time: Option<Duration>,
    /// The solver's free-stone reach ([`SolverLimits::free_reach`]).
    pub free_reach: u8,
}

impl Default for QuietWinLimits {
    fn default() -> QuietWinLimits {
        QuietWinLimits {
            vcdt_nodes: 20_000,
            verify_nodes: 5_000,
            max_nodes: 2_000_000,
            max_time: None,
            free_reach: 1,
        }
    }
}

/// The answer of [`defender_lost`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuietWin {
    /// The defender is lost: no pair of its stones breaks the attacker's VCDT.
    Win,
    /// The defender has a VCDT of its own, or the attacker has none, or a first stone of the
    /// defender's has a second stone that breaks it.
    None,
    /// A limit was hit first.
    Unknown,
}

/// Whether `defender`, to place both stones of its turn on `tb`, is lost to the other side's
/// VCDT whatever pair it plays. `tb` is left as it was; the solver's limits are restored.
pub fn defender_lost(
    solver: &mut Solver,
    tb: &mut ThreatBoard,
    defender: Color,
    limits: &QuietWinLimits,
) -> QuietWin {
    let saved = solver.limits.clone();
    let answer = check(solver, tb, defender, limits);
    solver.limits = saved;
    answer
}

fn check(
    solver: &mut Solver,
    tb: &mut ThreatBoard,
    defender: Color,
    limits: &QuietWinLimits,
) -> QuietWin {
    let deadline = limits.max_time.map(|t| Instant::now() + t);
    let first_nodes = solver.total_nodes();
    let left = || deadline.map(|d| d.saturating_duration_since(Instant::now()));
    let out_of_budget = |solver: &Solver| {
        solver.total_nodes() - first_nodes >= limits.max_nodes
            || deadline.is_some_and(|d| Instant::now() >= d)
    };
    solver.limits = SolverLimits {
        max_nodes: limits.vcdt_nodes,
        max_time: left(),
        free_reach: limits.free_reach,
        ..SolverLimits::default()
    };
    match solver.solve_on(tb, defender, 2) {
        Verdict::NoVcdt => {}
        Verdict::Win(_) => return QuietWin::None,
        Verdict::Unknown => return QuietWin::Unknown,
    }
    let zone_only = DefenceLimits {
        verify_nodes: limits.verify_nodes,
        max_verifications: 0,
        max_time: left(),
    };
    let defence = match defend_on(solver, tb, defender, 2, &zone_only) {
        Threat::Vcdt(d) => d,
        Threat::None => return QuietWin::None,
        Threat::Unknown => return QuietWin::Unknown,
    };
    // The threat's main line first: its cells are the likeliest breakers, so a turn that does
    // not win is usually told so by the first few first stones.
    let size = tb.size();
    let mut cells: Vec<usize> = defence.threat.line.iter().map(|p| p.index(size)).collect();
    cells.extend(defence.zone.iter());
    let mut seen = CellSet::new();
    for cell in cells {
        if seen.contains(cell) || tb.get(cell).is_some() {
            continue;
        }
        seen.insert(cell);
        if out_of_budget(solver) {
            return QuietWin::Unknown;
        }
        solver.limits.max_time = left();
        let verify = DefenceLimits {
            verify_nodes: limits.verify_nodes,
            max_verifications: MAX_VERIFICATIONS,
            max_time: left(),
        };
        match partner(solver, tb, defender, cell, &verify) {
            Partner::Lost => {}
            Partner::Alone | Partner::With(_) => return QuietWin::None,
            Partner::Unknown => return QuietWin::Unknown,
        }
    }
    QuietWin::Win
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tactics::suite::replay;

    /// `moves` in game notation, and whether the side to move is lost.
    fn lost(moves: &str, limits: &QuietWinLimits) -> QuietWin {
        let board = replay(moves).expect("a legal game");
        let mut tb = ThreatBoard::from_board(&board);
        let mut solver = Solver::new(SolverLimits::default());
        let answer = defender_lost(&mut solver, &mut tb, board.to_move(), limits);
        assert_eq!(
            tb.hash(),
            ThreatBoard::from_board(&board).hash(),
            "tb restored"
        );
        answer
    }

    fn ample() -> QuietWinLimits {
        QuietWinLimits {
            vcdt_nodes: 1_000_000,
            max_nodes: 100_000_000,
            ..QuietWinLimits::default()
        }
    }

    /// Game 5 of the `paircheck40` run against Cloudict depth 4: Cloudict's quiet pair i12 f15
    /// leaves Liuzi (White) without a defence (`tactics-audit`: lost-already, the game's end
    /// eight turns later).
    const CLOUDICT_QUIET_PAIR: &str = "h13 i9-j7 g14-h15 f13-c15 i12-f15";

    #[test]
    fn cloudicts_quiet_pair_leaves_white_lost() {
        assert_eq!(lost(CLOUDICT_QUIET_PAIR, &ample()), QuietWin::Win);
    }

    #[test]
    fn a_defended_position_is_no_quiet_win() {
        // The same turn with its second stone far away: one stone does not do it.
        assert_eq!(
            lost("h13 i9-j7 g14-h15 f13-c15 i12-s1", &ample()),
            QuietWin::None
        );
        // Nothing is threatened a move into the game.
        assert_eq!(lost("j10 k10-k11", &ample()), QuietWin::None);
    }

    #[test]
    fn a_spent_budget_is_unknown_not_a_proof() {
        let tight = QuietWinLimits {
            max_nodes: 1,
            ..QuietWinLimits::default()
        };
        assert_eq!(lost(CLOUDICT_QUIET_PAIR, &tight), QuietWin::Unknown);
    }
}
