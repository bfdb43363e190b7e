//! The search driver: root preparation (forced stones, tree reuse), the tree-parallel
//! workers (descend with virtual loss, expand, play out, back up) and the final choice.

use super::expand::{child_list, earlier_siblings, expand, ExpandScratch};
use super::node::{Children, Expansion, Proof, MAX_VISITS, REWARD_UNIT};
use super::params::SearchParams;
use super::playout::{run_playout, Cutoff};
use super::position::{PositionFactory, SearchPosition, SearchRng};
use super::select::{select_child, NodeView};
use super::solver_hooks::{self as hooks, RootPlan};
use super::tree::{Tree, ROOT};
use crate::eval::Evaluator;
use crate::notation::format_gtp;
use crate::rules::{Board, Color, GameResult, Point, Stage};
use crate::tactics::{Solver, SolverLimits};
use rand::SeedableRng;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What may stop one stone's search (the first limit reached wins).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Wall-clock time for this stone, measured from the call.
    pub time: Option<Duration>,
    /// Playouts for this stone (this search's, not counting reused ones).
    pub playouts: Option<u64>,
    /// Stops the search from outside (protocol interrupts, pondering) and watches it (live
    /// display). `None` changes nothing, so fixed-playout searches stay reproducible.
    pub watch: Option<Watch>,
}

/// Seen by a running search: polled after every playout, told the root's state now and then.
pub trait SearchWatch: Send + Sync {
    /// True ends the search at once; the best stone so far is returned.
    fn stop_requested(&self) -> bool;
    /// The root's children so far, about every [`PROGRESS_INTERVAL`] (from the caller's thread).
    fn progress(&self, _playouts: u64, _elapsed: Duration, _root: &[ChildInfo]) {}
}

/// How often [`SearchWatch::progress`] is called during a search.
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(250);

/// A shared [`SearchWatch`] (compared by identity).
#[derive(Clone)]
pub struct Watch(pub Arc<dyn SearchWatch>);

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Watch")
    }
}

impl PartialEq for Watch {
    fn eq(&self, other: &Watch) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// Why the stone was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// It completes (or starts a sure completion of) a six this turn: no search.
    Win,
    /// The only stone that meets the opponent's six-threat: no search.
    ForcedBlock,
    /// It starts a proven threat sequence (VCDT, or a proven win found by the search).
    Proven,
    /// Chosen by the tree search (most visited root child).
    Searched,
}

/// The answer of one search, with what the per-move summary shows.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOutcome {
    pub best: Point,
    pub decision: Decision,
    /// Playouts run by this search.
    pub playouts: u64,
    pub elapsed: Duration,
    /// Root visits carried over from the previous search by tree reuse.
    pub reused_visits: u32,
    /// Root visits after the search.
    pub root_visits: u32,
    /// Win rate of the chosen stone for the side to move (draws count half).
    pub win_rate: Option<f32>,
    /// Principal variation, starting with `best`.
    pub pv: Vec<Point>,
    /// Tree edges in use after the search.
    pub nodes: usize,
}

impl SearchOutcome {
    pub fn playouts_per_second(&self) -> f64 {
        self.playouts as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// One root child, for front-ends (GoGui analyze commands).
#[derive(Clone, Debug, PartialEq)]
pub struct ChildInfo {
    pub point: Point,
    /// P(m) among the root's children.
    pub prior: f32,
    pub visits: u32,
    /// For the side to move at the root.
    pub win_rate: Option<f32>,
}

/// The root as the last search left it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RootInfo {
    /// Stones on the board at the root.
    pub stone_count: usize,
    /// P(m) of every candidate of the root position (before forced-move filtering).
    pub policy: Vec<(Point, f32)>,
    pub children: Vec<ChildInfo>,
}

/// Monte-Carlo tree search over positions built by `F`.
pub struct Search<F: PositionFactory> {
    params: SearchParams,
    factory: F,
    tree: Tree,
    /// Board size and stones at the tree's root, when the tree holds a search.
    root_history: Option<(usize, Vec<Point>)>,
    root_info: RootInfo,
    /// The threat solver of the root pre-pass.
    solver: Solver,
    /// Scores cut-off playouts (`params.playout_cutoff`) and leaves (`params.value_mix`).
    evaluator: Option<Arc<Evaluator>>,
}

/// State shared by the workers of one search.
struct Shared<'a> {
    tree: &'a Tree,
    params: &'a SearchParams,
    size: usize,
    /// Stones on the board at the root.
    root_len: usize,
    stop: AtomicBool,
    playouts: AtomicU64,
    start: Instant,
    deadline: Option<Instant>,
    max_playouts: Option<u64>,
    watch: Option<&'a dyn SearchWatch>,
    cutoff: Option<Cutoff<'a>>,
    /// Values the leaves playouts start from (`params.value_mix > 0`).
    leaf_evaluator: Option<&'a Evaluator>,
}

