//! Monte-Carlo tree search with the Bradley-Terry bias (docs/search.md).
//!
//! * One stone per tree ply; a node's stage and pending first stone follow from its path.
//! * Selection by the biased UCB of Ikeda & Viennot with explicit first-play urgency
//!   ([`select`](self::select)); children sorted by prior; forced sets (win, block) at
//!   expansion ([`expand`](self::expand)).
//! * Stone-level playouts: hard rules, then a roulette-wheel draw ([`playout`](self::playout));
//!   the evaluator's leaf values remembered by edge ([`leaf_values`](self::leaf_values)).
//! * Tree-parallel workers with virtual loss over a lock-free arena ([`worker`](self::worker),
//!   [`tree`](self::tree), [`node`](self::node)); tree reuse by re-rooting ([`root`](self::root)).
//! * Proven edges backed up through the tree, MCTS-solver style ([`proven`](self::proven)).
//! * The in-tree tactics behind one hook ([`tactics`](self::tactics)): the threat solver at the
//!   nodes of the descents and at the root before and after the search.
//! * The final choice ([`choice`](self::choice)), principal variation and log line
//!   ([`outcome`](self::outcome)).

mod amaf;
mod choice;
mod ending;
mod eval_prior;
mod expand;
mod extension;
mod leaf_values;
mod minimax;
mod node;
mod outcome;
mod params;
mod playout;
mod proven;
mod root;
mod select;
mod tactics;
mod tree;
mod worker;

pub use params::{OpeningNear, PairOrder, SearchParams};

use super::common::{
    forced_stone, min_cap, policy_of, Analysis, Decision, Limits, PositionFactory, PositionJudge,
    RootPlan, SearchOutcome, StoneTime, TimeUse,
};
use crate::eval::Evaluator;
use crate::rules::{Board, Point, Stage};
use eval_prior::prior_evaluator;
use expand::{expand, ExpandScratch, Narrowing};
use std::cell::Cell;
use std::sync::Arc;
use std::time::Duration;
use tactics::RootTactics;
use tree::{Tree, ROOT};
use web_time::Instant;

/// Monte-Carlo tree search over positions built by `F`.
pub struct Search<F: PositionFactory> {
    params: SearchParams,
    factory: F,
    tree: Tree,
    /// Board size and stones at the tree's root, when the tree holds a search.
    root_history: Option<(usize, Vec<Point>)>,
    root_info: Analysis,
    /// The in-tree tactics at the root: the root plan, the checks and the verification.
    tactics: RootTactics,
    /// Scores cut-off playouts (`params.playout_cutoff`) and leaves (`params.value_mix`).
    evaluator: Option<Arc<Evaluator>>,
    /// How this game's stones used their time (logged by [`Search::take_time_use`]).
    time_use: TimeUse,
    /// Prunings of a full tree (`params.prune_at_cap`) since the search was made.
    prunes: Cell<u64>,
    /// The tree was grown without proofs, by a search of a lost position (`params.resist_lost`).
    proofless_tree: bool,
    /// The stone's start and the playouts of its earlier runs of the workers (a stone's search
    /// runs them up to four times: search, extension, resumes), so that progress reports count
    /// from the stone's start and never go back.
    stone_progress: Cell<(Instant, u64)>,
}

impl<F: PositionFactory> Search<F> {
    pub fn new(params: SearchParams, factory: F) -> Search<F> {
        let tree = Tree::new(params.tree_edges());
        Search {
            params,
            factory,
            tree,
            root_history: None,
            root_info: Analysis::default(),
            tactics: RootTactics::new(),
            evaluator: None,
            time_use: TimeUse::default(),
            prunes: Cell::new(0),
            proofless_tree: false,
            stone_progress: Cell::new((Instant::now(), 0)),
        }
    }

    /// The time use since the last call (a game's, when called at its end), reset.
    pub fn take_time_use(&mut self) -> TimeUse {
        std::mem::take(&mut self.time_use)
    }

