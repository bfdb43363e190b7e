//! The threat-space solver (`crate::tactics`, design.md A2) inside the tree search.
//!
//! * Root pre-pass ([`root_plan`]): a proven VCDT of the side to move is played at once; when
//!   the opponent has one (if we passed), the root's children are cut to the defence zone, and at
//!   a turn's second stone the zone cells verified to lose are marked as proven losses.
//! * Proofs in the tree (MCTS-solver, Winands et al. 2008): an edge whose stone makes six, or
//!   whose position gives the side to move a VCDT ([`expansion_proof`]), is marked won or lost
//!   for the player who placed it; [`propagate`] backs the marks up (a node is won when one
//!   child wins for the player to choose, lost when every child of a complete set loses).
//!   Descents stop at proven edges and back up the proven result.
//! * Selection takes a proven win and skips proven losses; the final choice does the same
//!   ([`root_choice`]).

use super::node::{Children, Proof};
use super::tree::{Tree, ROOT};
use crate::notation::format_gtp;
use crate::patterns::{stones_left, CellSet};
use crate::rules::{Board, Color, Point, Stage};
use crate::tactics::{
    defend, partner, DefenceLimits, Partner, Solver, SolverLimits, Threat, ThreatBoard, Verdict,
};
use std::time::{Duration, Instant};

/// The solver's settings (`[search] solver*` keys).
#[derive(Clone, Debug, PartialEq)]
pub struct SolverParams {
    /// Use the solver at all (off: the search as it was, for comparison matches).
    pub enabled: bool,
    /// Node limit of the root's VCDT solves (ours, and the opponent's after a pass).
    pub root_nodes: u64,
    /// Node limit of each verification of a defence-zone cell at the root.
    pub verify_nodes: u64,
    /// Node limit of the solve when a tree node is expanded; 0 = no solves in the tree.
    pub tree_nodes: u64,
    /// Tree nodes at most this many stones below the root are solved at expansion.
    pub tree_plies: u32,
    /// At a turn's first stone under an opponent VCDT, check first stones for a defending second
    /// (pair defence) and keep the root to those that have one (MCTS only).
    pub pair_defence: bool,
    /// Share of a stone's time for the pair defence's checks at a turn's first stone; the
    /// verifications at its second stone get half of it (with the pair defence on).
    pub pair_share: f32,
}

impl Default for SolverParams {
    fn default() -> Self {
        SolverParams {
            enabled: true,
            root_nodes: 100_000,
            verify_nodes: 5_000,
            tree_nodes: 300,
            tree_plies: 4,
            pair_defence: true,
            pair_share: 0.25,
        }
    }
}

/// Most zone cells verified at the root.
const MAX_VERIFICATIONS: usize = 48;
/// The pair defence stops once this many first stones are known to have a defending second:
/// enough choice for the tree.
const PAIR_ENOUGH: usize = 8;
/// With a playout limit, the pair defence places at most this many stones per playout.
const PAIR_NODES_PER_PLAYOUT: u64 = 80;
/// Share of a stone's time the root pre-pass may spend on each solve.
const ROOT_TIME_SHARE: u32 = 8;
/// With a playout limit, the root pre-pass places at most this many stones per playout in each
/// of its solves and in its verifications together (a solver node costs about a microsecond, a
/// playout a few hundred), so small fixed budgets stay small.
const NODES_PER_PLAYOUT: u64 = 20;

/// What the root pre-pass decided.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum RootPlan {
    /// A proven VCDT starts with this stone.
    Play(Point),
    /// The opponent has a VCDT: the root's stones are cut to `allowed`; `lost` are proven to
    /// lose (our last stone of the turn, after which the opponent's VCDT stands).
    Restrict {
        allowed: CellSet,
        lost: CellSet,
    },
    Free,
}

