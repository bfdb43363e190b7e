//! The tree-parallel workers: descend with virtual loss, expand, play out, back up; the playout
//! and time limits, the caller's observer (stop requests, progress) and the early stop.

use super::amaf::{self, AmafScratch};
use super::ending::Ending;
use super::eval_prior::prior_evaluator;
use super::expand::{earlier_siblings, expand, narrow_to_zone, ExpandScratch, Narrowing};
use super::extension;
use super::leaf_values::LeafValues;
use super::minimax;
use super::node::{Children, Expansion, Proof, MAX_VISITS};
use super::outcome::{report_lost, root_children};
use super::playout::{run_playout, Cutoff, PlayoutEnd};
use super::proven;
use super::select::{select_child, NodeView};
use super::tactics::{Finding, NodeTactics, Visit};
use super::tree::{Tree, ROOT};
use super::Search;
use super::SearchParams;
use crate::eval::Evaluator;
use crate::rules::{Board, Color, GameResult, Point, Stage};
use crate::search::common::{
    min_cap, Limits, PositionFactory, SearchPosition, SearchRng, ThinkObserver,
};
use rand::SeedableRng;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use web_time::Instant;

/// State shared by the workers of one search.
struct Shared<'a> {
    tree: &'a Tree,
    params: &'a SearchParams,
    size: usize,
    /// Stones on the board at the root.
    root_len: usize,
    stop: AtomicBool,
    /// Set when the tree is full and `params.prune_at_cap`: the workers stop for a pruning.
    /// Apart from `stop`, which only the limits set, so that a round ended by a full tree
    /// alone goes on after the pruning.
    full: AtomicBool,
    /// The caller's observer ([`Limits::observer`]): asked after every playout whether to stop,
    /// shown the root by thread 0 every `ThinkObserver::progress_interval`.
    observer: Option<&'a dyn ThinkObserver>,
    playouts: AtomicU64,
    /// Progress reports count from the stone's start: its time, and the playouts of its earlier
    /// runs of the workers added to this run's.
    progress_start: Instant,
    progress_base: u64,
    /// Solver stones the tree's pair defences have spent in this run of the workers (the cap
    /// `solver_tree_pair_search_nodes` counts per run).
    tree_pair_nodes: AtomicU64,
    /// Leaf values the workers asked for in this run, and of those computed ([`LeafValues`]).
    leaf_values_asked: AtomicU64,
    leaf_values_computed: AtomicU64,
    start: Instant,
    deadline: Option<Instant>,
    max_playouts: Option<u64>,
    /// Share of the budget before the early stop may fire: 0 when unused time is banked.
    early_stop_min_share: f64,
    /// A search past the planned time (`Limits::extension`): it ends as soon as the root's
    /// choice is no longer close.
    until_settled: bool,
    cutoff: Option<Cutoff<'a>>,
    /// Values the leaves playouts start from (`params.value_mix > 0` or
    /// `params.minimax_weight > 0`).
    leaf_evaluator: Option<&'a Evaluator>,
    /// Values the candidates of nodes near the root (`params.eval_prior_plies`).
    prior_evaluator: Option<&'a Evaluator>,
    /// The root is proven lost and searched without proofs (`params.resist_lost`): progress
    /// reports show its children's visits, and as win rates the proof's 0.
    proven_lost: bool,
}

impl<'a> Shared<'a> {
    /// The player whose point of view the stats of the edge at `depth` hold: the one who
    /// placed its stone (for the root: the player of the last stone, or White on an empty
    /// board, so that the side to move is its opponent unless it is the same turn).
    fn mover(&self, depth: usize) -> Color {
        if self.root_len + depth == 0 {
            Color::White
        } else {
            Board::color_of_stone(self.root_len + depth - 1)
        }
    }