    /// Logs and counts the answer of one stone's search.
    fn finish(&mut self, board: &Board, outcome: SearchOutcome, limits: &Limits) -> SearchOutcome {
        outcome::log_summary(board, &outcome, limits.time);
        self.time_use.record(StoneTime {
            index: board.stone_count(),
            first_of_turn: board.stage() == Stage::First && board.stone_count() > 0,
            decision: outcome.decision,
            used: outcome.elapsed,
            budget: limits.time,
            banked: limits.banked,
        });
        outcome
    }

    /// The evaluator that scores cut-off playouts and values leaves (`playout_cutoff`,
    /// `value_mix`); without one, playouts run to the end and alone give the reward.
    pub fn set_evaluator(&mut self, evaluator: Option<Arc<Evaluator>>) {
        self.evaluator = evaluator;
    }

    /// The judge of the pair verification; it is used when `params.verify_depth > 0`.
    pub fn set_judge(&mut self, judge: Option<Box<dyn PositionJudge>>) {
        self.tactics.set_judge(judge);
    }

    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    pub fn factory(&self) -> &F {
        &self.factory
    }

    /// Forgets the tree (new game, takeback).
    pub fn clear(&mut self) {
        self.tree.clear();
        self.root_history = None;
        self.proofless_tree = false;
        self.root_info = Analysis::default();
        self.tactics.clear();
    }

    /// The root of the last search (policy, visits and win rates per child).
    pub fn analysis(&self) -> &Analysis {
        &self.root_info
    }

    /// P(m) of every candidate stone of the side to move on `board`.
    pub fn policy(&self, board: &Board) -> Vec<(Point, f32)> {
        policy_of(&self.factory.position(board))
    }

    /// How often a full tree was pruned (`search.prune_at_cap`) since the search was made.
    pub fn prunes(&self) -> u64 {
        self.prunes.get()
    }

    /// Tree edges in use.
    pub fn nodes(&self) -> usize {
        self.tree.len()
    }

