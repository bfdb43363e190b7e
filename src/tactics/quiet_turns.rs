//! Finding quiet wins in threat space. [`defender_lost`] proves a quiet turn once it is on the
//! board; the MCTS tree rarely proposes the turn, because its priors and playouts do not favour
//! a pair that threatens nothing yet (docs/tactics.md, the solver). Here the
//! candidates come from the attacker's lines instead: the cells that add most to its live
//! windows (windows holding none of the defender's stones), paired, best pairs first. A cheap
//! screen asks whether the attacker would have a VCDT if the defender passed; only turns that
//! pass it get the full proof.

use super::quiet_win::{defender_lost, QuietWin, QuietWinLimits};
use super::solver::{Solver, SolverLimits};
use super::threat_board::ThreatBoard;
use crate::patterns::{CellSet, Geometry};
use crate::rules::Color;
use web_time::Instant;

/// Worth of a live window by the attacker's stones in it once the turn is placed: a window of 4
/// is a threat, one of 3 becomes a threat with one stone next turn, one of 2 with two.
const WINDOW_WORTH: [u32; 7] = [0, 1, 3, 9, 27, 27, 27];

/// Limits of one search for a quiet turn.
#[derive(Clone, Debug, PartialEq)]
pub struct QuietTurnLimits {
    /// First stones of the candidate turns ([`quiet_candidates`]).
    pub cells: usize,
    /// Candidate turns tried, best first.
    pub turns: usize,
    /// Node limit of the screen: the attacker's VCDT if the defender passed after the turn.
    pub screen_nodes: u64,
    /// The proof of each turn that passes the screen; its `max_nodes` and `max_time` bound the
    /// whole search.
    pub proof: QuietWinLimits,
}

impl Default for QuietTurnLimits {
    fn default() -> QuietTurnLimits {
        QuietTurnLimits {
            cells: 12,
            turns: 120,
            screen_nodes: 5_000,
            proof: QuietWinLimits::default(),
        }
    }
}

/// The answer of [`find_quiet_turn`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuietTurn {
    /// These cells (the stones left in the attacker's turn) leave the defender lost.
    Win(Vec<u16>),
    /// No candidate does, within the candidates' model (no proof that none exists).
    None,
    /// A limit was hit first.
    Unknown,
}

/// What `cells`, placed by `attacker`, add to the worth of its live windows.
fn gain(tb: &ThreatBoard, geometry: &Geometry, attacker: Color, cells: &[u16]) -> u32 {
    let windows = tb.windows();
    let mut seen: Vec<u16> = Vec::new();
    let mut total = 0;
    for &cell in cells {
        for &w in geometry.windows_of(cell as usize) {
            if seen.contains(&w) || windows.count(w as usize, attacker.opponent()) > 0 {
                continue;
            }
            seen.push(w);
            let before = windows.count(w as usize, attacker) as usize;
            let added = geometry.windows[w as usize]
                .iter()
                .filter(|c| cells.contains(c))
                .count();
            total += WINDOW_WORTH[(before + added).min(6)] - WINDOW_WORTH[before];
        }
    }
    total
}

/// The empty cells of `attacker`'s live windows that hold one of its stones or more, by what a
/// stone there adds to them, best first, at most `max`.
pub fn quiet_cells(tb: &ThreatBoard, attacker: Color, max: usize) -> Vec<u16> {
    let geometry = Geometry::for_size(tb.size());
    let windows = tb.windows();
    let mut pool = CellSet::new();
    for w in 0..geometry.windows.len() {
        if windows.count(w, attacker) == 0 || windows.count(w, attacker.opponent()) > 0 {
            continue;
        }
        for &c in &geometry.windows[w] {
            if tb.get(c as usize).is_none() {
                pool.insert(c as usize);
            }
        }
    }
    let mut scored: Vec<(u32, u16)> = pool
        .iter()
        .map(|c| (gain(tb, geometry, attacker, &[c as u16]), c as u16))
        .collect();
    scored.sort_by_key(|&(worth, cell)| (std::cmp::Reverse(worth), cell));
    scored.truncate(max);
    scored.into_iter().map(|(_, c)| c).collect()
}

