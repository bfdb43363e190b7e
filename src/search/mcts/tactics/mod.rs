//! The in-tree tactics (docs/search.md, in-tree tactics; docs/tactics.md): the threat solver's
//! work on the MCTS tree, behind the one hook the core calls.
//!
//! * [`NodeTactics`], one a worker, at the nodes of its descents: the expansion's solve (a proof
//!   or a defence zone), the deep solve of a node that earned it ([`node_solves`]), and the
//!   pair defence of a node whose children are a defence zone ([`tree_pair`]).
//! * [`RootTactics`], the search's, at the root: before the search, the root plan and its marks
//!   ([`root_plan`]); after it, the quiet-win check ([`quiet_wins`]) and the pair check
//!   ([`pair_check`]), then the pair verification ([`RootTactics::verify`], in [`verify`]).
//!
//! The tactics work on what the hook hands them: the tree ([`Tree`]), the position and the
//! settings. They mark edges proven; the core backs up the proofs found in a descent, and the
//! root's checks back theirs up through the core's `proven`.

mod node_solves;
mod pair_check;
mod quiet_wins;
mod root_plan;
mod tree_pair;
mod verify;

pub(super) use node_solves::Finding;

use super::tree::Tree;
use super::SearchParams;
use crate::patterns::CellSet;
use crate::rules::{Board, Color, Point};
use crate::search::common::{Limits, PositionJudge, RootPlan};
use crate::tactics::{Solver, SolverLimits};
use pair_check::CheckBudget;
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use web_time::Instant;

/// A node of a descent as the tactics see it.
pub(super) struct Visit<'a> {
    pub tree: &'a Tree,
    /// The node's edge, never the root.
    pub edge: u32,
    /// Plies below the root.
    pub depth: usize,
    /// The node's visits before this descent.
    pub visits: u32,
    /// The position at the node.
    pub board: &'a Board,
    /// The player who placed the edge's stone.
    pub mover: Color,
}

/// One worker's in-tree tactics: the small solves at the nodes its descents reach. A proof
/// marks the edge; the caller backs it up.
pub(super) struct NodeTactics<'a> {
    solver: Solver,
    params: &'a SearchParams,
    /// Solver stones the pair defences of this run of the workers have spent, all workers
    /// together (`solver_tree_pair_search_nodes`).
    pair_nodes: &'a AtomicU64,
}

impl<'a> NodeTactics<'a> {
    /// A worker's tactics, or `None` when the tree's solves are off (no proofs, or
    /// `solver_tree_nodes` 0).
    pub fn new(params: &'a SearchParams, pair_nodes: &'a AtomicU64) -> Option<NodeTactics<'a>> {
        (params.tactics.solver && params.tactics.solver_tree_nodes > 0).then(|| NodeTactics {
            solver: node_solves::tree_solver(&params.tactics),
            params,
            pair_nodes,
        })
    }

    /// At a leaf about to be expanded: the expansion's solve, within `solver_tree_plies`. A
    /// proof marks the edge; otherwise the opponent's threat gives a defence zone
    /// (`solver_tree_defence`) for its children.
    pub fn at_expansion(&mut self, at: &Visit) -> Finding {
        let tactics = &self.params.tactics;
        if at.depth as u32 > tactics.solver_tree_plies {
            return Finding::Nothing;
        }
        let proof = node_solves::expansion_proof(&mut self.solver, at.board, at.mover);
        if let Some(w) = super::proven::proven_winner(proof, at.mover) {
            at.tree.edge(at.edge).set_proof(proof);
            return Finding::Winner(w);
        }
        if tactics.solver_tree_defence {
            if let Some(zone) = node_solves::defence_zone(&mut self.solver, at.board) {
                return Finding::Zone(zone);
            }
        }
        Finding::Nothing
    }

    /// At an expanded node: the deep solve, once the node has `solver_deep_visits` visits
    /// (within `solver_tree_plies`). `None` when it did not run.
    pub fn at_expanded(&mut self, at: &Visit) -> Option<Finding> {
        let tactics = &self.params.tactics;
        let due = tactics.solver_deep_nodes > 0
            && at.visits.saturating_add(1) >= tactics.solver_deep_visits
            && at.depth as u32 <= tactics.solver_tree_plies;
        due.then(|| {
            let solver = &mut self.solver;
            node_solves::deep_solve(solver, at.tree, at.edge, at.board, at.mover, self.params)
        })
    }

    /// At a node whose children are restricted (a defence zone): the pair defence, once the
    /// node has `solver_tree_pair_visits` visits (within `solver_tree_plies` and the run's node
    /// budget). Returns the winner when no pair defends.
    pub fn pair_defence(&mut self, at: &Visit, restricted: bool) -> Option<Color> {
        let tactics = &self.params.tactics;
        let due = restricted
            && tactics.solver_tree_pair_nodes > 0
            && at.visits.saturating_add(1) >= tactics.solver_tree_pair_visits
            && at.depth as u32 <= tactics.solver_tree_plies;
        if !due {
            return None;
        }
        let spent = self.pair_nodes.load(Ordering::Relaxed);
        let budget = tree_pair::tree_pair_budget(tactics, spent);
        let s = &mut self.solver;
        let before = s.total_nodes();
        let (tree, edge, params) = (at.tree, at.edge, self.params);
        let found =
            tree_pair::pair_defence_proof(s, tree, edge, at.board, at.mover, params, budget);
        let spent = s.total_nodes() - before;
        self.pair_nodes.fetch_add(spent, Ordering::Relaxed);
        found
    }
}