    /// Chooses a stone for the side to move. `None` only when the game is over.
    pub fn think(&mut self, board: &Board, limits: &Limits) -> Option<SearchOutcome> {
        if board.is_over() || board.legal_points().next().is_none() {
            return None;
        }
        let start = Instant::now();
        let root_pos = self.factory.position(board);
        let mut scratch = ExpandScratch::default();
        self.root_info = Analysis {
            stone_count: board.stone_count(),
            policy: policy_of(&root_pos),
            children: Vec::new(),
            decided: None,
        };
        self.stone_progress.set((start, 0));
        if let Some((best, decision)) = forced_stone(&root_pos) {
            self.root_info.decided = Some((best, decision));
            let outcome = SearchOutcome {
                win_rate: (decision == Decision::Win).then_some(1.0),
                nodes: self.tree.len() as u64,
                ..SearchOutcome::unsearched(best, decision, start.elapsed())
            };
            return Some(self.finish(board, outcome, limits));
        }
        let plan = self
            .tactics
            .plan(board, &self.params, limits, &self.root_info.policy);
        if let RootPlan::Play(best) = plan {
            self.tactics.done();
            self.root_info.decided = Some((best, Decision::Proven));
            let outcome = SearchOutcome {
                win_rate: Some(1.0),
                nodes: self.tree.len() as u64,
                ..SearchOutcome::unsearched(best, Decision::Proven, start.elapsed())
            };
            return Some(self.finish(board, outcome, limits));
        }
        // A lost position (every stone of the threat's zone proven to lose) is searched without
        // proofs, on a tree without them: proofs make every stone worth the same, while the
        // playouts tell the losses that are hard to find from the easy ones.
        let resist = match &plan {
            RootPlan::Lost { zone, .. } if self.params.resist_lost => {
                tracing::info!(
                    "solver: every stone of the zone loses; searching it without proofs for the \
                     loss hardest to find"
                );
                if !self.proofless_tree {
                    self.root_history = None;
                }
                Some(*zone)
            }
            _ => None,
        };
        // Under the opponent's threat at our turn's first stone, the reused subtree was grown
        // a turn ago below the depth of the tree's solves: its visits favour stones the threat
        // refutes, and an early stop would trust them. Search such a turn afresh.
        let threatened = matches!(plan, RootPlan::Restrict { .. } | RootPlan::Lost { .. });
        if threatened
            && resist.is_none()
            && board.stage() == Stage::First
            && !self.params.reuse_tree_under_threat
        {
            self.root_history = None;
        }
        let solver = self.params.tactics.solver;
        self.params.tactics.solver &= resist.is_none();
        self.proofless_tree = resist.is_some();
        let reused_visits = self.prepare_root(board, &root_pos, &mut scratch);
        let evaluator = self.evaluator.clone();
        let narrowing = Narrowing {
            prior_evaluator: prior_evaluator(&self.params, evaluator.as_deref()),
            ..Narrowing::default()
        };
        if self.tree.children(ROOT).is_none()
            && !expand(
                &self.tree,
                &self.params,
                ROOT,
                0,
                &root_pos,
                narrowing,
                &mut scratch,
            )
        {
            // No room left even for the root's children: start afresh.
            self.tree.clear();
            let expanded = expand(
                &self.tree,
                &self.params,
                ROOT,
                0,
                &root_pos,
                narrowing,
                &mut scratch,
            );
            assert!(expanded, "an empty tree has room for the root's children");
        }
        self.root_history = Some((board.size(), board.history().to_vec()));
        RootTactics::mark_root(&self.tree, &plan, resist);
        #[cfg(debug_assertions)]
        self.check_tree(&root_pos);

        let (playouts, preferred) = self.search_and_verify(board, &root_pos, limits, start);
        let mut outcome = outcome::outcome(
            &self.tree,
            &self.params,
            board.size(),
            preferred,
            playouts,
            reused_visits,
            start.elapsed(),
        );
        self.root_info.children = outcome::root_children(&self.tree, board.size());
        if resist.is_some() {
            // The playouts ranked the losses; what is reported is what is known: lost.
            outcome.win_rate = Some(0.0);
            outcome::report_lost(&mut self.root_info.children);
        }
        self.params.tactics.solver = solver;
        self.tactics.done();
        Some(self.finish(board, outcome, limits))
    }

    /// The search and the pair check, then the pair verification (`verify_share` of the
    /// stone's time kept for it; with a playout limit and no clock, a node budget by the
    /// playouts), then the search again for whatever time the verification left. Returns the
    /// playouts and the root child the verification prefers, if any.
    fn search_and_verify(
        &mut self,
        board: &Board,
        root_pos: &F::Position,
        limits: &Limits,
        start: Instant,
    ) -> (u64, Option<u32>) {
        let playout_cap = min_cap(limits.playouts, self.params.playout_limit());
        if !self
            .tactics
            .verifies(&self.params, board, limits, playout_cap)
        {
            return (
                self.search_and_check(board, root_pos, limits, start).0,
                None,
            );
        }
        let searching = Limits {
            time: limits
                .time
                .map(|t| t.mul_f32(1.0 - self.params.verify_share)),
            ..limits.clone()
        };
        let (playouts, extended) = self.search_and_check(board, root_pos, &searching, start);
        if limits.stopped() {
            return (playouts, None);
        }
        let deadline = limits.time.map(|t| start + t + extended);
        let preferred = self.tactics.verify(
            &self.tree,
            &self.params,
            board,
            deadline,
            playout_cap,
            limits.observer.as_deref(),
        );
        // The judgements rarely need all their time: the rest grows the tree the next stone
        // reuses (the verification's choice stands). The choice is kept by its stone, as a
        // pruning of a full tree may move the root's children.
        let stone = preferred.map(|edge| self.tree.edge(edge).cell());
        let resumed = self.resume(board, root_pos, limits, deadline, playout_cap);
        let preferred = stone.and_then(|cell| self.tree.find_child(ROOT, cell));
        (playouts + resumed, preferred)
    }

