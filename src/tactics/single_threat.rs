//! Wins that start with a single threat (the step past the VCDT model, docs/README-strength.md
//! section 8): the attacker's turn makes exactly one threat (a four, or a stone that completes
//! one, plus a building stone), the defender must block it with one stone and has one free
//! stone, and then the attacker has a VCDT that no such pair of defender stones breaks.
//!
//! Every defence of a single threat puts a stone in one of the attacker's threat windows, so the
//! turn wins when, for every empty cell `x` of those windows, no second stone completes a
//! defence ([`partner`] answers `Lost`). Turns are screened first: with the defender's best
//! blocking stone and its free stone passed, the attacker must still have a VCDT (a stone more
//! for the defender never helps the attacker), which most turns fail within a few solver nodes.
//!
//! `Win` is a proof within the solver's move model (zones taken as complete, as the root's pair
//! defence takes them); `None` means no generated turn wins, which is no proof: building stones
//! are drawn only from windows holding 2 and from cells next to the attacker's stones.

use super::defence::{partner, DefenceLimits, Partner};
use super::movegen::ordered;
use super::solver::{Solver, SolverLimits, Verdict};
use super::threat_board::ThreatBoard;
use crate::patterns::CellSet;
use crate::rules::{Color, Point};
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// Rounds of the search: each gives the turns still undecided twice the nodes per solve and
/// four times the nodes per turn.
const ROUNDS: u32 = 5;

/// Limits of one single-threat search (the node limits are those of the first round).
#[derive(Clone, Debug, PartialEq)]
pub struct SingleThreatLimits {
    /// Node limit of each screening solve (the attacker's VCDT after a turn and one block).
    pub screen_nodes: u64,
    /// Node limit of each solve of the pair checks of a turn that passed the screen.
    pub verify_nodes: u64,
    /// Stones placed by the pair checks of one turn; past it the turn stays undecided.
    pub turn_nodes: u64,
    /// Stones placed by all solves together.
    pub max_nodes: u64,
    pub max_time: Option<Duration>,
    /// Building stones may go this many cells along a line from the attacker's stones (as the
    /// solver's free stones, [`SolverLimits::free_reach`]).
    pub free_reach: u8,
}

