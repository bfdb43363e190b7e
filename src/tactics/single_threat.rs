//! Wins that start with a single threat (the step past the VCDT model, docs/tactics.md,
//! the solver): the attacker's turn makes exactly one threat (a four, or a stone that completes
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
use std::time::Duration;
use web_time::Instant;

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

/// Whether `attacker` wins with a single-threat turn on `tb`: with `stones` = 2 its whole turn is
/// to come; with 1 its first stone is the last stone on `tb`, and only its second is looked for
/// (the turn is the same proof, so nothing needs to be remembered between the two stones). Call
/// it after the attacker's own VCDT came up empty: double-threat turns are skipped here. `tb` is
/// left as it was; the solver's limits are restored.
pub fn single_threat_win(
    solver: &mut Solver,
    tb: &mut ThreatBoard,
    attacker: Color,
    stones: u8,
    limits: &SingleThreatLimits,
) -> SingleThreat {
    let defender = attacker.opponent();
    let first = match stones {
        2 => None,
        _ => match tb.last_stone() {
            Some(cell) if tb.get(cell) == Some(attacker) => Some(cell as u16),
            _ => return SingleThreat::None,
        },
    };
    // A threat window of the defender is the VCDT's business (a forced block), as is one of the
    // attacker's before its turn (a six).
    let attacker_window = first.is_none() && tb.has_threat_window(attacker);
    if attacker_window || tb.has_threat_window(defender) {
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
    let answer = search.run(tb, first);
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
    /// `first`: the attacker's first stone, already on `tb`.
    fn run(&mut self, tb: &mut ThreatBoard, first: Option<u16>) -> SingleThreat {
        // Rounds of growing budgets: a cheap look at every turn first, so a turn that wins
        // quickly is not kept waiting behind one that eats the budget.
        let mut pending = match first {
            None => self.turns(tb),
            Some(a) => {
                tb.remove_last();
                let turns = self.turns_from(tb, a, &mut HashSet::new());
                tb.place(a as usize, self.attacker);
                turns
            }
        };
        let placed = if first.is_some() { 1 } else { 2 };
        for round in 0..ROUNDS {
            let scale = 2u64.pow(round);
            let mut undecided = Vec::new();
            for (a, b) in pending {
                if self.out_of_budget() {
                    return SingleThreat::Unknown;
                }
                if placed == 2 {
                    tb.place(a as usize, self.attacker);
                }
                tb.place(b as usize, self.attacker);
                let result = self.turn_result(tb, scale);
                for _ in 0..placed {
                    tb.remove_last();
                }
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
        self.spent() >= self.limits.max_nodes
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .solver
                .stop
                .as_ref()
                .is_some_and(|s| s.stop_requested())
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
        let mut seen = HashSet::new();
        let firsts = tb.potential_cells(self.attacker, 2);
        let mut turns = Vec::new();
        for a in ordered(tb, self.attacker, &firsts) {
            turns.extend(self.turns_from(tb, a, &mut seen));
        }
        turns
    }

    /// The turns of [`Search::turns`] with first stone `a` (empty on `tb`), as `(a, b)`, without
    /// the unordered pairs already in `seen`.
    fn turns_from(
        &self,
        tb: &mut ThreatBoard,
        a: u16,
        seen: &mut HashSet<(u16, u16)>,
    ) -> Vec<(u16, u16)> {
        let attacker = self.attacker;
        let mut turns = Vec::new();
        tb.place(a as usize, attacker);
        let seconds: CellSet = match tb.threats(attacker) {
            0 => tb.potential_cells(attacker, 3),
            1 => {
                let mut builders = tb.potential_cells(attacker, 2);
                builders.union_with(&tb.cells_near_stones(attacker, self.limits.free_reach));
                builders
            }
            _ => CellSet::new(),
        };
        // `seconds` are empty cells of live windows: never `a`, never occupied.
        for b in ordered(tb, attacker, &seconds) {
            tb.place(b as usize, attacker);
            let single = tb.threats(attacker) == 1;
            tb.remove_last();
            if single && seen.insert((a.min(b), a.max(b))) {
                turns.push((a, b));
            }
        }
        tb.remove_last();
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
            2,
            &SingleThreatLimits::default(),
        );
        assert_eq!(tb.hash(), before);
        let SingleThreat::Win(turn) = found else {
            panic!("no single-threat win found: {found:?}");
        };
        // The turn makes one threat, and every block of it leaves Black a VCDT.
        let mut after = board.clone();
        for p in turn {
            after.play(p).unwrap();
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
        // At the turn's second stone, the same search completes it.
        let mut half = board.clone();
        half.play(turn[0]).unwrap();
        let mut tb = ThreatBoard::from_board(&half);
        let limits = SingleThreatLimits::default();
        let second = single_threat_win(&mut solver, &mut tb, Color::Black, 1, &limits);
        assert!(
            matches!(second, SingleThreat::Win([a, _]) if a == turn[0]),
            "{second:?}"
        );
        // A first stone of the other colour is no turn to complete.
        let mut other = board.clone();
        other.play(Point::new(0, 0)).unwrap();
        let mut tb = ThreatBoard::from_board(&other);
        let limits = SingleThreatLimits::default();
        assert_eq!(
            single_threat_win(&mut solver, &mut tb, Color::White, 1, &limits),
            SingleThreat::None
        );
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
                2,
                &SingleThreatLimits::default()
            ),
            SingleThreat::None
        );
    }

    #[test]
    fn a_stop_signal_ends_the_search_and_the_solves_at_once() {
        struct Raised;
        impl crate::tactics::StopSignal for Raised {
            fn stop_requested(&self) -> bool {
                true
            }
        }
        let board = replay("l10 h10-j11 k11-j12 i13-h13").unwrap();
        let mut solver = Solver::new(SolverLimits::default());
        solver.stop = Some(std::sync::Arc::new(Raised));
        let mut tb = ThreatBoard::from_board(&board);
        let limits = SingleThreatLimits::default();
        let found = single_threat_win(&mut solver, &mut tb, Color::Black, 2, &limits);
        assert_eq!(found, SingleThreat::Unknown);
        // A solve polls it every 256 stones: far fewer than the search above needs.
        assert!(solver.total_nodes() < 1_000, "{}", solver.total_nodes());
    }
}