    /// The node `edge` at `depth`, with `visits` before this descent and `board` its position,
    /// as the in-tree tactics see it.
    fn visit<'v>(&'v self, edge: u32, depth: usize, visits: u32, board: &'v Board) -> Visit<'v> {
        Visit {
            tree: self.tree,
            edge,
            depth,
            visits,
            board,
            mover: self.mover(depth),
        }
    }
}

impl<F: PositionFactory> Search<F> {
    /// Runs the workers until a limit of `limits` (or, `until_settled`, a settled root choice);
    /// returns the playouts.
    pub(super) fn run_workers(
        &self,
        board: &Board,
        root_pos: &F::Position,
        limits: &Limits,
        start: Instant,
        until_settled: bool,
    ) -> u64 {
        let max_playouts = min_cap(limits.playouts, self.params.playout_limit());
        let (progress_start, progress_base) = self.stone_progress.get();
        let shared = Shared {
            progress_start,
            progress_base,
            proven_lost: self.proofless_tree,
            tree: &self.tree,
            params: &self.params,
            size: board.size(),
            root_len: board.stone_count(),
            stop: AtomicBool::new(false),
            full: AtomicBool::new(false),
            observer: limits.observer.as_deref(),
            playouts: AtomicU64::new(0),
            tree_pair_nodes: AtomicU64::new(0),
            leaf_values_asked: AtomicU64::new(0),
            leaf_values_computed: AtomicU64::new(0),
            start,
            deadline: limits.time.map(|t| start + t),
            max_playouts,
            until_settled,
            early_stop_min_share: if limits.banked {
                0.0
            } else {
                f64::from(self.params.early_stop_min_share)
            },
            cutoff: self
                .evaluator
                .as_deref()
                .filter(|_| self.params.playout_cutoff > 0)
                .map(|evaluator| Cutoff {
                    stones: self.params.playout_cutoff,
                    evaluator,
                    quiet: self.params.playout_cutoff_quiet,
                }),
            leaf_evaluator: self
                .evaluator
                .as_deref()
                .filter(|_| self.params.value_mix > 0.0 || self.params.minimax_weight > 0.0),
            prior_evaluator: prior_evaluator(&self.params, self.evaluator.as_deref()),
        };
        let seed = self
            .params
            .seed
            .wrapping_add((board.stone_count() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut min_visits = PRUNE_MIN_VISITS;
        for round in 0u64.. {
            // Each round its own random streams, so that a pruned tree is not searched with
            // the playouts of the round before.
            let seed = seed ^ round.wrapping_mul(0xA24B_AED4_963E_E407);
            std::thread::scope(|scope| {
                for thread in 1..self.params.threads {
                    let shared = &shared;
                    let own_root = root_pos.clone();
                    scope.spawn(move || worker(shared, thread, seed, &own_root));
                }
                worker(&shared, 0, seed, root_pos);
            });
            if shared.stop.load(Ordering::Relaxed) || !shared.full.swap(false, Ordering::Relaxed) {
                break;
            }
            let before = self.tree.len();
            let mut kept = self.tree.prune(min_visits);
            // Half the room free, or the search would soon stop again for the next pruning.
            while kept > self.tree.capacity() / 2 && min_visits < MAX_VISITS / 2 {
                min_visits *= 2;
                kept = self.tree.prune(min_visits);
            }
            self.prunes.set(self.prunes.get() + 1);
            tracing::debug!(
                "stone {}: tree full, pruned to {kept} of {before} edges (subtrees under \
                 fewer than {min_visits} visits dropped)",
                board.stone_count() + 1
            );
        }
        let tree_pair_nodes = shared.tree_pair_nodes.load(Ordering::Relaxed);
        if tree_pair_nodes > 0 {
            tracing::debug!(
                "stone {}: the tree's pair defences spent {tree_pair_nodes} solver stones",
                board.stone_count() + 1
            );
        }
        let asked = shared.leaf_values_asked.load(Ordering::Relaxed);
        if asked > 0 {
            tracing::debug!(
                "stone {}: {asked} leaf values, {} computed, the rest remembered",
                board.stone_count() + 1,
                shared.leaf_values_computed.load(Ordering::Relaxed)
            );
        }
        let playouts = shared.playouts.load(Ordering::Relaxed);
        self.stone_progress
            .set((progress_start, progress_base + playouts));
        playouts
    }
}

/// The visits under which a pruning drops an edge's subtree at first; doubled until the
/// pruning frees half the tree.
const PRUNE_MIN_VISITS: u32 = 16;

/// How often (in playouts) thread 0 looks whether the best stone is settled. The clock is read
/// after every playout (a few tens of nanoseconds against a playout's tens of microseconds).
const EARLY_STOP_INTERVAL: u64 = 64;

/// One worker's loop: descents from the root until a limit (or a full tree) stops the search,
/// each backed up and counted.
fn worker<P: SearchPosition>(shared: &Shared, thread: usize, seed: u64, root_pos: &P) {
    let mut w = Worker::new(shared, thread, seed, root_pos);
    while !shared.stop.load(Ordering::Relaxed) && !shared.full.load(Ordering::Relaxed) {
        let ending = w.descend();
        w.back_up(&ending);
        w.count_playout();
    }
    let memory = &w.leaf_values;
    shared
        .leaf_values_asked
        .fetch_add(memory.asked, Ordering::Relaxed);
    shared
        .leaf_values_computed
        .fetch_add(memory.computed, Ordering::Relaxed);
}

/// One thread of the search: its random stream, the descent under way (position and path from
/// the root) and the buffers its phases reuse.
struct Worker<'s, 'a, P> {
    shared: &'s Shared<'a>,
    thread: usize,
    root_pos: &'s P,
    rng: SearchRng,
    pos: P,
    /// The descent's edges, from the root.
    path: Vec<u32>,
    scratch: ExpandScratch,
    earlier: Vec<Point>,
    stones: Vec<Point>,
    amaf_scratch: AmafScratch,
    /// The evaluator's values of the leaves played out from so far in this run.
    leaf_values: LeafValues,
    /// Playouts of this thread.
    local: u64,
    /// The in-tree tactics at the nodes of the descents, when the tree's solves are on.
    tactics: Option<NodeTactics<'s>>,
    last_progress: Instant,
    root_side: Color,
}

impl<'s, 'a, P: SearchPosition> Worker<'s, 'a, P> {
    fn new(shared: &'s Shared<'a>, thread: usize, seed: u64, root_pos: &'s P) -> Self {
        Worker {
            shared,
            thread,
            root_pos,
            rng: SearchRng::seed_from_u64(
                seed ^ (thread as u64).wrapping_mul(0xD1B5_4A32_D192_ED03),
            ),
            pos: root_pos.clone(),
            path: Vec::with_capacity(64),
            scratch: ExpandScratch::default(),
            earlier: Vec::new(),
            stones: Vec::new(),
            amaf_scratch: AmafScratch::default(),
            leaf_values: LeafValues::default(),
            local: 0,
            tactics: NodeTactics::new(shared.params, &shared.tree_pair_nodes),
            last_progress: Instant::now(),
            root_side: root_pos.board().to_move(),
        }
    }

    /// Descends from the root, a virtual loss on every edge taken: at each node, stops at a
    /// finished game or a proven edge, runs the in-tree tactics of an expanded node, expands a
    /// leaf that has earned its children, and selects a child ([`select_child`]); at a leaf
    /// left unexpanded, plays out. Returns how the descent ended.
    fn descend(&mut self) -> Ending {
        let (tree, params) = (self.shared.tree, self.shared.params);
        self.pos.clone_from(self.root_pos);
        self.path.clear();
        self.path.push(ROOT);
        tree.edge(ROOT).add_virtual_loss(params.virtual_loss);
        let mut node = ROOT;
        let mut visits_before = u32::MAX;
        let mut parent_block: Option<Children> = None;
        loop {
            let depth = self.path.len() - 1;
            if let Some(ending) = self.settled(node, depth) {
                return ending;
            }
            let children = match tree.edge(node).expansion() {
                Expansion::Expanded(c) => self.solve_expanded(node, depth, c, visits_before),
                Expansion::Leaf
                    if visits_before.saturating_add(1) >= params.expand_visits
                        && !tree.is_full() =>
                {
                    self.expand(node, depth, visits_before, parent_block)
                }
                _ => ControlFlow::Break(self.play_out()),
            };
            let children = match children {
                ControlFlow::Continue(children) => children,
                ControlFlow::Break(ending) => return ending,
            };
            (node, visits_before) = self.select(node, children);
            parent_block = Some(children);
        }
    }

    /// The end of the descent at `node` when it is settled: the game is over there (a win marks
    /// the edge proven), or the edge is proven.
    fn settled(&mut self, node: u32, depth: usize) -> Option<Ending> {
        let (shared, tree) = (self.shared, self.shared.tree);
        let r = self.pos.board().result();
        if r != GameResult::Ongoing {
            if shared.params.tactics.solver && node != ROOT && matches!(r, GameResult::Win(_)) {
                tree.edge(node).set_proof(Proof::Win);
                self.propagate();
            }
            return Some(Ending::exact(r));
        }
        if node != ROOT {
            if let Some(w) = proven::proven_winner(tree.edge(node).proof(), shared.mover(depth)) {
                return Some(Ending::exact(GameResult::Win(w)));
            }
        }
        None
    }

    /// The in-tree tactics at the expanded `node` (`visits_before` visits before this descent):
    /// the deep solve, which proves the edge or narrows the children to a defence zone, then
    /// the pair defence of restricted children. Returns the children to select from, or the
    /// end of the descent at a proof.
    fn solve_expanded(
        &mut self,
        node: u32,
        depth: usize,
        c: Children,
        visits_before: u32,
    ) -> ControlFlow<Ending, Children> {
        let (tree, params) = (self.shared.tree, self.shared.params);
        let Some(tactics) = self.tactics.as_mut().filter(|_| node != ROOT) else {
            return ControlFlow::Continue(c);
        };
        let at = self
            .shared
            .visit(node, depth, visits_before, self.pos.board());
        let c = match tactics.at_expanded(&at) {
            Some(Finding::Winner(w)) => {
                self.propagate();
                return ControlFlow::Break(Ending::exact(GameResult::Win(w)));
            }
            Some(finding) => {
                if let Finding::Zone(zone) = finding {
                    narrow_to_zone(tree, params, node, &self.pos, &zone, &mut self.scratch);
                }
                // The block another thread or the zone put in place.
                tree.children(node).unwrap_or(c)
            }
            None => c,
        };
        if let Some(w) = tactics.pair_defence(&at, c.restricted) {
            self.propagate();
            return ControlFlow::Break(Ending::exact(GameResult::Win(w)));
        }
        ControlFlow::Continue(c)
    }

    /// Expands the leaf `node` (`visits_before` visits before this descent): the in-tree
    /// tactics' solve first (a proof ends the descent; the opponent's threat gives a defence
    /// zone), then the children ([`expand`]), narrowed by the zone and the pair order below
    /// `parent_block`. Returns the new children, or the playout when the tree has no room for
    /// them.
    fn expand(
        &mut self,
        node: u32,
        depth: usize,
        visits_before: u32,
        parent_block: Option<Children>,
    ) -> ControlFlow<Ending, Children> {
        let (shared, tree, params) = (self.shared, self.shared.tree, self.shared.params);
        let mut zone = None;
        if let Some(tactics) = self.tactics.as_mut().filter(|_| node != ROOT) {
            let at = shared.visit(node, depth, visits_before, self.pos.board());
            match tactics.at_expansion(&at) {
                Finding::Winner(w) => {
                    self.propagate();
                    return ControlFlow::Break(Ending::exact(GameResult::Win(w)));
                }
                Finding::Zone(z) => zone = Some(z),
                Finding::Nothing => {}
            }
        }
        earlier_siblings(
            tree,
            params,
            self.pos.board().stage(),
            node,
            parent_block,
            shared.size,
            &mut self.earlier,
        );
        // Only the root side's own choices: the opponent's replies keep the weights' priors
        // (valuing them too cost 4x the playouts a second).
        let prior_evaluator = shared
            .prior_evaluator
            .filter(|_| self.pos.board().to_move() == self.root_side);
        let narrowing = Narrowing {
            earlier: &self.earlier,
            zone: zone.as_ref(),
            prior_evaluator,
        };
        if !expand(
            tree,
            params,
            node,
            depth,
            &self.pos,
            narrowing,
            &mut self.scratch,
        ) {
            return ControlFlow::Break(self.play_out());
        }
        ControlFlow::Continue(tree.children(node).expect("just published"))
    }

    /// Selects a child of `node` ([`select_child`]), adds a virtual loss to it and plays its
    /// stone. Returns the child and its visits before this descent.
    fn select(&mut self, node: u32, children: Children) -> (u32, u32) {
        let (shared, tree, params) = (self.shared, self.shared.tree, self.shared.params);
        let stats = tree.edge(node).stats();
        let same_player = self.pos.board().stage() == Stage::Second;
        let view = NodeView {
            visits: stats.visits,
            mean_for_chooser: stats.mean().map(|m| if same_player { m } else { 1.0 - m }),
            is_root: node == ROOT,
            own_second_stone: same_player && self.pos.board().to_move() == self.root_side,
        };
        let child = select_child(tree, params, children, &view);
        let visits_before = tree.edge(child).add_virtual_loss(params.virtual_loss);
        self.pos.play(Point::from_index(
            tree.edge(child).cell() as usize,
            shared.size,
        ));
        self.path.push(child);
        (child, visits_before)
    }

    /// Plays the leaf out, valuing it first when the search mixes in the evaluator (a leaf
    /// played out from before keeps its value: [`LeafValues`]).
    fn play_out(&mut self) -> Ending {
        let shared = self.shared;
        let leaf = *self.path.last().expect("the path starts at the root");
        let leaf_value = shared.leaf_evaluator.and_then(|e| {
            let fb = self.pos.features()?;
            let value = self
                .leaf_values
                .get_or_compute(leaf, || e.win_probability(fb));
            Some((self.pos.board().to_move(), value))
        });
        if leaf_value.is_some() && shared.params.value_mix >= 1.0 {
            // The reward weighs the playout's result by 1 − λ = 0: skip it and spend its time on
            // more descents. The result is never read (see `Ending::rewards`).
            return Ending {
                end: PlayoutEnd::Over(GameResult::Draw),
                leaf_value,
                exact: false,
            };
        }
        Ending {
            end: run_playout(
                &mut self.pos,
                &mut self.rng,
                &mut self.stones,
                shared.cutoff.as_ref(),
            ),
            leaf_value,
            exact: false,
        }
    }

    /// Backs `ending` up the descent's path: the minimax values, the rewards (taking the
    /// virtual losses back), and the AMAF statistics of the stones played below each node.
    fn back_up(&mut self, ending: &Ending) {
        let (shared, tree, params) = (self.shared, self.shared.tree, self.shared.params);
        let path = &self.path;
        if params.minimax_weight > 0.0 {
            let depth = path.len() - 1;
            minimax::backup(tree, path, ending.value_for(shared.mover(depth)), |d| {
                shared.mover(d) == shared.mover(d + 1)
            });
        }
        let rewards = ending.rewards(params.value_mix);
        for (depth, &e) in path.iter().enumerate() {
            tree.edge(e)
                .backup(params.virtual_loss, rewards[shared.mover(depth).index()]);
        }
        if params.rave_equivalence > 0.0 {
            amaf::backup(
                tree,
                path,
                &self.pos.board().history()[shared.root_len..],
                shared.root_len,
                shared.size,
                rewards,
                &mut self.amaf_scratch,
            );
        }
    }

    /// Counts the playout and stops the search at a limit: the playouts, the root's visits,
    /// the deadline, a full tree (for a pruning), the observer's stop request, a settled
    /// choice in an extension, or the early stop; thread 0 reports progress to the observer.
    fn count_playout(&mut self) {
        let (shared, tree, params) = (self.shared, self.shared.tree, self.shared.params);
        let thread = self.thread;
        self.local += 1;
        let local = self.local;
        let done = shared.playouts.fetch_add(1, Ordering::Relaxed) + 1;
        if shared.max_playouts.is_some_and(|m| done >= m)
            || tree.edge(ROOT).stats().visits >= MAX_VISITS
        {
            shared.stop.store(true, Ordering::Relaxed);
        }
        if shared.deadline.is_some_and(|d| Instant::now() >= d) {
            shared.stop.store(true, Ordering::Relaxed);
        }
        if params.prune_at_cap && tree.is_full() {
            shared.full.store(true, Ordering::Relaxed);
        }
        if let Some(observer) = shared.observer {
            if observer.stop_requested() {
                shared.stop.store(true, Ordering::Relaxed);
            } else if thread == 0 && self.last_progress.elapsed() >= observer.progress_interval() {
                self.last_progress = Instant::now();
                let mut children = root_children(tree, shared.size);
                if shared.proven_lost {
                    report_lost(&mut children);
                }
                observer.progress(
                    shared.progress_base + done,
                    shared.progress_start.elapsed(),
                    &children,
                );
            }
        }
        if thread == 0
            && shared.until_settled
            && local.is_multiple_of(EARLY_STOP_INTERVAL)
            && !extension::unsettled(tree)
        {
            shared.stop.store(true, Ordering::Relaxed);
        }
        if thread == 0
            && params.early_stop
            && local.is_multiple_of(EARLY_STOP_INTERVAL)
            && budget_share_used(shared, done) >= shared.early_stop_min_share
            && cannot_be_overtaken(shared, done)
        {
            shared.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Backs the proof of the path's last edge up the path.
    fn propagate(&self) {
        let shared = self.shared;
        proven::propagate(
            shared.tree,
            &self.path,
            shared.root_len,
            shared.size * shared.size,
        );
    }
}

/// The larger of the shares of the stone's time and playout limits used so far (0 without
/// limits).
fn budget_share_used(shared: &Shared, done: u64) -> f64 {
    let by_count = shared.max_playouts.map_or(0.0, |m| done as f64 / m as f64);
    let by_time = shared.deadline.map_or(0.0, |d| {
        let total = d.saturating_duration_since(shared.start).as_secs_f64();
        shared.start.elapsed().as_secs_f64() / total.max(1e-9)
    });
    by_count.max(by_time)
}

/// Fuego's count abort: the most visited root child stays so whatever the remaining
/// playouts do (by count limit, or by time at the rate measured so far).
fn cannot_be_overtaken(shared: &Shared, done: u64) -> bool {
    let by_count = shared.max_playouts.map(|m| m.saturating_sub(done));
    let by_time = shared.deadline.map(|d| {
        let elapsed = shared.start.elapsed().as_secs_f64().max(1e-6);
        let left = d.saturating_duration_since(Instant::now()).as_secs_f64();
        (done as f64 / elapsed * left) as u64
    });
    let remaining = match (by_count, by_time) {
        (Some(a), Some(b)) => a.min(b),
        (Some(a), None) | (None, Some(a)) => a,
        (None, None) => return false,
    };
    let Some(c) = shared.tree.children(ROOT) else {
        return false;
    };
    let (mut first, mut second) = (0u64, 0u64);
    for i in c.range() {
        let v = shared.tree.edge(i).stats().visits as u64;
        if v > first {
            second = first;
            first = v;
        } else if v > second {
            second = v;
        }
    }
    first - second > remaining
}
