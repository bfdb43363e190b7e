//! Solver speed: solves every position of the built-in regression suite and counts stones placed
//! per second (`liuzi bench-solver`).

use super::solver::{Solver, SolverLimits, Verdict};
use super::suite::{parse_suite, Expect};
use super::threat_board::ThreatBoard;
use std::time::Instant;

/// The regression suite, built in so the benchmark runs anywhere.
const SUITE: &str = include_str!("../../tests/data/vcdt.txt");

#[derive(Clone, Debug, PartialEq)]
pub struct BenchReport {
    pub positions: usize,
    pub wins: usize,
    pub no_vcdt: usize,
    pub unknown: usize,
    /// Stones placed by the solver.
    pub nodes: u64,
    pub seconds: f64,
}

impl BenchReport {
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.seconds.max(1e-9)
    }
}

/// Solves each suite position `repeat` times, with a fresh solver each time so the transposition
/// table does not carry over: `win` and `none` positions for the side to move, `defend` positions
/// for the opponent after a pass (the first step of the defensive query).
pub fn bench(limits: &SolverLimits, repeat: usize) -> BenchReport {
    let cases = parse_suite(SUITE).expect("the built-in suite parses");
    let mut report = BenchReport {
        positions: 0,
        wins: 0,
        no_vcdt: 0,
        unknown: 0,
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