/// The root pre-pass for the side to move on `board` (not over, no immediate win or forced
/// single block: those come first).
/// `time` and `playouts` are the stone's limits. `order`: the root's candidate stones, best
/// first, for the pair defence (`None`: no pair defence, whatever `params` say).
pub(crate) fn root_plan(
    solver: &mut Solver,
    board: &Board,
    params: &SolverParams,
    time: Option<Duration>,
    playouts: Option<u64>,
    order: Option<&[Point]>,
) -> RootPlan {
    let start = Instant::now();
    let pair = params.pair_defence && order.is_some();
    let budget = playouts.map_or(u64::MAX, |n| n.saturating_mul(NODES_PER_PLAYOUT).max(1));
    solver.limits = SolverLimits {
        max_nodes: params.root_nodes.min(budget),
        max_time: time.map(|t| t / ROOT_TIME_SHARE),
        ..SolverLimits::default()
    };
    if let Verdict::Win(proof) = solver.solve(board) {
        let line: Vec<String> = proof.line.iter().map(|&p| format_gtp(p)).collect();
        tracing::info!(depth = proof.depth, "solver: VCDT {}", line.join(" "));
        return RootPlan::Play(proof.stones[0]);
    }
    let verify_nodes = params
        .verify_nodes
        .min(budget / MAX_VERIFICATIONS as u64)
        .max(1);
    let two_stones = stones_left(board) == 2;
    let limits = DefenceLimits {
        verify_nodes,
        // With the pair defence, single stones are checked by the pair checks at the first
        // stone, and the second stone's verifications get their own share.
        max_verifications: if pair && two_stones {
            0
        } else {
            MAX_VERIFICATIONS
        },
        max_time: time.map(|t| {
            if pair {
                t.mul_f32(params.pair_share / 2.0)
            } else {
                t / ROOT_TIME_SHARE
            }
        }),
    };
    let Threat::Vcdt(defence) = defend(solver, board, &limits) else {
        return RootPlan::Free;
    };
    let size = board.size();
    let names = |set: &CellSet| {
        let v: Vec<String> = set.points(size).map(format_gtp).collect();
        v.join(" ")
    };
    tracing::info!(
        "solver: opponent VCDT, zone {} (breakers: {})",
        names(&defence.zone),
        names(&defence.breakers)
    );
    if !two_stones {
        // Our last stone: a zone cell verified to lose does lose, one verified to break the
        // threat is safe.
        let allowed = if pair && !defence.breakers.is_empty() {
            defence.breakers
        } else {
            defence.candidates()
        };
        if allowed.is_empty() {
            return RootPlan::Restrict {
                allowed: defence.zone,
                lost: CellSet::new(),
            };
        }
        RootPlan::Restrict {
            allowed,
            lost: defence.losing,
        }
    } else if let Some(order) = order.filter(|_| pair) {
        let deadline = time.map(|t| start + t.mul_f32(params.pair_share));
        let nodes = playouts.map(|n| n.saturating_mul(PAIR_NODES_PER_PLAYOUT).max(1));
        pair_defence(solver, board, params, &defence.zone, order, deadline, nodes)
    } else {
        // Two stones: any defending pair has a stone in the zone, which can go first.
        RootPlan::Restrict {
            allowed: defence.zone,
            lost: CellSet::new(),
        }
    }
}

/// The pair defence at a turn's first stone: zone cells, in `order` (then the rest of the zone),
/// are checked for a second stone that completes a defence ([`partner`]) until [`PAIR_ENOUGH`]
/// have one or the deadline or node budget is reached. The root keeps the cells with a partner;
/// cells where no second stone helps are proven losses. Without any cell with a partner, the
/// root keeps the zone.
fn pair_defence(
    solver: &mut Solver,
    board: &Board,
    params: &SolverParams,
    zone: &CellSet,
    order: &[Point],
    deadline: Option<Instant>,
    nodes: Option<u64>,
) -> RootPlan {
    let size = board.size();
    let me = board.to_move();
    let mut cells: Vec<usize> = order
        .iter()
        .map(|p| p.index(size))
        .filter(|&c| zone.contains(c))
        .collect();
    let mut listed = CellSet::new();
    cells.iter().for_each(|&c| listed.insert(c));
    cells.extend(zone.iter().filter(|&c| !listed.contains(c)));
    let mut tb = ThreatBoard::from_board(board);
    let first_nodes = solver.total_nodes();
    let (mut safe, mut lost) = (CellSet::new(), CellSet::new());
    let mut checked = 0;
    for cell in cells {
        let spent = solver.total_nodes() - first_nodes;
        if safe.len() >= PAIR_ENOUGH
            || deadline.is_some_and(|d| Instant::now() >= d)
            || nodes.is_some_and(|n| spent >= n)
        {
            break;
        }
        if tb.get(cell).is_some() {
            continue;
        }
        let left = |n: u64| nodes.map_or(n, |limit| n.min(limit.saturating_sub(spent)).max(1));
        let remaining = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        solver.limits = SolverLimits {
            max_nodes: left(params.verify_nodes.saturating_mul(4)),
            max_time: remaining,
            ..SolverLimits::default()
        };
        let limits = DefenceLimits {
            verify_nodes: left(params.verify_nodes),
            max_verifications: MAX_VERIFICATIONS,
            max_time: remaining,
        };
        checked += 1;
        match partner(solver, &mut tb, me, cell, &limits) {
            Partner::Alone | Partner::With(_) => safe.insert(cell),
            Partner::Lost => lost.insert(cell),
            Partner::Unknown => {}
        }
    }
    let names = |set: &CellSet| {
        let v: Vec<String> = set.points(size).map(format_gtp).collect();
        v.join(" ")
    };
    tracing::info!(
        "solver: pair defence, {checked} first stones checked; with a partner: {}; lost: {}",
        names(&safe),
        names(&lost)
    );
    if safe.is_empty() {
        let mut rest = *zone;
        lost.iter().for_each(|c| rest.remove(c));
        return RootPlan::Restrict {
            allowed: if rest.is_empty() { *zone } else { rest },
            lost,
        };
    }
    RootPlan::Restrict {
        allowed: safe,
        lost,
    }
}