impl Shared<'_> {
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
}

/// The reward of `result` for `player`, in units of 1/[`REWARD_UNIT`] of a win.
fn reward(result: GameResult, player: Color) -> u32 {
    match result {
        GameResult::Win(c) if c == player => REWARD_UNIT,
        GameResult::Win(_) => 0,
        _ => REWARD_UNIT / 2,
    }
}

/// How one descent ended: a result, and the evaluator's win probability for the side to move
/// at the leaf its playout started from (when leaves are valued).
struct Ending {
    result: GameResult,
    leaf_value: Option<(Color, f64)>,
}

impl Ending {
    fn exact(result: GameResult) -> Ending {
        Ending {
            result,
            leaf_value: None,
        }
    }

    /// Rewards for Black and White: the result's, mixed with the leaf value by `lambda`, rounded
    /// to a unit for the leaf's side to move (the other side gets the complement).
    fn rewards(&self, lambda: f32) -> [u32; 2] {
        let Some((me, v)) = self.leaf_value else {
            return [
                reward(self.result, Color::Black),
                reward(self.result, Color::White),
            ];
        };
        let z = reward(self.result, me) as f64;
        let lambda = f64::from(lambda);
        let mixed = (1.0 - lambda) * z + lambda * f64::from(REWARD_UNIT) * v.clamp(0.0, 1.0);
        let mine = (mixed.round() as u32).min(REWARD_UNIT);
        let mut out = [REWARD_UNIT - mine; 2];
        out[me.index()] = mine;
        out
    }
}

/// Plays the leaf `pos` out, valuing it first when the search mixes in the evaluator.
fn play_out<P: SearchPosition>(
    shared: &Shared,
    pos: &mut P,
    rng: &mut SearchRng,
    stones: &mut Vec<Point>,
) -> Ending {
    let leaf_value = shared.leaf_evaluator.and_then(|e| {
        let pb = pos.patterns()?;
        Some((pos.board().to_move(), e.win_probability(pb)))
    });
    Ending {
        result: run_playout(pos, rng, stones, shared.cutoff.as_ref()),
        leaf_value,
    }
}

impl<F: PositionFactory> Search<F> {
    pub fn new(params: SearchParams, factory: F) -> Search<F> {
        let tree = Tree::new(params.max_nodes);
        Search {
            params,
            factory,
            tree,
            root_history: None,
            root_info: RootInfo::default(),
            solver: Solver::new(SolverLimits::default()),
            evaluator: None,
        }
    }

    /// The evaluator that scores cut-off playouts and values leaves (`playout_cutoff`,
    /// `value_mix`); without one, playouts run to the end and alone give the reward.
    pub fn set_evaluator(&mut self, evaluator: Option<Arc<Evaluator>>) {
        self.evaluator = evaluator;
    }

    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    pub fn factory(&self) -> &F {
        &self.factory
    }

    /// Changes parameters; the tree is dropped when its cap changes.
    pub fn set_params(&mut self, params: SearchParams) {
        if params.max_nodes != self.params.max_nodes {
            self.tree = Tree::new(params.max_nodes);
            self.root_history = None;
        }
        self.params = params;
    }

