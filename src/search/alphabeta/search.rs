//! The searcher: iterative deepening over a negamax alpha-beta with one stone per ply.
//!
//! The side to move changes only after a turn's second stone, so a child's score keeps its sign
//! (and the window stays) when the same player places the next stone, and is negated (with the
//! window flipped) when the opponent does — the alpha-beta form of the MCTS backup rule.
//!
//! Rules shared with the MCTS (docs/alphabeta.md): at the root, a stone that wins, or the single
//! stone that meets a six-threat, is played without search, and the threat solver's pre-pass
//! (when enabled) plays a proven VCDT at once or keeps the root to the stones that can meet the
//! opponent's (`search::common::root_plan`); inside the tree, a position where
//! the side to move completes a six this turn is a win, one where the opponent has more
//! threats than the side to move has stones left is a loss, and a position under threat
//! searches only the blocking stones.

use super::leaf::LeafEvaluator;
use super::order::ordered_moves;
use super::score::{self, Score, INFINITY};
use super::tt::{Bound, Entry, TranspositionTable};
use super::AlphaBetaParams;
use crate::notation::format_gtp;
use crate::patterns::stones_left;
use crate::policy::{Gammas, PolicyBoard};
use crate::rules::{Board, GameResult, Point};
use crate::search::common::SolverParams;
use crate::search::common::{
    forced_stone, min_cap, policy_of, root_plan, Analysis, ChildAnalysis, Decision, JudgeLimits,
    Judgement, Limits, PolicyFactory, PositionFactory, PositionJudge, RootPlan, SearchOutcome,
    ThinkObserver,
};
use crate::tactics::{Solver, SolverLimits};
use std::sync::Arc;
use web_time::Instant;

/// One root stone after the last completed iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct RootMove {
    pub point: Point,
    /// Bradley-Terry probability among the root's candidates.
    pub prior: f32,
    /// Its score (an upper bound for stones searched after a better one; from the iteration
    /// before for stones a limit left unsearched in the last one).
    pub score: Score,
    /// Nodes its subtree took.
    pub nodes: u64,
}

/// Iterative-deepening alpha-beta over the Bradley-Terry policy board.
pub struct AlphaBeta {
    params: AlphaBetaParams,
    /// The threat solver's settings (the `[search] solver*` keys).
    solver_params: SolverParams,
    gammas: Arc<Gammas>,
    leaf: LeafEvaluator,
    tt: TranspositionTable,
    /// The threat solver of the root pre-pass.
    solver: Solver,
    /// The root stones of the last search, best first (empty when the stone was forced).
    last_root: Vec<RootMove>,
    /// The last search's root for front-ends.
    analysis: Analysis,
}

/// The state of one search.
struct Worker<'a> {
    pb: PolicyBoard,
    tt: &'a mut TranspositionTable,
    leaf: &'a LeafEvaluator,
    width: usize,
    nodes: u64,
    deadline: Option<Instant>,
    /// The caller's observer ([`Limits::observer`]), asked with the clock whether to stop.
    observer: Option<&'a dyn ThinkObserver>,
    max_nodes: Option<u64>,
    aborted: bool,
    /// Move lists, one per ply (reused).
    buffers: Vec<Vec<(u16, f64)>>,
}

/// How often (in nodes) the clock is read.
const CLOCK_INTERVAL: u64 = 512;
/// No iteration is started once this share of the time is gone. One that runs out of time
/// still counts for the root stones it finished (the previous best is searched first).
const NEXT_ITERATION_SHARE: f64 = 0.6;

impl AlphaBeta {
    /// The search with its table of `params.hash_mb`; an error naming the key when that memory
    /// cannot be had.
    pub fn new(
        params: AlphaBetaParams,
        gammas: Arc<Gammas>,
        leaf: LeafEvaluator,
    ) -> Result<AlphaBeta, String> {
        let tt = TranspositionTable::new(params.hash_mb).map_err(|e| {
            format!(
                "alphabeta.hash_mb = {}: cannot allocate the transposition table ({e})",
                params.hash_mb
            )
        })?;
        Ok(AlphaBeta {
            params,
            solver_params: SolverParams::default(),
            gammas,
            leaf,
            tt,
            solver: Solver::new(SolverLimits::default()),
            last_root: Vec::new(),
            analysis: Analysis::default(),
        })
    }