/// Marks the root's children for a [`RootPlan::Restrict`]: cells in `lost` as proven losses,
/// other cells outside `allowed` as excluded. Marks nothing when no child would remain.
pub(crate) fn restrict_root(tree: &Tree, allowed: &CellSet, lost: &CellSet) {
    let Some(children) = tree.children(ROOT) else {
        return;
    };
    let open = children.range().any(|i| {
        let cell = tree.edge(i).cell() as usize;
        allowed.contains(cell) && !lost.contains(cell)
    });
    for i in children.range() {
        let edge = tree.edge(i);
        let cell = edge.cell() as usize;
        if lost.contains(cell) {
            edge.set_proof(Proof::Loss);
        } else if open && !allowed.contains(cell) && edge.proof() == Proof::Unknown {
            edge.set_proof(Proof::Excluded);
        }
    }
}

/// Clears exclusion marks left on the root's children by an earlier search.
pub(crate) fn clear_exclusions(tree: &Tree) {
    if let Some(children) = tree.children(ROOT) {
        for i in children.range() {
            if tree.edge(i).proof() == Proof::Excluded {
                tree.edge(i).set_proof(Proof::Unknown);
            }
        }
    }
}

/// The proof for an edge placed by `mover` that leads to `board`, from a VCDT solve for the side
/// to move at the start of its turn (a second stone was covered by the solve of its turn start).
pub(crate) fn expansion_proof(solver: &mut Solver, board: &Board, mover: Color) -> Proof {
    if board.is_over() || board.stage() != Stage::First || board.stone_count() == 0 {
        return Proof::Unknown;
    }
    match solver.solve(board) {
        Verdict::Win(_) if board.to_move() == mover => Proof::Win,
        Verdict::Win(_) => Proof::Loss,
        _ => Proof::Unknown,
    }
}

/// The solver the tree's expansions use (small limits).
pub(crate) fn tree_solver(params: &SolverParams) -> Solver {
    Solver::new(SolverLimits {
        max_depth: 6,
        max_nodes: params.tree_nodes,
        max_time: None,
    })
}

/// The winner when the descent reaches a proven edge placed by `mover`.
pub(crate) fn proven_winner(proof: Proof, mover: Color) -> Option<Color> {
    match proof {
        Proof::Win => Some(mover),
        Proof::Loss => Some(mover.opponent()),
        _ => None,
    }
}

/// Backs proofs up `path` (edges from the root; the last one may just have been proven).
/// `root_len`: stones on the board at the root; `area`: cells of the board. The root itself is
/// never marked.
pub(crate) fn propagate(tree: &Tree, path: &[u32], root_len: usize, area: usize) {
    // Edge at depth d holds stone number root_len + d - 1 (from 0).
    let mover = |d: usize| Board::color_of_stone(root_len + d - 1);
    for d in (2..path.len()).rev() {
        let child = tree.edge(path[d]);
        let parent = tree.edge(path[d - 1]);
        let chooser = mover(d);
        let same = chooser == mover(d - 1);
        let for_chooser = match child.proof() {
            Proof::Win => true,
            Proof::Loss => {
                let Some(block) = tree.children(path[d - 1]) else {
                    return;
                };
                let all_lost = block.range().all(|i| tree.edge(i).proof() == Proof::Loss);
                if !all_lost || !complete(tree, path, d - 1, block, root_len, area) {
                    return;
                }
                false
            }
            _ => return,
        };
        let proof = if for_chooser == same {
            Proof::Win
        } else {
            Proof::Loss
        };
        if parent.proof() == proof {
            return;
        }
        parent.set_proof(proof);
    }
}