    /// Forgets the tree (new game, takeback).
    pub fn clear(&mut self) {
        self.tree.clear();
        self.root_history = None;
        self.root_info = RootInfo::default();
        self.solver.clear();
    }

    /// The root of the last search (policy, visits and win rates per child).
    pub fn root_info(&self) -> &RootInfo {
        &self.root_info
    }

    /// P(m) of every candidate stone of the side to move on `board`.
    pub fn policy(&self, board: &Board) -> Vec<(Point, f32)> {
        policy_of(&self.factory.position(board))
    }

    /// Tree edges in use.
    pub fn nodes(&self) -> usize {
        self.tree.len()
    }

    /// Chooses a stone for the side to move. `None` only when the game is over.
    pub fn think(&mut self, board: &Board, limits: Limits) -> Option<SearchOutcome> {
        if board.is_over() || board.legal_points().next().is_none() {
            return None;
        }
        let start = Instant::now();
        let root_pos = self.factory.position(board);
        let mut scratch = ExpandScratch::default();
        self.root_info = RootInfo {
            stone_count: board.stone_count(),
            policy: policy_of(&root_pos),
            children: Vec::new(),
        };
        if let Some((best, decision)) = forced_stone(&root_pos) {
            let outcome = SearchOutcome {
                best,
                decision,
                playouts: 0,
                elapsed: start.elapsed(),
                reused_visits: 0,
                root_visits: 0,
                win_rate: (decision == Decision::Win).then_some(1.0),
                pv: vec![best],
                nodes: self.tree.len(),
            };
            log_summary(board, &outcome, limits.time);
            return Some(outcome);
        }
        // An interrupted search skips the root's solves too: it answers at once.
        let stopped = limits.watch.as_ref().is_some_and(|w| w.0.stop_requested());
        let plan = if self.params.solver.enabled && !stopped {
            let playouts = match (limits.playouts, self.params.playouts_per_stone) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let mut order = self.root_info.policy.clone();
            order.sort_by(|a, b| b.1.total_cmp(&a.1));
            let order: Vec<Point> = order.into_iter().map(|(p, _)| p).collect();
            hooks::root_plan(
                &mut self.solver,
                board,
                &self.params.solver,
                limits.time,
                playouts,
                Some(&order),
            )
        } else {
            RootPlan::Free
        };
        if let RootPlan::Play(best) = plan {
            let outcome = SearchOutcome {
                best,
                decision: Decision::Proven,
                playouts: 0,
                elapsed: start.elapsed(),
                reused_visits: 0,
                root_visits: 0,
                win_rate: Some(1.0),
                pv: vec![best],
                nodes: self.tree.len(),
            };
            log_summary(board, &outcome, limits.time);
            return Some(outcome);
        }
        let reused_visits = self.prepare_root(board, &root_pos, &mut scratch);
        if self.tree.children(ROOT).is_none()
            && !expand(
                &self.tree,
                &self.params,
                ROOT,
                0,
                &root_pos,
                &[],
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
                &[],
                &mut scratch,
            );
            assert!(expanded, "an empty tree has room for the root's children");
        }
        self.root_history = Some((board.size(), board.history().to_vec()));
        hooks::clear_exclusions(&self.tree);
        if let RootPlan::Restrict { allowed, lost } = &plan {
            hooks::restrict_root(&self.tree, allowed, lost);
        }
        #[cfg(debug_assertions)]
        self.check_tree(&root_pos);