    /// The threat solver's settings (the shipped ones until this is called).
    pub fn with_solver(mut self, solver: SolverParams) -> AlphaBeta {
        self.solver_params = solver;
        self
    }

    pub fn params(&self) -> &AlphaBetaParams {
        &self.params
    }

    pub fn leaf(&self) -> &LeafEvaluator {
        &self.leaf
    }

    /// Forgets the transposition table (new game, takeback).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.last_root.clear();
        self.analysis = Analysis::default();
    }

    /// The root stones of the last search (empty when the stone was forced).
    pub fn last_root(&self) -> &[RootMove] {
        &self.last_root
    }

    /// The last search's root: policy, and per searched root stone the nodes its subtree took
    /// (as `visits`) and the probability its score stands for (as `win_rate`; for stones that
    /// did not beat the best, the score is only an upper bound).
    pub fn analysis(&self) -> &Analysis {
        &self.analysis
    }

    /// P(m) of every candidate stone of the side to move on `board`.
    pub fn policy(&self, board: &Board) -> Vec<(Point, f32)> {
        policy_of(&PolicyFactory::new(Arc::clone(&self.gammas)).position(board))
    }

    /// Chooses a stone for the side to move. `None` only when the game is over.
    pub fn think(&mut self, board: &Board, limits: &Limits) -> Option<SearchOutcome> {
        if board.is_over() || board.legal_points().next().is_none() {
            return None;
        }
        let start = Instant::now();
        let root = PolicyFactory::new(Arc::clone(&self.gammas)).position(board);
        self.analysis = Analysis {
            stone_count: board.stone_count(),
            policy: policy_of(&root),
            children: Vec::new(),
            decided: None,
        };
        self.last_root.clear();
        let plan = if self.solver_params.solver {
            root_plan(
                &mut self.solver,
                board,
                &self.solver_params,
                limits.time,
                None,
                None,
            )
        } else {
            RootPlan::Free
        };
        let forced = forced_stone(&root).or(match plan {
            RootPlan::Play(p) => Some((p, Decision::Proven)),
            _ => None,
        });
        if let Some((best, decision)) = forced {
            self.analysis.decided = Some((best, decision));
            let sure_win = matches!(decision, Decision::Win | Decision::Proven);
            let outcome = SearchOutcome {
                score: if sure_win { score::win_in(1) } else { 0 },
                win_rate: Some(if sure_win { 1.0 } else { 0.5 }),
                ..SearchOutcome::unsearched(best, decision, start.elapsed())
            };
            log_summary(board, &outcome);
            return Some(outcome);
        }
        self.tt.next_generation();
        let max_nodes = min_cap(limits.nodes, self.params.node_limit());
        let max_depth = limits
            .depth
            .map_or(self.params.max_depth, |d| d.min(self.params.max_depth))
            .max(1);
        let mut worker = Worker {
            deadline: limits.time.map(|t| start + t),
            observer: limits.observer.as_deref(),
            max_nodes,
            ..Worker::new(
                root.policy_board().clone(),
                &mut self.tt,
                &self.leaf,
                &self.params,
            )
        };
        let mut moves = Vec::new();
        ordered_moves(
            &worker.pb,
            self.params.root_width as usize,
            None,
            &mut moves,
        );
        let mut root_moves: Vec<RootMove> = moves
            .iter()
            .map(|&(cell, _)| {
                let point = Point::from_index(cell as usize, board.size());
                RootMove {
                    point,
                    prior: worker.pb.probability(point) as f32,
                    score: -INFINITY,
                    nodes: 0,
                }
            })
            .collect();
        let mut completed: Option<(u32, Score, Vec<RootMove>)> = None;
        for depth in 1..=max_depth {
            let Some((best, finished)) = worker.search_root(depth, &mut root_moves) else {
                break;
            };
            completed = Some((depth, best, root_moves.clone()));
            if !finished {
                break;
            }
            let used = start.elapsed();
            let out_of_time = limits
                .time
                .is_some_and(|t| used.as_secs_f64() > NEXT_ITERATION_SHARE * t.as_secs_f64());
            if score::is_decisive(best) || out_of_time {
                break;
            }
        }
        let nodes = worker.nodes;
        let (depth, best_score, ranked) = completed.unwrap_or_else(|| {
            // Not even depth 1 finished: take the policy's favourite.
            (0, 0, root_moves.clone())
        });
        let best = ranked[0].point;
        let pv = principal_variation(&mut worker.pb, worker.tt, best, depth.max(1) as usize);
        let outcome = SearchOutcome {
            depth,
            score: best_score,
            win_rate: Some(score::to_probability(best_score) as f32),
            nodes,
            pv,
            ..SearchOutcome::unsearched(best, Decision::Searched, start.elapsed())
        };
        self.analysis.children = ranked
            .iter()
            .map(|m| ChildAnalysis {
                point: m.point,
                prior: m.prior,
                visits: m.nodes.min(u32::MAX as u64) as u32,
                win_rate: Some(score::to_probability(m.score) as f32),
                pv: vec![m.point],
            })
            .collect();
        self.last_root = ranked;
        log_summary(board, &outcome);
        Some(outcome)
    }
}