    /// The workers' search (run on while the choice is close, within `limits.extension`), then
    /// the pair check (`solver_pair_check_share` of the stone's time, kept back from the search;
    /// with a playout limit and no clock, a node budget by the playouts), then the search again
    /// for whatever time the check left. Returns the playouts and the time the extension took.
    fn search_and_check(
        &mut self,
        board: &Board,
        root_pos: &F::Position,
        limits: &Limits,
        start: Instant,
    ) -> (u64, Duration) {
        let share = self.params.tactics.solver_pair_check_share;
        let playout_cap = min_cap(limits.playouts, self.params.playout_limit());
        if !self.params.tactics.solver
            || share <= 0.0
            || (limits.time.is_none() && playout_cap.is_none())
        {
            let playouts = self.run_workers(board, root_pos, limits, start, false);
            let (extra, extended) = self.extend(board, root_pos, limits, playout_cap);
            return (playouts + extra, extended);
        }
        let searching = Limits {
            time: limits.time.map(|t| t.mul_f32(1.0 - share)),
            ..limits.clone()
        };
        let playouts = self.run_workers(board, root_pos, &searching, start, false);
        if limits.stopped() {
            return (playouts, Duration::ZERO);
        }
        // Extended before the check, so that the check sees the pair the search settles on.
        let (extra, extended) = self.extend(board, root_pos, limits, playout_cap);
        let deadline = limits.time.map(|t| start + t + extended);
        self.tactics
            .check(&self.tree, &self.params, board, deadline, playout_cap);
        // The time the check left goes back to the search (not the playouts: those were run).
        let resumed = self.resume(board, root_pos, limits, deadline, playout_cap);
        (playouts + extra + resumed, extended)
    }

    /// The search past the stone's planned time while the root's choice is close, for at most
    /// `limits.extension` (only under a clock, never under a playout limit). Returns the
    /// playouts and the time it took.
    fn extend(
        &mut self,
        board: &Board,
        root_pos: &F::Position,
        limits: &Limits,
        playout_cap: Option<u64>,
    ) -> (u64, Duration) {
        let Some(extension) = limits.extension.filter(|e| !e.is_zero()) else {
            return (0, Duration::ZERO);
        };
        if playout_cap.is_some()
            || limits.time.is_none()
            || limits.stopped()
            || !extension::unsettled(&self.tree)
        {
            return (0, Duration::ZERO);
        }
        let start = Instant::now();
        let extended = Limits {
            time: Some(extension),
            extension: None,
            ..limits.clone()
        };
        let playouts = self.run_workers(board, root_pos, &extended, start, true);
        let took = start.elapsed();
        tracing::info!(
            "stone {}: extended {:.3} s of {:.3} s, {} playouts (a close choice)",
            board.stone_count() + 1,
            took.as_secs_f64(),
            extension.as_secs_f64(),
            playouts
        );
        (playouts, took)
    }

    /// The search again until `deadline`, after a check that left time over; nothing under a
    /// playout limit (its playouts were run). Returns the playouts.
    fn resume(
        &mut self,
        board: &Board,
        root_pos: &F::Position,
        limits: &Limits,
        deadline: Option<Instant>,
        playout_cap: Option<u64>,
    ) -> u64 {
        let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        match left.filter(|l| !l.is_zero() && playout_cap.is_none()) {
            Some(left) => {
                let resumed = Limits {
                    time: Some(left),
                    ..limits.clone()
                };
                self.run_workers(board, root_pos, &resumed, Instant::now(), false)
            }
            None => 0,
        }
    }
}

#[cfg(test)]
mod tests;