        let playouts = self.run_workers(board, &root_pos, &limits, start);
        let outcome = self.outcome(board, playouts, reused_visits, start.elapsed());
        self.root_info.children = self.root_children(board.size());
        log_summary(board, &outcome, limits.time);
        Some(outcome)
    }

    /// Re-roots the tree at `board` when it extends the previous root by stones that are in
    /// the tree; otherwise empties it. Returns the root visits kept.
    fn prepare_root(
        &mut self,
        board: &Board,
        root_pos: &F::Position,
        scratch: &mut ExpandScratch,
    ) -> u32 {
        let Some(found) = self.find_reusable_root(board) else {
            self.tree.clear();
            return 0;
        };
        let (node, parent_block) = found;
        if let (Some(Children { filtered: true, .. }), Some(parent)) =
            (self.tree.children(node), parent_block)
        {
            // The new root is a second stone whose children were cut by the pair order: the
            // pairs it lacks now need this first stone, so give it all its children, taking
            // statistics from the other order where that was searched.
            if !self.regraft_root(node, parent, root_pos, scratch) {
                // No room to graft: keep the root's statistics, regrow its subtree.
                self.tree.reroot(node);
                self.tree.prune_to_root();
                return self.tree.edge(ROOT).stats().visits;
            }
        }
        self.tree.reroot(node);
        self.tree.edge(ROOT).stats().visits
    }

    /// The edge of the tree that stands for `board`, and the children block it sits in.
    fn find_reusable_root(&self, board: &Board) -> Option<(u32, Option<Children>)> {
        if !self.params.reuse_tree {
            return None;
        }
        let (size, history) = self.root_history.as_ref()?;
        if *size != board.size() || !board.history().starts_with(history) {
            return None;
        }
        let new = &board.history()[history.len()..];
        let mut node = ROOT;
        let mut parent_block = None;
        let mut i = 0;
        while i < new.len() {
            let n = history.len() + i;
            let cell = |p: Point| p.index(*size) as u16;
            let pair_ahead = i + 1 < new.len() && Board::stage_of_stone(n + 1) == Stage::Second;
            if pair_ahead {
                // Either order of a whole turn leads to the same position.
                let (a, b) = (cell(new[i]), cell(new[i + 1]));
                let via = |x: u16, y: u16| {
                    let mid = self.tree.find_child(node, x)?;
                    let end = self.tree.find_child(mid, y)?;
                    Some((end, self.tree.children(mid)))
                };
                let (end, block) = via(a, b).or_else(|| via(b, a))?;
                node = end;
                parent_block = block;
                i += 2;
            } else {
                parent_block = self.tree.children(node);
                node = self.tree.find_child(node, cell(new[i]))?;
                i += 1;
            }
        }
        Some((node, parent_block))
    }

    /// Debug check: every edge's stone is empty where it would be played.
    #[cfg(debug_assertions)]
    fn check_tree(&self, root_pos: &F::Position) {
        fn walk<P: SearchPosition>(tree: &Tree, edge: u32, pos: &mut P, depth: usize) {
            let Some(c) = tree.children(edge) else { return };
            for i in c.range() {
                let p = Point::from_index(tree.edge(i).cell() as usize, pos.board().size());
                assert!(
                    pos.board().is_empty_at(p),
                    "edge {i} at depth {depth} plays occupied {p:?} after {:?}",
                    pos.board().history()
                );
                if depth < 6 && tree.children(i).is_some() {
                    let mut next = pos.clone();
                    next.play(p);
                    walk(tree, i, &mut next, depth + 1);
                }
            }
        }
        walk(&self.tree, ROOT, &mut root_pos.clone(), 0);
    }

    /// Gives second-stone node `node` (child of the block `parent`) its full set of children.
    fn regraft_root(
        &mut self,
        node: u32,
        parent: Children,
        root_pos: &F::Position,
        scratch: &mut ExpandScratch,
    ) -> bool {
        let size = root_pos.board().size();
        let first_stone = self.tree.edge(node).cell();
        child_list(root_pos, &self.params, &[], true, scratch);
        let count = scratch.list.len() as u32;
        let Some(first) = self.tree.allocate(count) else {
            return false;
        };
        let set_restricted = self
            .tree
            .children(node)
            .map(|c| c.restricted)
            .unwrap_or(false);
        for (k, &(p, prior)) in scratch.list.iter().enumerate() {
            let cell = p.index(size) as u16;
            let target = self.tree.edge(first + k as u32);
            target.init(cell, prior);
            let same = self.tree.find_child(node, cell);
            let mirrored = || {
                let sibling = parent.range().find(|&i| self.tree.edge(i).cell() == cell)?;
                self.tree.find_child(sibling, first_stone)
            };
            if let Some(source) = same.or_else(mirrored) {
                target.graft_from(self.tree.edge(source));
            }
        }
        self.tree.edge(node).publish(Children {
            first,
            count,
            restricted: set_restricted,
            filtered: false,
        });
        true
    }

    fn run_workers(
        &self,
        board: &Board,
        root_pos: &F::Position,
        limits: &Limits,
        start: Instant,
    ) -> u64 {
        let max_playouts = match (limits.playouts, self.params.playouts_per_stone) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let shared = Shared {
            tree: &self.tree,
            params: &self.params,
            size: board.size(),
            root_len: board.stone_count(),
            stop: AtomicBool::new(false),
            playouts: AtomicU64::new(0),
            start,
            deadline: limits.time.map(|t| start + t),
            max_playouts,
            watch: limits.watch.as_ref().map(|w| &*w.0),
            cutoff: self
                .evaluator
                .as_deref()
                .filter(|_| self.params.playout_cutoff > 0)
                .map(|evaluator| Cutoff {
                    stones: self.params.playout_cutoff,
                    evaluator,
                }),
            leaf_evaluator: self
                .evaluator
                .as_deref()
                .filter(|_| self.params.value_mix > 0.0),
        };
        let seed = self
            .params
            .seed
            .wrapping_add((board.stone_count() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        std::thread::scope(|scope| {
            for thread in 1..self.params.threads {
                let shared = &shared;
                let own_root = root_pos.clone();
                scope.spawn(move || worker(shared, thread, seed, &own_root));
            }
            worker(&shared, 0, seed, root_pos);
        });
        shared.playouts.load(Ordering::Relaxed)
    }

    fn outcome(
        &self,
        board: &Board,
        playouts: u64,
        reused_visits: u32,
        elapsed: Duration,
    ) -> SearchOutcome {
        let size = board.size();
        let chosen = self
            .params
            .solver
            .enabled
            .then(|| hooks::root_choice(&self.tree))
            .flatten();
        let best = chosen
            .or_else(|| best_child(&self.tree, ROOT))
            .expect("the root is expanded");
        let mut pv = Vec::new();
        let mut node = Some(best);
        while let Some(e) = node {
            if pv.len() >= 16 || self.tree.edge(e).stats().visits == 0 {
                break;
            }
            pv.push(Point::from_index(self.tree.edge(e).cell() as usize, size));
            node = best_child(&self.tree, e);
        }
        let best_edge = self.tree.edge(best);
        SearchOutcome {
            best: Point::from_index(best_edge.cell() as usize, size),
            decision: if best_edge.proof() == Proof::Win {
                Decision::Proven
            } else {
                Decision::Searched
            },
            playouts,
            elapsed,
            reused_visits,
            root_visits: self.tree.edge(ROOT).stats().visits,
            win_rate: best_edge.stats().mean(),
            pv,
            nodes: self.tree.len(),
        }
    }

    fn root_children(&self, size: usize) -> Vec<ChildInfo> {
        root_children_of(&self.tree, size)
    }
}

/// The root's children with their statistics (also while the workers run: stats are atomic).
fn root_children_of(tree: &Tree, size: usize) -> Vec<ChildInfo> {
    let Some(c) = tree.children(ROOT) else {
        return Vec::new();
    };
    c.range()
        .map(|i| {
            let e = tree.edge(i);
            ChildInfo {
                point: Point::from_index(e.cell() as usize, size),
                prior: e.prior(),
                visits: e.stats().visits,
                win_rate: e.stats().mean(),
            }
        })
        .collect()
}

/// A stone that needs no search: a winning stone (one that completes the six at once when
/// there is one), or the single stone that can meet the opponent's threat. Shared with the
/// alpha-beta search.
pub(crate) fn forced_stone<P: SearchPosition>(pos: &P) -> Option<(Point, Decision)> {
    let mut points = Vec::new();
    pos.winning_points(&mut points);
    if !points.is_empty() {
        points.sort();
        let immediate = points.iter().copied().find(|&p| {
            let mut b = pos.board().clone();
            b.play(p).is_ok() && matches!(b.result(), GameResult::Win(_))
        });
        return Some((immediate.unwrap_or(points[0]), Decision::Win));
    }
    pos.blocking_points(&mut points);
    (points.len() == 1).then(|| (points[0], Decision::ForcedBlock))
}

/// P(m) of every candidate of `pos`.
fn policy_of<P: SearchPosition>(pos: &P) -> Vec<(Point, f32)> {
    let mut c = Vec::new();
    pos.candidates(&mut c);
    let total: f32 = c.iter().map(|x| x.1.max(0.0)).sum();
    if total > 0.0 {
        c.iter_mut().for_each(|x| x.1 = x.1.max(0.0) / total);
    }
    c
}

/// The most visited child of `edge` (ties: higher mean, then prior order).
fn best_child(tree: &Tree, edge: u32) -> Option<u32> {
    let c = tree.children(edge)?;
    let key = |i: u32| {
        let s = tree.edge(i).stats();
        (s.visits, s.mean_key())
    };
    let mut best = c.first;
    for i in c.range() {
        if key(i) > key(best) {
            best = i;
        }
    }
    Some(best)
}

fn log_summary(board: &Board, o: &SearchOutcome, budget: Option<Duration>) {
    let pv: Vec<String> = o.pv.iter().map(|&p| format_gtp(p)).collect();
    tracing::info!(
        "stone {} {} {}: {:?}, {:.3} s of {}, {} playouts ({:.0}/s, {} reused), win {}, \
         nodes {}, pv {}",
        board.stone_count() + 1,
        board.to_move(),
        format_gtp(o.best),
        o.decision,
        o.elapsed.as_secs_f64(),
        budget.map_or("-".to_string(), |b| format!("{:.3} s", b.as_secs_f64())),
        o.playouts,
        o.playouts_per_second(),
        o.reused_visits,
        o.win_rate
            .map_or("-".to_string(), |w| format!("{:.1}%", 100.0 * w)),
        o.nodes,
        pv.join(" ")
    );
}

/// How often (in playouts) thread 0 looks whether the best stone is settled. The clock is read
/// after every playout (a few tens of nanoseconds against a playout's tens of microseconds).
const EARLY_STOP_INTERVAL: u64 = 64;

fn worker<P: SearchPosition>(shared: &Shared, thread: usize, seed: u64, root_pos: &P) {
    let tree = shared.tree;
    let params = shared.params;
    let vl = params.virtual_loss;
    let mut rng =
        SearchRng::seed_from_u64(seed ^ (thread as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
    let mut pos = root_pos.clone();
    let mut path: Vec<u32> = Vec::with_capacity(64);
    let mut scratch = ExpandScratch::default();
    let mut earlier = Vec::new();
    let mut stones = Vec::new();
    let mut local = 0u64;
    let proofs = params.solver.enabled;
    let mut solver =
        (proofs && params.solver.tree_nodes > 0).then(|| hooks::tree_solver(&params.solver));
    let area = shared.size * shared.size;
    let mut last_progress = Instant::now();
    while !shared.stop.load(Ordering::Relaxed) {
        pos.clone_from(root_pos);
        path.clear();
        path.push(ROOT);
        tree.edge(ROOT).add_virtual_loss(vl);
        let mut node = ROOT;
        let mut visits_before = u32::MAX;
        let mut parent_block: Option<Children> = None;
        let ending = loop {
            let r = pos.board().result();
            let depth = path.len() - 1;
            if r != GameResult::Ongoing {
                if proofs && node != ROOT && matches!(r, GameResult::Win(_)) {
                    tree.edge(node).set_proof(Proof::Win);
                    hooks::propagate(tree, &path, shared.root_len, area);
                }
                break Ending::exact(r);
            }
            if node != ROOT {
                if let Some(w) = hooks::proven_winner(tree.edge(node).proof(), shared.mover(depth))
                {
                    break Ending::exact(GameResult::Win(w));
                }
            }
            let children = match tree.edge(node).expansion() {
                Expansion::Expanded(c) => c,
                Expansion::Leaf
                    if visits_before.saturating_add(1) >= params.expand_visits
                        && !tree.is_full() =>
                {
                    if let Some(s) = solver
                        .as_mut()
                        .filter(|_| node != ROOT && depth as u32 <= params.solver.tree_plies)
                    {
                        let mover = shared.mover(depth);
                        let proof = hooks::expansion_proof(s, pos.board(), mover);
                        if let Some(w) = hooks::proven_winner(proof, mover) {
                            tree.edge(node).set_proof(proof);
                            hooks::propagate(tree, &path, shared.root_len, area);
                            break Ending::exact(GameResult::Win(w));
                        }
                    }
                    earlier_siblings(
                        tree,
                        params,
                        pos.board().stage(),
                        node,
                        parent_block,
                        shared.size,
                        &mut earlier,
                    );
                    if !expand(tree, params, node, depth, &pos, &earlier, &mut scratch) {
                        break play_out(shared, &mut pos, &mut rng, &mut stones);
                    }
                    tree.children(node).expect("just published")
                }
                _ => break play_out(shared, &mut pos, &mut rng, &mut stones),
            };
            let stats = tree.edge(node).stats();
            let same_player = pos.board().stage() == Stage::Second;
            let view = NodeView {
                visits: stats.visits,
                mean_for_chooser: stats.mean().map(|m| if same_player { m } else { 1.0 - m }),
                is_root: node == ROOT,
            };
            let child = select_child(tree, params, children, &view);
            visits_before = tree.edge(child).add_virtual_loss(vl);
            pos.play(Point::from_index(
                tree.edge(child).cell() as usize,
                shared.size,
            ));
            path.push(child);
            parent_block = Some(children);
            node = child;
        };
        let rewards = ending.rewards(params.value_mix);
        for (depth, &e) in path.iter().enumerate() {
            tree.edge(e)
                .backup(vl, rewards[shared.mover(depth).index()]);
        }
        local += 1;
        let done = shared.playouts.fetch_add(1, Ordering::Relaxed) + 1;
        if shared.max_playouts.is_some_and(|m| done >= m)
            || tree.edge(ROOT).stats().visits >= MAX_VISITS
        {
            shared.stop.store(true, Ordering::Relaxed);
        }
        if shared.deadline.is_some_and(|d| Instant::now() >= d) {
            shared.stop.store(true, Ordering::Relaxed);
        }
        if let Some(watch) = shared.watch {
            if watch.stop_requested() {
                shared.stop.store(true, Ordering::Relaxed);
            } else if thread == 0 && last_progress.elapsed() >= PROGRESS_INTERVAL {
                last_progress = Instant::now();
                watch.progress(
                    done,
                    shared.start.elapsed(),
                    &root_children_of(tree, shared.size),
                );
            }
        }
        if thread == 0
            && params.early_stop
            && local.is_multiple_of(EARLY_STOP_INTERVAL)
            && budget_share_used(shared, done) >= f64::from(params.early_stop_min_share)
            && cannot_be_overtaken(shared, done)
        {
            shared.stop.store(true, Ordering::Relaxed);
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewards_mix_the_result_with_the_leaf_value_and_stay_complementary() {
        let win = GameResult::Win(Color::Black);
        let exact = Ending::exact(win);
        assert_eq!(exact.rewards(0.5), [REWARD_UNIT, 0]);
        let draw = Ending::exact(GameResult::Draw);
        assert_eq!(draw.rewards(0.0), [REWARD_UNIT / 2; 2]);
        // White to move at the leaf, valued 0.75 for White; Black won the playout.
        let valued = Ending {
            result: win,
            leaf_value: Some((Color::White, 0.75)),
        };
        assert_eq!(valued.rewards(0.0), [REWARD_UNIT, 0]);
        assert_eq!(valued.rewards(1.0), [REWARD_UNIT / 4, 3 * REWARD_UNIT / 4]);
        // λ = 0.5: White gets (0 + 0.75) / 2 = 0.375 of a win, rounded to a unit.
        let white = (0.375 * REWARD_UNIT as f64).round() as u32;
        assert_eq!(valued.rewards(0.5), [REWARD_UNIT - white, white]);
    }
}
