//! The pair check (`search.solver_pair_check_share`): after the search, the pair it would play
//! is checked against the opponent's threat wins that the tree's small solves cannot see: a VCDT
//! solved with the root's node limit, and a win that starts with a single threat
//! ([`single_threat_win`]: a four plus a building stone, after which no block-and-free-stone
//! pair of ours stops a VCDT). These are how Cloudict wins most of its games against us
//! (docs/README-strength.md section 9). A pair proven lost is marked so in the tree, the loss
//! backs up, and the next best pair is checked while the check's time lasts.

use super::node::Proof;
use super::proofs::{propagate, root_choice};
use super::tree::{Tree, ROOT};
use super::Search;
use crate::notation::format_gtp;
use crate::rules::{Board, Point, Stage};
use crate::search::common::PositionFactory;
use crate::tactics::{
    single_threat_win, SingleThreat, SingleThreatLimits, Solver, SolverLimits, ThreatBoard, Verdict,
};
use std::time::Instant;

/// With a playout limit and no clock, each check places at most this many solver stones per
/// playout of the stone's limit (a solver stone costs about a third of a microsecond, a playout
/// some tens), so fixed-playout searches stay reproducible and their checks small.
pub(super) const NODES_PER_PLAYOUT: u64 = 20;

/// How far one check may go.
#[derive(Clone, Copy, Debug)]
pub(super) struct CheckBudget {
    pub deadline: Option<Instant>,
    /// Solver stones of each check.
    pub nodes: u64,
}

/// The edges from the root to the last stone of the turn the search would play now: the root
/// child it would choose, and at a turn's first stone that child's most visited child not
/// proven lost. `None` when there is no such pair yet.
fn chosen_pair(tree: &Tree, stage: Stage) -> Option<Vec<u32>> {
    let first = root_choice(tree)?;
    if stage == Stage::Second {
        return Some(vec![first]);
    }
    let children = tree.children(first)?;
    let second = children
        .range()
        .filter(|&i| tree.edge(i).proof() == Proof::Unknown && tree.edge(i).stats().visits > 0)
        .max_by_key(|&i| {
            let s = tree.edge(i).stats();
            (s.visits, s.mean_key(), u32::MAX - i)
        })?;
    Some(vec![first, second])
}

/// How the opponent wins once `board` (ours to move) has our `stones`, the rest of our turn: a
/// VCDT within `vcdt_nodes`, or a single-threat win within the budget. `None` (nothing found)
/// is no proof of safety.
pub(super) fn pair_lost(
    solver: &mut Solver,
    board: &Board,
    stones: &[Point],
    vcdt_nodes: u64,
    free_reach: u8,
    budget: CheckBudget,
) -> Option<String> {
    let mut after = board.clone();
    for &p in stones {
        after.play(p).ok()?;
    }
    if after.is_over() {
        return None;
    }
    let left = || {
        budget
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    };
    let start_nodes = solver.total_nodes();
    solver.limits = SolverLimits {
        max_nodes: vcdt_nodes.min(budget.nodes).max(1),
        max_time: left(),
        free_reach,
        ..SolverLimits::default()
    };
    if let Verdict::Win(proof) = solver.solve(&after) {
        let line: Vec<String> = proof.line.iter().map(|&p| format_gtp(p)).collect();
        return Some(format!("VCDT {}", line.join(" ")));
    }
    let spent = solver.total_nodes() - start_nodes;
    let limits = SingleThreatLimits {
        max_nodes: budget.nodes.saturating_sub(spent).max(1),
        max_time: left(),
        free_reach,
        ..SingleThreatLimits::default()
    };
    let mut tb = ThreatBoard::from_board(&after);
    match single_threat_win(solver, &mut tb, after.to_move(), &limits) {
        SingleThreat::Win(turn) => Some(format!(
            "single threat {} {}",
            format_gtp(turn[0]),
            format_gtp(turn[1])
        )),
        SingleThreat::None | SingleThreat::Unknown => None,
    }
}

impl<F: PositionFactory> Search<F> {
    /// Checks the pair the search would play, and the next best while pairs are proven lost and
    /// the budget's time lasts. Each position is checked once per game. Returns whether any pair
    /// was marked lost.
    pub(super) fn check_pairs(&mut self, board: &Board, budget: CheckBudget) -> bool {
        let size = board.size();
        let area = size * size;
        let mut marked = false;
        while budget.deadline.is_none_or(|d| Instant::now() < d) {
            let Some(path) = chosen_pair(&self.tree, board.stage()) else {
                break;
            };
            let stones: Vec<Point> = path
                .iter()
                .map(|&e| Point::from_index(self.tree.edge(e).cell() as usize, size))
                .collect();
            let mut key_board = board.clone();
            for &p in &stones {
                let _ = key_board.play(p);
            }
            if !self.checked_pairs.insert(key_board.hash()) {
                break;
            }
            let tactics = &self.params.tactics;
            let Some(why) = pair_lost(
                &mut self.solver,
                board,
                &stones,
                tactics.solver_root_nodes,
                tactics.solver_free_reach,
                budget,
            ) else {
                break;
            };
            let names: Vec<String> = stones.iter().map(|&p| format_gtp(p)).collect();
            tracing::info!("pair check: {} loses to {why}", names.join(" "));
            let last = *path.last().expect("a pair has a stone");
            self.tree.edge(last).set_proof(Proof::Loss);
            let mut full = vec![ROOT];
            full.extend(&path);
            propagate(&self.tree, &full, board.stone_count(), area);
            marked = true;
        }
        marked
    }
}