/// Whether the children `block` of the node at `path[d]` stand for every stone there: a forced
/// set, or every empty cell (a canonical-order block: with its earlier siblings, below a parent
/// whose block has every empty cell, so every pair is covered under one order or the other).
fn complete(
    tree: &Tree,
    path: &[u32],
    d: usize,
    block: Children,
    root_len: usize,
    area: usize,
) -> bool {
    let empties = |depth: usize| area.saturating_sub(root_len + depth);
    if block.restricted || block.count as usize >= empties(d) {
        return true;
    }
    if !block.filtered || d == 0 {
        return false;
    }
    let Some(parent) = tree.children(path[d - 1]) else {
        return false;
    };
    let earlier = (path[d] - parent.first) as usize;
    parent.count as usize >= empties(d - 1) && block.count as usize + earlier >= empties(d)
}

/// The root child to play: a proven win, else the most visited among those not proven lost or
/// excluded; `None` when every child is lost or excluded.
pub(crate) fn root_choice(tree: &Tree) -> Option<u32> {
    let children = tree.children(ROOT)?;
    if let Some(win) = children
        .range()
        .find(|&i| tree.edge(i).proof() == Proof::Win)
    {
        return Some(win);
    }
    children
        .range()
        .filter(|&i| matches!(tree.edge(i).proof(), Proof::Unknown))
        .max_by_key(|&i| {
            let s = tree.edge(i).stats();
            (s.visits, s.mean_key(), u32::MAX - i)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::node::Stats;
    use crate::search::{Decision, Limits, Search, SearchParams, SimpleFactory};
    use crate::tactics::suite::replay;

    fn params(solver: bool) -> SearchParams {
        SearchParams {
            playouts_per_stone: Some(300),
            max_nodes: 1 << 18,
            solver: SolverParams {
                enabled: solver,
                ..SolverParams::default()
            },
            ..SearchParams::default()
        }
    }

    fn block(tree: &Tree, parent: u32, cells: &[u16], restricted: bool) -> Children {
        assert!(tree.edge(parent).try_begin_expansion());
        let first = tree.allocate(cells.len() as u32).unwrap();
        for (k, &c) in cells.iter().enumerate() {
            tree.edge(first + k as u32).init(c, 0.5);
        }
        let children = Children {
            first,
            count: cells.len() as u32,
            restricted,
            filtered: false,
        };
        tree.edge(parent).publish(children);
        children
    }

    #[test]
    fn proofs_back_up_as_wins_at_once_and_losses_when_every_child_loses() {
        // Root after 3 stones (Black to move, first stone). Depth 1: Black's first stones;
        // depth 2: Black's second stones (same player); depth 3: White's first stones.
        let tree = Tree::new(64);
        let root_len = 3;
        let area = 361;
        let a = block(&tree, ROOT, &[10, 11], false);
        let b = block(&tree, a.first, &[20, 21], true);
        let c = block(&tree, b.first, &[30, 31], true);
        // White's first stone 30 wins for White: the node after Black's pair is won by White,
        // so Black's second stone 20 (its edge) loses for Black; its sibling 21 is open.
        tree.edge(c.first).set_proof(Proof::Win);
        let path = [ROOT, a.first, b.first, c.first];
        propagate(&tree, &path, root_len, area);
        assert_eq!(tree.edge(b.first).proof(), Proof::Loss);
        assert_eq!(tree.edge(a.first).proof(), Proof::Unknown);
        // Once 21 loses too, the forced set is all lost: Black's first stone 10 loses.
        tree.edge(b.first + 1).set_proof(Proof::Loss);
        propagate(&tree, &[ROOT, a.first, b.first + 1], root_len, area);
        assert_eq!(tree.edge(a.first).proof(), Proof::Loss);
        // A free (incomplete) set of first stones never proves a loss, and the root is never
        // marked.
        tree.edge(a.first + 1).set_proof(Proof::Loss);
        propagate(&tree, &[ROOT, a.first + 1], root_len, area);
        assert_eq!(tree.edge(ROOT).proof(), Proof::Unknown);
        assert_eq!(root_choice(&tree), None);
        tree.edge(a.first + 1).set_proof(Proof::Unknown);
        tree.edge(a.first + 1)
            .set_stats(Stats { visits: 1, wins: 0 });
        assert_eq!(root_choice(&tree), Some(a.first + 1));
    }

    #[test]
    fn root_plays_a_proven_threat_sequence() {
        // Black's open three on row 10 and two on column o: n10 n12 then a column four wins
        // (tests/data/vcdt.txt, hand-row-then-column), though no six is possible this turn.
        let b = replay("k10 a19-h19 l10-m10 o19-a12 n13-o13 s12-s5").unwrap();
        let o = Search::new(params(true), SimpleFactory)
            .think(&b, Limits::default())
            .unwrap();
        assert_eq!(o.decision, Decision::Proven);
        assert_eq!(o.playouts, 0);
        let plain = Search::new(params(false), SimpleFactory)
            .think(&b, Limits::default())
            .unwrap();
        assert_eq!(plain.decision, Decision::Searched);
    }

    #[test]
    fn last_stone_of_a_turn_takes_the_only_defence() {
        // Black's threes on row 10 and on the diagonal f6-h8 cross at j10, the one stone that
        // stops Black's threat sequence (hand-crossing-threes); White already placed s19.
        let b = replay("k10 a19-h19 l10-m10 o19-a12 f6-g7 s12-s5 h8-s1 s19").unwrap();
        let j10 = Point::new(9, 9);
        let mut s = Search::new(params(true), SimpleFactory);
        let o = s.think(&b, Limits::default()).unwrap();
        assert_eq!(o.best, j10, "{o:?}");
        // The plan: j10 allowed, the zone's other cells proven lost.
        let mut solver = Solver::new(SolverLimits::default());
        let RootPlan::Restrict { allowed, lost } =
            root_plan(&mut solver, &b, &SolverParams::default(), None, None, None)
        else {
            panic!("White faces a threat sequence");
        };
        assert!(allowed.contains(j10.index(19)) && !lost.is_empty());
        assert!(!lost.contains(j10.index(19)));
    }

    #[test]
    fn pair_defence_finds_a_defending_pair() {
        // Positions from MCTS losses against alpha-beta
        // (docs/tuning/strength/vmix50-fast-vs-alphabeta.jsonl, games 14, 21 and 45): the
        // opponent has a VCDT if we pass, no single stone breaks it, and the search must find a
        // pair that does. Without the pair defence this search (SimpleFactory, 300 playouts)
        // played a losing pair in all three (R8-Q11, J11-K14, G8-K10).
        let positions = [
            "g10 l9-i13 m9-h8 n10-n11 m10-m11 m12-o10 l13-n12 p9-n7",
            "k8 k10-g7 i12-m8 l8-l7 l9-m10 m9-j7 l11-k7 k12-k11 k14-j13 l15-l13 m14-l14 \
             n14-j10 h11-i9 g10-h10 i10-i14",
            "i8 m11-l8 k8-m8 l7-l9 l11-j8 l10-k9 l6-h8",
        ];
        for moves in positions {
            let mut b = replay(moves).unwrap();
            let mut solver = Solver::new(SolverLimits::default());
            assert!(!solver.solve(&b).is_win());
            let mut passed = tactics_board(&b);
            assert!(solver
                .solve_on(&mut passed, b.to_move().opponent(), 2)
                .is_win());
            let mut s = Search::new(
                SearchParams {
                    solver: SolverParams {
                        pair_defence: true,
                        ..SolverParams::default()
                    },
                    ..params(true)
                },
                SimpleFactory,
            );
            for _ in 0..2 {
                let o = s.think(&b, Limits::default()).unwrap();
                b.play(o.best).unwrap();
            }
            assert!(
                !Solver::new(SolverLimits::default()).solve(&b).is_win(),
                "{moves}: the opponent still has a VCDT after the turn"
            );
        }
    }

    fn tactics_board(b: &Board) -> ThreatBoard {
        ThreatBoard::from_board(b)
    }
}
