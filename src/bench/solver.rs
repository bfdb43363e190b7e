//! `liuzi bench solver`: solves every position of the VCDT regression suite
//! ([`crate::tactics::SUITE`]) and counts stones placed per second.

use crate::tactics::suite::{parse_suite, Expect};
use crate::tactics::{Solver, SolverLimits, ThreatBoard, Verdict, SUITE};
use std::fmt::Write as _;
use web_time::Instant;

#[derive(Clone, Debug, PartialEq)]
pub struct SolverReport {
    pub positions: usize,
    pub wins: usize,
    pub no_vcdt: usize,
    pub unknown: usize,
    /// Node limit of each solve.
    pub max_nodes: u64,
    /// Stones placed by the solver.
    pub nodes: u64,
    pub seconds: f64,
}

impl SolverReport {
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.seconds.max(1e-9)
    }

    /// The lines `liuzi bench solver` prints, the last one JSON.
    pub fn text(&self) -> String {
        let mut text = String::new();
        let _ = writeln!(
            text,
            "solver: {} solves ({} wins, {} without a VCDT, {} unknown), {} nodes at most each",
            self.positions, self.wins, self.no_vcdt, self.unknown, self.max_nodes
        );
        let _ = writeln!(
            text,
            "nodes:  {} in {:.3} s, {:.0} nodes/s",
            self.nodes,
            self.seconds,
            self.nodes_per_second()
        );
        let json = serde_json::json!({
            "bench": "solver",
            "solves": self.positions,
            "wins": self.wins,
            "no_vcdt": self.no_vcdt,
            "unknown": self.unknown,
            "nodes": self.nodes,
            "seconds": self.seconds,
            "nodes_per_second": self.nodes_per_second(),
        });
        let _ = writeln!(text, "{json}");
        text
    }
}

/// Solves each suite position `repeat` times with at most `max_nodes` stones, with a fresh
/// solver each time so the transposition table does not carry over: `win` and `none` positions
/// for the side to move, `defend` positions for the opponent after a pass (the first step of the
/// defensive query).
pub fn run_solver_bench(max_nodes: u64, repeat: usize) -> SolverReport {
    let limits = SolverLimits {
        max_nodes,
        ..SolverLimits::default()
    };
    let cases = parse_suite(SUITE).expect("the built-in suite parses (checked by its test)");
    let mut report = SolverReport {
        positions: 0,
        wins: 0,
        no_vcdt: 0,
        unknown: 0,
        max_nodes,
        nodes: 0,
        seconds: 0.0,
    };
    let start = Instant::now();
    for _ in 0..repeat.max(1) {
        for case in &cases {
            let mut solver = Solver::new(limits.clone());
            let verdict = if case.expect == Expect::Defend {
                let mut tb = ThreatBoard::from_board(&case.board);
                solver.solve_on(&mut tb, case.board.to_move().opponent(), 2)
            } else {
                solver.solve(&case.board)
            };
            match verdict {
                Verdict::Win(_) => report.wins += 1,
                Verdict::NoVcdt => report.no_vcdt += 1,
                Verdict::Unknown => report.unknown += 1,
            }
            report.positions += 1;
            report.nodes += solver.total_nodes();
        }
    }
    report.seconds = start.elapsed().as_secs_f64();
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_suite_parses_and_every_solve_is_counted() {
        let cases = parse_suite(SUITE).unwrap();
        let report = run_solver_bench(200, 1);
        assert_eq!(report.positions, cases.len());
        assert_eq!(
            report.wins + report.no_vcdt + report.unknown,
            report.positions
        );
        assert!(report.nodes > 0);
        let text = report.text();
        assert!(text.trim_end().lines().last().unwrap().starts_with('{'));
    }
}