impl PositionJudge for AlphaBeta {
    /// Iterative deepening to `limits.depth` over the whole window from `board`'s side to move
    /// (every node `alphabeta.width` wide, the root too): no root plan, no log line, the
    /// transposition table kept across calls (a verification's positions share most of their
    /// subtrees).
    fn judge(&mut self, board: &Board, limits: JudgeLimits<'_>) -> Option<Judgement> {
        let root = PolicyFactory::new(Arc::clone(&self.gammas)).position(board);
        self.tt.next_generation();
        let mut worker = Worker {
            deadline: limits.deadline,
            max_nodes: limits.nodes,
            observer: limits.observer,
            ..Worker::new(
                root.policy_board().clone(),
                &mut self.tt,
                &self.leaf,
                &self.params,
            )
        };
        let mut verdict = None;
        for depth in 0..=limits.depth {
            // Checked between iterations too: the shallow ones end below the clock's interval.
            if limits.observer.is_some_and(|o| o.stop_requested()) {
                break;
            }
            let score = worker.negamax(depth, -INFINITY, INFINITY, 0);
            if worker.aborted {
                break;
            }
            verdict = Some((depth, score));
            if score::is_decisive(score) {
                break;
            }
        }
        // A proven result holds at every depth: it stands for the depth asked.
        verdict.map(|(depth, score)| Judgement {
            win_probability: score::to_probability(score),
            depth: if score::is_decisive(score) {
                limits.depth
            } else {
                depth
            },
            nodes: worker.nodes,
        })
    }
}