/// Candidate turns of `stones` (1 or 2) stones for `attacker`, at most `max`: the `cells` best
/// single cells, or pairs of one of them with one of the `3 * cells` best, ordered by what the
/// pair adds together (a window through both counts once, with both stones: a second stone that
/// builds on the first ranks above one that builds alone).
pub fn quiet_candidates(
    tb: &ThreatBoard,
    attacker: Color,
    stones: u8,
    cells: usize,
    max: usize,
) -> Vec<Vec<u16>> {
    if stones < 2 {
        let mut best = quiet_cells(tb, attacker, cells.min(max));
        best.truncate(max);
        return best.into_iter().map(|c| vec![c]).collect();
    }
    let pool = quiet_cells(tb, attacker, 3 * cells);
    let geometry = Geometry::for_size(tb.size());
    let mut pairs: Vec<(u32, [u16; 2])> = Vec::new();
    for (i, &a) in pool.iter().enumerate().take(cells) {
        for (j, &b) in pool.iter().enumerate() {
            // Each pair once: with both among the firsts, only in pool order.
            if j == i || (j < cells && j < i) {
                continue;
            }
            let pair = [a.min(b), a.max(b)];
            pairs.push((gain(tb, geometry, attacker, &pair), pair));
        }
    }
    pairs.sort_by_key(|&(worth, pair)| (std::cmp::Reverse(worth), pair));
    pairs.truncate(max);
    pairs.into_iter().map(|(_, p)| p.to_vec()).collect()
}

/// A turn of `stones` stones for `attacker` on `tb` after which the defender, whatever pair it
/// plays, is lost to `attacker`'s VCDT, among the [`quiet_candidates`]. `tb` is left as it was;
/// the solver's limits are restored.
pub fn find_quiet_turn(
    solver: &mut Solver,
    tb: &mut ThreatBoard,
    attacker: Color,
    stones: u8,
    limits: &QuietTurnLimits,
) -> QuietTurn {
    let saved = solver.limits.clone();
    let answer = search(solver, tb, attacker, stones, limits);
    solver.limits = saved;
    answer
}