/// The search's tactics at the root, and what they keep from one stone to the next.
pub(super) struct RootTactics {
    /// The threat solver of the root plan and the checks.
    solver: Solver,
    /// Positions after one of our pairs that the pair check has looked at (`pair_check`).
    checked_pairs: HashSet<u64>,
    /// Positions after a turn that the quiet-win check has looked at (`quiet_wins`).
    checked_quiet: HashSet<u64>,
    /// Judges the turns the search rates closely (`verify`, `params.verify_depth`).
    judge: Option<Box<dyn PositionJudge>>,
}

impl RootTactics {
    pub fn new() -> RootTactics {
        RootTactics {
            solver: Solver::new(SolverLimits::default()),
            checked_pairs: HashSet::new(),
            checked_quiet: HashSet::new(),
            judge: None,
        }
    }

    /// The judge of the pair verification; it is used when `params.verify_depth > 0`.
    pub fn set_judge(&mut self, judge: Option<Box<dyn PositionJudge>>) {
        self.judge = judge;
    }

    /// Forgets the game (new game, takeback).
    pub fn clear(&mut self) {
        self.solver.clear();
        self.checked_pairs.clear();
        self.checked_quiet.clear();
    }

    /// Before the search: the root plan for `board` (`policy`: the root's candidates and their
    /// priors). From here until [`RootTactics::done`] the solver stops when the observer of
    /// `limits` asks.
    pub fn plan(
        &mut self,
        board: &Board,
        params: &SearchParams,
        limits: &Limits,
        policy: &[(Point, f32)],
    ) -> RootPlan {
        root_plan::plan(&mut self.solver, board, params, limits, policy)
    }

    /// Marks the root's children for `plan` (`resist`: a lost position's zone, searched
    /// without proofs).
    pub fn mark_root(tree: &Tree, plan: &RootPlan, resist: Option<CellSet>) {
        root_plan::mark_root(tree, plan, resist);
    }

    /// After the search: a quiet win of ours first (found, it is played, and the pairs need no
    /// check), then the pair check, within the time to `deadline` and, with a playout limit,
    /// a node budget by the playouts.
    pub fn check(
        &mut self,
        tree: &Tree,
        params: &SearchParams,
        board: &Board,
        deadline: Option<Instant>,
        playout_cap: Option<u64>,
    ) {
        let budget = CheckBudget {
            deadline,
            nodes: playout_cap.map_or(u64::MAX, |n| {
                n.saturating_mul(pair_check::NODES_PER_PLAYOUT).max(1)
            }),
        };
        let first_nodes = self.solver.total_nodes();
        if self
            .find_quiet_win(tree, params, board, &[], budget)
            .is_none()
        {
            let spent = self.solver.total_nodes() - first_nodes;
            let left = CheckBudget {
                nodes: budget.nodes.saturating_sub(spent),
                ..budget
            };
            self.check_pairs(tree, params, board, left);
        }
    }

    /// Whether the pair verification runs at this stone: a judge, `verify_depth`, before
    /// `verify_stones`, and a clock or a playout limit to bound it.
    pub fn verifies(
        &self,
        params: &SearchParams,
        board: &Board,
        limits: &Limits,
        playout_cap: Option<u64>,
    ) -> bool {
        let verify_stones = params.verify_stones;
        !(self.judge.is_none()
            || params.verify_depth == 0
            || (verify_stones > 0 && board.stone_count() >= verify_stones as usize)
            || (limits.time.is_none() && playout_cap.is_none()))
    }

    /// The stone's search is over: the solver no longer answers to its observer.
    pub fn done(&mut self) {
        self.solver.stop = None;
    }
}