impl<'a> Worker<'a> {
    /// A worker with no limits yet.
    fn new(
        pb: PolicyBoard,
        tt: &'a mut TranspositionTable,
        leaf: &'a LeafEvaluator,
        params: &AlphaBetaParams,
    ) -> Worker<'a> {
        Worker {
            pb,
            tt,
            leaf,
            width: params.width as usize,
            nodes: 0,
            deadline: None,
            observer: None,
            max_nodes: None,
            aborted: false,
            buffers: Vec::new(),
        }
    }

    fn check_limits(&mut self) {
        if self.max_nodes.is_some_and(|m| self.nodes >= m) {
            self.aborted = true;
        }
        if self.nodes.is_multiple_of(CLOCK_INTERVAL)
            && (self.deadline.is_some_and(|d| Instant::now() >= d)
                || self.observer.is_some_and(|o| o.stop_requested()))
        {
            self.aborted = true;
        }
    }

    /// Searches every root stone to `depth`; ranks them best first. Returns the best score and
    /// whether every root stone was searched. When a limit cuts the iteration short after some
    /// root stones, those (the previous best among them, searched first) are ranked before the
    /// rest; `None` when not even the first root stone finished (the previous iteration stands).
    fn search_root(&mut self, depth: u32, root_moves: &mut [RootMove]) -> Option<(Score, bool)> {
        let mover = self.pb.board().to_move();
        let size = self.pb.board().size();
        let mut alpha = -INFINITY;
        let mut best = -INFINITY;
        let mut best_cell = None;
        let mut done = 0;
        for rm in root_moves.iter_mut() {
            let before = self.nodes;
            self.pb
                .play(rm.point)
                .expect("root stones are empty points");
            let same = self.pb.board().to_move() == mover;
            let v = if same {
                self.negamax(depth - 1, alpha, INFINITY, 1)
            } else {
                -self.negamax(depth - 1, -INFINITY, -alpha, 1)
            };
            self.pb.undo();
            if self.aborted {
                break;
            }
            done += 1;
            rm.score = v;
            rm.nodes = self.nodes - before;
            if v > best {
                best = v;
                best_cell = Some(rm.point.index(size) as u16);
                alpha = alpha.max(v);
            }
        }
        if done == 0 {
            return None;
        }
        if done < root_moves.len() {
            root_moves[..done].sort_by_key(|m| std::cmp::Reverse(m.score));
            return Some((best, false));
        }
        // Best first; a stable sort keeps the previous order among equal scores.
        root_moves.sort_by_key(|m| std::cmp::Reverse(m.score));
        let key = self.pb.board().hash();
        self.tt.store(
            key,
            Entry {
                score: score::to_table(best, 0),
                best: best_cell,
                depth,
                bound: Bound::Exact,
            },
        );
        Some((best, true))
    }

    fn leaf_score(&self) -> Score {
        score::from_probability(self.leaf.win_probability(self.pb.features()))
    }

    fn negamax(&mut self, depth: u32, mut alpha: Score, beta: Score, ply: u32) -> Score {
        self.nodes += 1;
        self.check_limits();
        if self.aborted {
            return 0;
        }
        let board = self.pb.board();
        match board.result() {
            GameResult::Win(c) if c == board.to_move() => return score::win_in(ply),
            GameResult::Win(_) => return -score::win_in(ply),
            GameResult::Draw => return 0,
            GameResult::Ongoing => {}
        }
        let left = stones_left(board) as u32;
        if !self.pb.winning_points().is_empty() {
            return score::win_in(ply + left);
        }
        let opponent = board.to_move().opponent();
        if self.pb.features().patterns().threat_count(opponent) > left {
            return -score::win_in(ply + left + 2);
        }
        if depth == 0 {
            return self.leaf_score();
        }
        let key = board.hash();
        let mover = board.to_move();
        let mut hint = None;
        if let Some(e) = self.tt.probe(key) {
            hint = e.best;
            if e.depth >= depth {
                let s = score::from_table(e.score, ply);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let slot = ply as usize;
        if self.buffers.len() <= slot {
            self.buffers.resize_with(slot + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.buffers[slot]);
        ordered_moves(&self.pb, self.width, hint, &mut moves);
        let size = self.pb.board().size();
        let alpha0 = alpha;
        let mut best = -INFINITY;
        let mut best_cell = None;
        for &(cell, _) in &moves {
            self.pb
                .play(Point::from_index(cell as usize, size))
                .expect("ordered moves are empty points");
            let same = self.pb.board().to_move() == mover;
            let v = if same {
                self.negamax(depth - 1, alpha, beta, ply + 1)
            } else {
                -self.negamax(depth - 1, -beta, -alpha, ply + 1)
            };
            self.pb.undo();
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_cell = Some(cell);
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let no_moves = moves.is_empty();
        self.buffers[slot] = moves;
        if self.aborted {
            return 0;
        }
        if no_moves {
            // Only a full board leaves nothing to play: a draw.
            return 0;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            Entry {
                score: score::to_table(best, ply),
                best: best_cell,
                depth,
                bound,
            },
        );
        best
    }
}

/// The best stones the table remembers from the root, starting with `first`.
fn principal_variation(
    pb: &mut PolicyBoard,
    tt: &TranspositionTable,
    first: Point,
    max_len: usize,
) -> Vec<Point> {
    let size = pb.board().size();
    let mut pv = vec![first];
    pb.play(first).expect("the chosen stone is empty");
    while pv.len() < max_len && !pb.board().is_over() {
        let Some(cell) = tt.probe(pb.board().hash()).and_then(|e| e.best) else {
            break;
        };
        let p = Point::from_index(cell as usize, size);
        if pb.play(p).is_err() {
            break;
        }
        pv.push(p);
    }
    for _ in 0..pv.len() {
        pb.undo();
    }
    pv
}

fn log_summary(board: &Board, o: &SearchOutcome) {
    let pv: Vec<String> = o.pv.iter().map(|&p| format_gtp(p)).collect();
    tracing::info!(
        "stone {} {} {}: {:?}, alpha-beta depth {}, {} nodes ({:.0}/s), score {} (win {:.1}%), pv {}",
        board.stone_count() + 1,
        board.to_move(),
        format_gtp(o.best),
        o.decision,
        o.depth,
        o.nodes,
        o.nodes_per_second(),
        o.score,
        100.0 * o.win_rate.unwrap_or(0.5),
        pv.join(" ")
    );
}