fn search(
    solver: &mut Solver,
    tb: &mut ThreatBoard,
    attacker: Color,
    stones: u8,
    limits: &QuietTurnLimits,
) -> QuietTurn {
    let start = Instant::now();
    let deadline = limits.proof.max_time.map(|t| start + t);
    let first_nodes = solver.total_nodes();
    let mut limited = false;
    for turn in quiet_candidates(tb, attacker, stones, limits.cells, limits.turns) {
        let spent = solver.total_nodes() - first_nodes;
        if spent >= limits.proof.max_nodes || deadline.is_some_and(|d| Instant::now() >= d) {
            return QuietTurn::Unknown;
        }
        let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        for &c in &turn {
            tb.place(c as usize, attacker);
        }
        // A six is no quiet turn (the solver's own wins come first); neither is one the
        // attacker could not follow with a VCDT even if the defender passed.
        let screened = !tb.has_six(attacker) && {
            solver.limits = SolverLimits {
                max_nodes: limits.screen_nodes,
                max_time: left,
                free_reach: limits.proof.free_reach,
                ..SolverLimits::default()
            };
            solver.solve_on(tb, attacker, 2).is_win()
        };
        let answer = if screened {
            let spent = solver.total_nodes() - first_nodes;
            let proof = QuietWinLimits {
                max_nodes: limits.proof.max_nodes.saturating_sub(spent).max(1),
                max_time: left,
                ..limits.proof.clone()
            };
            defender_lost(solver, tb, attacker.opponent(), &proof)
        } else {
            QuietWin::None
        };
        for _ in &turn {
            tb.remove_last();
        }
        match answer {
            QuietWin::Win => return QuietTurn::Win(turn),
            QuietWin::Unknown => limited = true,
            QuietWin::None => {}
        }
    }
    if limited {
        QuietTurn::Unknown
    } else {
        QuietTurn::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::format_games;
    use crate::tactics::suite::replay;

    fn ample() -> QuietTurnLimits {
        QuietTurnLimits {
            proof: QuietWinLimits {
                vcdt_nodes: 1_000_000,
                verify_nodes: 20_000,
                max_nodes: 200_000_000,
                ..QuietWinLimits::default()
            },
            ..QuietTurnLimits::default()
        }
    }

    fn names(tb: &ThreatBoard, cells: &[u16]) -> Vec<String> {
        cells
            .iter()
            .map(|&c| format_games(tb.point(c as usize)))
            .collect()
    }

    /// The quiet turn found for the side to move after `moves`, checked by an independent proof.
    fn found(moves: &str) -> Option<Vec<String>> {
        let board = replay(moves).expect("a legal game");
        let mut tb = ThreatBoard::from_board(&board);
        let mut solver = Solver::new(SolverLimits::default());
        let attacker = board.to_move();
        let answer = find_quiet_turn(&mut solver, &mut tb, attacker, 2, &ample());
        assert_eq!(
            tb.hash(),
            ThreatBoard::from_board(&board).hash(),
            "tb restored"
        );
        let QuietTurn::Win(turn) = answer else {
            return None;
        };
        for &c in &turn {
            tb.place(c as usize, attacker);
        }
        let mut fresh = Solver::new(SolverLimits::default());
        let limits = ample().proof;
        assert_eq!(
            defender_lost(&mut fresh, &mut tb, attacker.opponent(), &limits),
            QuietWin::Win
        );
        Some(names(&tb, &turn))
    }

    /// Cloudict's quiet wins from two games against Liuzi depth 4 (`quiet_win`'s tests and
    /// `mcts/quiet_wins`'s): the candidates from threat space find a winning turn before they
    /// are played, with no tree to propose them.
    #[test]
    fn cloudicts_quiet_wins_are_found_from_threat_space() {
        assert!(found("h13 i9-j7 g14-h15 f13-c15").is_some());
        assert!(found("l10 h10-j11 k11-j12 i13-h12").is_some());
    }

    #[test]
    fn no_quiet_win_in_an_open_position() {
        assert_eq!(found("j10 k10-k11"), None);
        assert_eq!(found("j10 k10-k11 j11-j9"), None);
    }

    #[test]
    fn candidates_build_on_the_attackers_lines() {
        let board = replay("h13 i9-j7 g14-h15 f13-c15").unwrap();
        let tb = ThreatBoard::from_board(&board);
        let cells = quiet_cells(&tb, Color::Black, 36);
        assert_eq!(cells.len(), 36);
        // Every candidate cell is empty and lies in a window holding a black stone and no
        // white one; the best adds most.
        let geometry = Geometry::for_size(19);
        let windows = tb.windows();
        for &c in &cells {
            assert!(tb.get(c as usize).is_none());
            assert!(geometry.windows_of(c as usize).iter().any(|&w| {
                windows.count(w as usize, Color::Black) > 0
                    && windows.count(w as usize, Color::White) == 0
            }));
        }
        let worth = |c: &[u16]| gain(&tb, geometry, Color::Black, c);
        assert!(cells.windows(2).all(|w| worth(&w[..1]) >= worth(&w[1..])));
        // Pairs: each once, best first, each with one of the 12 best cells.
        let pairs = quiet_candidates(&tb, Color::Black, 2, 12, 1000);
        let mut seen = std::collections::HashSet::new();
        assert!(pairs.iter().all(|p| seen.insert(p.clone())));
        assert!(pairs
            .iter()
            .all(|p| p.iter().any(|c| cells[..12].contains(c))));
        assert!(pairs.windows(2).all(|w| worth(&w[0]) >= worth(&w[1])));
        assert_eq!(pairs.len(), 12 * 11 / 2 + 12 * 24);
        assert_eq!(quiet_candidates(&tb, Color::Black, 2, 12, 50).len(), 50);
        let singles = quiet_candidates(&tb, Color::Black, 1, 12, 1000);
        assert_eq!(singles.len(), 12);
    }

    #[test]
    fn a_spent_budget_is_unknown() {
        let board = replay("h13 i9-j7 g14-h15 f13-c15").unwrap();
        let mut tb = ThreatBoard::from_board(&board);
        let mut solver = Solver::new(SolverLimits::default());
        let tight = QuietTurnLimits {
            proof: QuietWinLimits {
                max_nodes: 1,
                ..QuietWinLimits::default()
            },
            ..QuietTurnLimits::default()
        };
        let answer = find_quiet_turn(&mut solver, &mut tb, Color::Black, 2, &tight);
        assert_eq!(answer, QuietTurn::Unknown);
    }
}