impl Default for SingleThreatLimits {
    fn default() -> SingleThreatLimits {
        SingleThreatLimits {
            screen_nodes: 2_000,
            verify_nodes: 2_000,
            turn_nodes: 20_000,
            max_nodes: 4_000_000,
            max_time: None,
            free_reach: 1,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SingleThreat {
    /// This turn (two stones) makes one threat and wins: every defence loses to a VCDT.
    Win([Point; 2]),
    /// No generated turn wins (within the move model; not a proof).
    None,
    /// A limit was hit before every turn was decided; none was proven to win.
    Unknown,
}

/// Whether `attacker`, to place two stones on `tb`, wins with a single-threat turn. Call it after
/// the attacker's own VCDT came up empty: double-threat turns are skipped here. `tb` is left as
/// it was; the solver's limits are restored.
pub fn single_threat_win(
    solver: &mut Solver,
    tb: &mut ThreatBoard,
    attacker: Color,
    limits: &SingleThreatLimits,
) -> SingleThreat {
    let defender = attacker.opponent();
    // A threat window of either side is the VCDT's business (a six, or a forced block).
    if tb.has_threat_window(attacker) || tb.has_threat_window(defender) {
        return SingleThreat::None;
    }
    let saved = solver.limits.clone();
    let mut search = Search {
        solver,
        attacker,
        limits,
        first_node: 0,
        deadline: limits.max_time.map(|t| Instant::now() + t),
    };
    search.first_node = search.solver.total_nodes();
    let answer = search.run(tb);
    search.solver.limits = saved;
    answer
}

struct Search<'a> {
    solver: &'a mut Solver,
    attacker: Color,
    limits: &'a SingleThreatLimits,
    first_node: u64,
    deadline: Option<Instant>,
}

/// How one turn fared.
enum TurnResult {
    Wins,
    Fails,
    Unknown,
}

impl Search<'_> {
    fn run(&mut self, tb: &mut ThreatBoard) -> SingleThreat {
        // Rounds of growing budgets: a cheap look at every turn first, so a turn that wins
        // quickly is not kept waiting behind one that eats the budget.
        let mut pending = self.turns(tb);
        for round in 0..ROUNDS {
            let scale = 2u64.pow(round);
            let mut undecided = Vec::new();
            for (a, b) in pending {
                if self.out_of_budget() {
                    return SingleThreat::Unknown;
                }
                tb.place(a as usize, self.attacker);
                tb.place(b as usize, self.attacker);
                let result = self.turn_result(tb, scale);
                tb.remove_last();
                tb.remove_last();
                match result {
                    TurnResult::Wins => {
                        let p = |c: u16| tb.point(c as usize);
                        return SingleThreat::Win([p(a), p(b)]);
                    }
                    TurnResult::Fails => {}
                    TurnResult::Unknown => undecided.push((a, b)),
                }
            }
            if undecided.is_empty() {
                return SingleThreat::None;
            }
            pending = undecided;
        }
        SingleThreat::Unknown
    }

    fn out_of_budget(&self) -> bool {
        self.spent() >= self.limits.max_nodes || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn spent(&self) -> u64 {
        self.solver.total_nodes() - self.first_node
    }

    /// A solve's node limit: `nodes`, within what is left of the whole budget.
    fn solve_limits(&self, nodes: u64) -> SolverLimits {
        let left = self.limits.max_nodes.saturating_sub(self.spent()).max(1);
        SolverLimits {
            max_nodes: nodes.min(left),
            max_time: self
                .deadline
                .map(|d| d.saturating_duration_since(Instant::now())),
            free_reach: self.limits.free_reach,
            ..SolverLimits::default()
        }
    }

    /// Every unordered pair of attacker stones that leaves exactly one threat, best-ordered
    /// first stones first. A threat needs a window of 4: one stone into a window holding 3 (the
    /// other stone builds: windows holding 2, or next to the attacker's stones), or both into a
    /// window holding 2.
    fn turns(&self, tb: &mut ThreatBoard) -> Vec<(u16, u16)> {
        let attacker = self.attacker;
        let mut builders = tb.potential_cells(attacker, 2);
        builders.union_with(&tb.cells_near_stones(attacker, self.limits.free_reach));
        let mut seen = HashSet::new();
        let mut turns = Vec::new();
        let firsts = tb.potential_cells(attacker, 2);
        for a in ordered(tb, attacker, &firsts) {
            tb.place(a as usize, attacker);
            let seconds: CellSet = match tb.threats(attacker) {
                0 => tb.potential_cells(attacker, 3),
                1 => builders,
                _ => CellSet::new(),
            };
            for b in ordered(tb, attacker, &seconds) {
                if b == a || tb.get(b as usize).is_some() {
                    continue;
                }
                tb.place(b as usize, attacker);
                let single = tb.threats(attacker) == 1;
                tb.remove_last();
                if single && seen.insert((a.min(b), a.max(b))) {
                    turns.push((a, b));
                }
            }
            tb.remove_last();
        }
        turns
    }

    /// The attacker's single-threat turn is on `tb`; the solves' node limits are scaled by
    /// `scale`, the turn's by its square.
    fn turn_result(&mut self, tb: &mut ThreatBoard, scale: u64) -> TurnResult {
        let attacker = self.attacker;
        let defender = attacker.opponent();
        // Screen: the best single block, the free stone passed.
        let blocks = tb.blocking_cells(attacker);
        let Some(&screen) = ordered(tb, defender, &blocks).first() else {
            return TurnResult::Fails;
        };
        self.solver.limits = self.solve_limits(self.limits.screen_nodes * scale);
        tb.place(screen as usize, defender);
        let verdict = self.solver.solve_on(tb, attacker, 2);
        tb.remove_last();
        match verdict {
            Verdict::Win(_) => {}
            Verdict::NoVcdt => return TurnResult::Fails,
            // Screening is no proof: a turn the screen cannot decide is left undecided.
            Verdict::Unknown => return TurnResult::Unknown,
        }
        // Every stone in a threat window, with every second stone.
        let window_cells = tb.threat_window_cells(attacker);
        let mut cells = ordered(tb, defender, &window_cells);
        if let Some(i) = cells.iter().position(|&c| c == screen) {
            cells.swap(0, i);
        }
        let mut unknown = false;
        let turn_start = self.spent();
        let turn_nodes = self.limits.turn_nodes * scale * scale;
        let verify_nodes = self.limits.verify_nodes * scale;
        for x in cells {
            let left = turn_nodes.saturating_sub(self.spent() - turn_start);
            if self.out_of_budget() || left == 0 {
                return TurnResult::Unknown;
            }
            // The turn's budget bounds the partner check too: its first solve, and as many
            // verifications as the rest allows.
            self.solver.limits = self.solve_limits((verify_nodes * 4).min(left));
            let verify = self.solve_limits(verify_nodes.min(left)).max_nodes;
            let defence = DefenceLimits {
                verify_nodes: verify,
                max_verifications: (left / verify).max(1) as usize,
                max_time: self
                    .deadline
                    .map(|d| d.saturating_duration_since(Instant::now())),
            };
            match partner(self.solver, tb, defender, x as usize, &defence) {
                Partner::Alone | Partner::With(_) => return TurnResult::Fails,
                Partner::Lost => {}
                Partner::Unknown => unknown = true,
            }
        }
        if unknown {
            TurnResult::Unknown
        } else {
            TurnResult::Wins
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tactics::suite::replay;

    #[test]
    fn finds_the_four_and_building_stone_that_won_a_cloudict_game() {
        // Liuzi (White) blocked one end of Black's diagonal three with i13 (game 9 of
        // experiments/cloudict/liuzi-vs-cloudict-d4-deepzone.jsonl). Black has no VCDT, but
        // m9 (a four: one threat) with k9 leaves one after any block.
        let board = replay("l10 h10-j11 k11-j12 i13-h13").unwrap();
        let mut solver = Solver::new(SolverLimits::default());
        assert_eq!(solver.solve(&board), Verdict::NoVcdt);
        let mut tb = ThreatBoard::from_board(&board);
        let before = tb.hash();
        let found = single_threat_win(
            &mut solver,
            &mut tb,
            Color::Black,
            &SingleThreatLimits::default(),
        );
        assert_eq!(tb.hash(), before);
        let SingleThreat::Win(turn) = found else {
            panic!("no single-threat win found: {found:?}");
        };
        // The turn makes one threat, and every block of it leaves Black a VCDT.
        let mut after = board.clone();
        for p in turn {
            after.play(p);
        }
        let mut tb = ThreatBoard::from_board(&after);
        assert_eq!(tb.threats(Color::Black), 1);
        for x in tb.threat_window_cells(Color::Black).iter() {
            tb.place(x, Color::White);
            assert!(
                solver.solve_on(&mut tb, Color::Black, 2).is_win(),
                "the block at {:?} leaves no VCDT",
                tb.point(x)
            );
            tb.remove_last();
        }
    }

    #[test]
    fn no_win_where_the_defender_can_block_and_answer() {
        // After Black's first pair only (a three on the diagonal, White to reply), White to
        // move: White has no single-threat win, nor a threat to make one from.
        let board = replay("l10 h10-j11 k11-j12").unwrap();
        let mut solver = Solver::new(SolverLimits::default());
        let mut tb = ThreatBoard::from_board(&board);
        assert_eq!(
            single_threat_win(
                &mut solver,
                &mut tb,
                Color::White,
                &SingleThreatLimits::default()
            ),
            SingleThreat::None
        );
    }
}
