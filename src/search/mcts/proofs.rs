//! The threat-space solver inside the MCTS tree (MCTS-solver, Winands et al. 2008):
//!
//! * An edge whose stone makes six, or whose position gives the side to move a VCDT
//!   ([`expansion_proof`]), is marked won or lost for the player who placed it; [`propagate`]
//!   backs the marks up (a node is won when one child wins for the player to choose, lost when
//!   every child of a complete set loses). Descents stop at proven edges and back up the proven
//!   result.
//! * The root plan of `common::root_plan` marks the root's children ([`restrict_root`]).
//! * Selection takes a proven win and skips proven losses; the final choice does the same
//!   ([`root_choice`]).

use super::choice::choose;
use super::node::{Children, Proof};
use super::tree::{Tree, ROOT};
use super::SearchParams;
use crate::patterns::CellSet;
use crate::rules::{Board, Color, Point, Stage};
use crate::search::common::SolverParams;
use crate::tactics::{defend, DefenceLimits, Solver, SolverLimits, Threat, Verdict};

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

/// What the deep solve of a turn-start edge found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum DeepFinding {
    /// The side to move, which has a VCDT: the edge is marked proven.
    Winner(Color),
    /// The opponent of the side to move has a VCDT if it passed: its defence zone.
    Zone(CellSet),
    Nothing,
}

/// The deep solve of an expanded turn-start edge placed by `mover` (see
/// `search.solver_deep_nodes`), once per edge, with the larger node limit: marks the edge when
/// the side to move has a VCDT; otherwise, when the edge's children are free and zones are on
/// (`solver_tree_defence`), looks again for the opponent's VCDT and returns its defence zone,
/// which the expansion's small solve missed.
pub(crate) fn deep_solve(
    solver: &mut Solver,
    tree: &Tree,
    edge: u32,
    board: &Board,
    mover: Color,
    params: &SearchParams,
) -> DeepFinding {
    let e = tree.edge(edge);
    if board.stage() != Stage::First || e.proof() != Proof::Unknown || !e.claim_deep_solve() {
        return DeepFinding::Nothing;
    }
    let small = solver.limits.max_nodes;
    solver.limits.max_nodes = params.tactics.solver_deep_nodes;
    let proof = expansion_proof(solver, board, mover);
    let finding = if let Some(winner) = proven_winner(proof, mover) {
        e.set_proof(proof);
        DeepFinding::Winner(winner)
    } else if params.tactics.solver_tree_defence
        && tree.children(edge).is_some_and(|c| !c.restricted)
    {
        defence_zone(solver, board).map_or(DeepFinding::Nothing, DeepFinding::Zone)
    } else {
        DeepFinding::Nothing
    };
    solver.limits.max_nodes = small;
    finding
}

/// The defence zone at a tree node: when the opponent of the side to move on `board` has a VCDT
/// if the side to move passed, the empty cells where its stone can change that proof (or make a
/// counter-threat). Every defence has a stone there (at a turn's first stone it can go first), so
/// children kept to the zone still stand for every move that matters: a restricted, complete set
/// whose proven losses back up. `None`: no VCDT found within the solver's limits.
pub(crate) fn defence_zone(solver: &mut Solver, board: &Board) -> Option<CellSet> {
    if board.is_over() || board.stone_count() == 0 {
        return None;
    }
    // The zone alone: verifying its cells one by one costs a solve each, too much per expansion.
    let limits = DefenceLimits {
        verify_nodes: 1,
        max_verifications: 0,
        max_time: None,
    };
    let Threat::Vcdt(defence) = defend(solver, board, &limits) else {
        return None;
    };
    let size = board.size();
    let mut zone = defence.zone;
    for cell in defence.zone.iter() {
        if board.get(Point::from_index(cell, size)).is_some() {
            zone.remove(cell);
        }
    }
    (!zone.is_empty()).then_some(zone)
}

/// The solver the tree's expansions use (small limits).
pub(crate) fn tree_solver(params: &SolverParams) -> Solver {
    Solver::new(SolverLimits {
        max_depth: 6,
        max_nodes: params.solver_tree_nodes,
        max_time: None,
        free_reach: params.solver_free_reach,
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

/// The root child to play: a proven win, else the choice ([`choose`]) among those not proven lost
/// or excluded; `None` when every child is lost or excluded.
pub(crate) fn root_choice(tree: &Tree, params: &SearchParams) -> Option<u32> {
    let children = tree.children(ROOT)?;
    if let Some(win) = children
        .range()
        .find(|&i| tree.edge(i).proof() == Proof::Win)
    {
        return Some(win);
    }
    choose(
        tree,
        params,
        children
            .range()
            .filter(|&i| matches!(tree.edge(i).proof(), Proof::Unknown)),
    )
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::node::Stats;
    use super::*;
    use crate::search::common::test_support::SimpleFactory;
    use crate::search::common::{root_plan, RootPlan};
    use crate::search::{Decision, Limits, Search};
    use crate::tactics::suite::replay;
    use crate::tactics::ThreatBoard;

    fn params(solver: bool) -> SearchParams {
        SearchParams {
            playouts: 300,
            max_nodes: 1 << 18,
            tactics: SolverParams {
                solver,
                ..SolverParams::default()
            },
            ..SearchParams::default()
        }
    }

    /// Gives `parent` the children `cells` (prior 0.5, no visits), published.
    pub(in super::super) fn block(
        tree: &Tree,
        parent: u32,
        cells: &[u16],
        restricted: bool,
    ) -> Children {
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
        assert_eq!(root_choice(&tree, &SearchParams::default()), None);
        tree.edge(a.first + 1).set_proof(Proof::Unknown);
        tree.edge(a.first + 1)
            .set_stats(Stats { visits: 1, wins: 0 });
        assert_eq!(
            root_choice(&tree, &SearchParams::default()),
            Some(a.first + 1)
        );
    }

    #[test]
    fn root_plays_a_proven_threat_sequence() {
        // Black's open three on row 10 and two on column o: n10 n12 then a column four wins
        // (src/tactics/vcdt.txt, hand-row-then-column), though no six is possible this turn.
        let b = replay("k10 a19-h19 l10-m10 o19-a12 n13-o13 s12-s5").unwrap();
        let o = Search::new(params(true), SimpleFactory)
            .think(&b, &Limits::default())
            .unwrap();
        assert_eq!(o.decision, Decision::Proven);
        assert_eq!(o.playouts, 0);
        let plain = Search::new(params(false), SimpleFactory)
            .think(&b, &Limits::default())
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
        let o = s.think(&b, &Limits::default()).unwrap();
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

    /// `board` after the whole turn the root plays at once, stone by stone (the second stone
    /// found again by the root's pre-pass); panics when either stone is left to the search.
    fn root_turn(solver: &mut Solver, board: &Board, params: &SolverParams) -> Board {
        let mut after = board.clone();
        for stone in ["first", "second"] {
            let RootPlan::Play(p) = root_plan(solver, &after, params, None, None, None) else {
                panic!("the turn's {stone} stone is not played at once");
            };
            after.play(p).unwrap();
        }
        after
    }

    #[test]
    fn root_plays_its_own_single_threat_win_stone_by_stone() {
        // Game 9 of experiments/cloudict/liuzi-vs-cloudict-d4-deepzone.jsonl, Black to move:
        // no VCDT, but a four plus a building stone wins (tactics/single_threat.rs).
        let b = replay("l10 h10-j11 k11-j12 i13-h13").unwrap();
        let params = SolverParams {
            solver_single_threat_share: 0.5,
            ..SolverParams::default()
        };
        let mut solver = Solver::new(SolverLimits::default());
        let after = root_turn(&mut solver, &b, &params);
        // The turn makes exactly one threat.
        assert_eq!(ThreatBoard::from_board(&after).threats(Color::Black), 1);
        // Off, the root leaves the choice to the search.
        let mut solver = Solver::new(SolverLimits::default());
        let off = SolverParams {
            solver_single_threat_share: 0.0,
            ..params
        };
        assert!(!matches!(
            root_plan(&mut solver, &b, &off, None, None, None),
            RootPlan::Play(_)
        ));
    }

    #[test]
    fn root_plays_its_own_quiet_win_stone_by_stone() {
        // Game 9 of experiments/cloudict/liuzi-vs-cloudict-d4-paircheck40.jsonl before Cloudict's
        // quiet m9 k9 (mcts/quiet_wins.rs): Black to move has no VCDT, but a quiet turn wins.
        let b = replay("l10 h10-j11 k11-j12 i13-h12").unwrap();
        let off = SolverParams {
            solver_quiet_turn_share: 0.0,
            ..SolverParams::default()
        };
        let mut solver = Solver::new(SolverLimits::default());
        assert!(!matches!(
            root_plan(&mut solver, &b, &off, None, None, None),
            RootPlan::Play(_)
        ));
        let params = SolverParams {
            solver_quiet_turn_share: 0.5,
            ..off
        };
        let after = root_turn(&mut solver, &b, &params);
        // White, to move, has no pair that stops Black's VCDT.
        let mut tb = ThreatBoard::from_board(&after);
        let limits = crate::tactics::QuietWinLimits {
            verify_nodes: 20_000,
            ..Default::default()
        };
        let answer = crate::tactics::defender_lost(&mut solver, &mut tb, Color::White, &limits);
        assert_eq!(answer, crate::tactics::QuietWin::Win);
    }

    #[test]
    fn pair_defence_finds_a_defending_pair() {
        // Positions from MCTS losses against alpha-beta
        // (experiments/tuning/strength/vmix50-fast-vs-alphabeta.jsonl, games 14, 21 and 45): the
        // opponent has a VCDT if we pass, no single stone breaks it, and the search must find a
        // pair that does. Without the pair defence this search (SimpleFactory, 300 playouts)
        // played a losing pair in all three (R8-Q11, J11-K14, G8-K10).
        let positions = [
            "g10 l9-i13 m9-h8 n10-n11 m10-m11 m12-o10 l13-n12 p9-n7",
            "k8 k10-g7 i12-m8 l8-l7 l9-m10 m9-j7 l11-k7 k12-k11 k14-j13 l15-l13 m14-l14 \
             n14-j10 h11-i9 g10-h10 i10-i14",
            "i8 m11-l8 k8-m8 l7-l9 l11-j8 l10-k9 l6-h8",
        ];
        // Both pair defences: by proof zones and one first stone at a time.
        for (moves, zones) in positions.iter().flat_map(|m| [(m, false), (m, true)]) {
            let mut b = replay(moves).unwrap();
            let mut solver = Solver::new(SolverLimits::default());
            assert!(!solver.solve(&b).is_win());
            let mut passed = tactics_board(&b);
            assert!(solver
                .solve_on(&mut passed, b.to_move().opponent(), 2)
                .is_win());
            let mut s = Search::new(
                SearchParams {
                    tactics: SolverParams {
                        solver_pair_defence: true,
                        solver_pair_zones: zones,
                        ..SolverParams::default()
                    },
                    ..params(true)
                },
                SimpleFactory,
            );
            for _ in 0..2 {
                let o = s.think(&b, &Limits::default()).unwrap();
                b.play(o.best).unwrap();
            }
            assert!(
                !Solver::new(SolverLimits::default()).solve(&b).is_win(),
                "{moves} (zones {zones}): the opponent still has a VCDT after the turn"
            );
        }
    }

    #[test]
    fn defence_zone_holds_the_breaking_stone_and_only_empty_cells() {
        // White to move; Black's threes on row 10 and the diagonal f6-h8 cross at j10, the one
        // stone that stops Black's VCDT (hand-crossing-threes).
        let b = replay("k10 a19-h19 l10-m10 o19-a12 f6-g7 s12-s5 h8-s1").unwrap();
        let mut solver = tree_solver(&SolverParams::default());
        solver.limits.max_nodes = 100_000;
        let zone = defence_zone(&mut solver, &b).expect("Black has a VCDT if White passes");
        assert!(zone.contains(Point::new(9, 9).index(19)));
        assert!(zone.points(19).all(|p| b.get(p).is_none()));
        assert!(zone.len() < 60, "a zone, not the board: {}", zone.len());
        // Nothing to defend on a quiet board.
        let quiet = replay("k10 l11-j9").unwrap();
        assert_eq!(defence_zone(&mut solver, &quiet), None);
    }

    #[test]
    fn a_zone_restricts_the_children_to_a_complete_set() {
        let b = replay("k10 a19-h19 l10-m10 o19-a12 f6-g7 s12-s5 h8-s1").unwrap();
        let pos = crate::search::common::PositionFactory::position(&SimpleFactory, &b);
        let mut solver = tree_solver(&SolverParams::default());
        solver.limits.max_nodes = 100_000;
        let zone = defence_zone(&mut solver, &b).unwrap();
        let mut scratch = Default::default();
        let p = params(true);
        let set =
            super::super::expand::child_list(&pos, &p, &[], false, Some(&zone), None, &mut scratch);
        assert!(set.restricted);
        assert_eq!(scratch.list.len(), zone.len());
        assert!(scratch.list.iter().all(|c| zone.contains(c.0.index(19))));
        let free = super::super::expand::child_list(&pos, &p, &[], false, None, None, &mut scratch);
        assert!(!free.restricted && scratch.list.len() > zone.len());
    }

    #[test]
    fn a_deep_solve_proves_what_the_expansion_solve_missed_once_per_edge() {
        // Black to move has a VCDT of depth 5 that takes about 10,000 solver nodes (from
        // experiments/cloudict/liuzi-vs-cloudict-d4-clock.jsonl, game 11, after White's turn 7).
        let b = replay("l8 j12-m9 n8-m8 k8-n9 k9-l10 l9-j10 p8-o9 o8-p10").unwrap();
        let mut p = params(true);
        p.tactics.solver_deep_nodes = 100_000;
        let mut solver = tree_solver(&p.tactics);
        let white = Color::White;
        assert_eq!(expansion_proof(&mut solver, &b, white), Proof::Unknown);
        let tree = Tree::new(64);
        let a = block(&tree, ROOT, &[10], false);
        assert_eq!(
            deep_solve(&mut solver, &tree, a.first, &b, white, &p),
            DeepFinding::Winner(Color::Black)
        );
        assert_eq!(tree.edge(a.first).proof(), Proof::Loss);
        assert_eq!(solver.limits.max_nodes, p.tactics.solver_tree_nodes);
        // Claimed once: a second visit does not solve again.
        tree.edge(a.first).set_proof(Proof::Unknown);
        assert_eq!(
            deep_solve(&mut solver, &tree, a.first, &b, white, &p),
            DeepFinding::Nothing
        );
    }

    #[test]
    fn a_deep_solve_finds_the_zone_the_expansion_missed_and_narrows_the_children() {
        // Black to move (experiments/cloudict/liuzi-vs-cloudict-d4-open.jsonl, game 7): White
        // has a VCDT if Black passes that the expansion's 300-node solve does not see.
        let b = replay("k9 k7-g8 j10-j8 l8-m9 l10-m11 n12-i7 j7-j6 j9-k10").unwrap();
        assert_eq!(b.to_move(), Color::Black);
        let mut p = params(true);
        p.tactics.solver_deep_nodes = 100_000;
        let mut solver = tree_solver(&p.tactics);
        assert_eq!(
            defence_zone(&mut solver, &b),
            None,
            "the small solve misses it"
        );
        // The node after Black's p8-o9 with free children from a plain expansion, two visited.
        let pos = crate::search::common::PositionFactory::position(&SimpleFactory, &b);
        let tree = Tree::new(4096);
        let a = block(&tree, ROOT, &[10], false);
        let mut scratch = Default::default();
        assert!(super::super::expand::expand(
            &tree,
            &p,
            a.first,
            4,
            &pos,
            Default::default(),
            &mut scratch
        ));
        let free = tree.children(a.first).unwrap();
        assert!(!free.restricted);
        let DeepFinding::Zone(zone) = deep_solve(&mut solver, &tree, a.first, &b, Color::White, &p)
        else {
            panic!("the deep solve finds White's VCDT if Black passes");
        };
        assert_eq!(solver.limits.max_nodes, p.tactics.solver_tree_nodes);
        let cell = |i: u32| tree.edge(i).cell() as usize;
        // Visits on a child the zone keeps (not the block's first) and on one it drops.
        let kept = free
            .range()
            .rev()
            .find(|&i| zone.contains(cell(i)))
            .unwrap();
        let dropped = free.range().find(|&i| !zone.contains(cell(i))).unwrap();
        assert!(kept != free.first);
        tree.edge(kept).set_stats(Stats {
            visits: 5,
            wins: 64,
        });
        tree.edge(dropped).set_stats(Stats { visits: 3, wins: 0 });
        let mut narrow_once =
            || super::super::expand::narrow_to_zone(&tree, &p, a.first, &pos, &zone, &mut scratch);
        assert!(narrow_once());
        let narrow = tree.children(a.first).unwrap();
        assert!(narrow.restricted && narrow.count as usize == zone.len());
        assert!(narrow.range().all(|i| zone.contains(cell(i))));
        // The visited child keeps its statistics and comes first; the rest are fresh.
        assert_eq!(cell(narrow.first), cell(kept));
        assert_eq!(
            tree.edge(narrow.first).stats(),
            Stats {
                visits: 5,
                wins: 64
            }
        );
        assert!(narrow
            .range()
            .skip(1)
            .all(|i| tree.edge(i).stats().visits == 0));
        let priors: f32 = narrow.range().map(|i| tree.edge(i).prior()).sum();
        assert!((priors - 1.0).abs() < 1e-4);
        // Restricted now: nothing more to narrow.
        assert!(!narrow_once());
    }

    fn tactics_board(b: &Board) -> ThreatBoard {
        ThreatBoard::from_board(b)
    }

    #[test]
    fn a_lost_root_is_searched_without_proofs_for_the_hardest_loss() {
        // Game 0 of experiments/cloudict/liuzi-vs-cloudict-d4-eng21k-s2.jsonl before Liuzi's
        // (Black's) turn 20: Cloudict's White has a VCDT and no pair of Black's breaks it.
        let b = replay(
            "k10 j11-g9 l11-l12 j9-i10 l13-l10 l15-l9 k9-k8 j8-j10 j12-j7 k12-k11 k7-m11 \
             k5-k13 n12-n13 o13-h9 g8-f9 h8-i7 j6-m12 p15-f10 e11-q12 o12-k14",
        )
        .unwrap();
        let mut solver = Solver::new(SolverLimits::default());
        let search = Search::new(params(true), SimpleFactory);
        let order: Vec<Point> = search.policy(&b).into_iter().map(|(p, _)| p).collect();
        let RootPlan::Lost { zone, .. } = root_plan(
            &mut solver,
            &b,
            &SolverParams::default(),
            None,
            None,
            Some(&order),
        ) else {
            panic!("every first stone of Black's loses");
        };
        let run = |resist_lost| {
            let mut s = Search::new(
                SearchParams {
                    playouts: 2000,
                    resist_lost,
                    ..params(true)
                },
                SimpleFactory,
            );
            let o = s.think(&b, &Limits::default()).unwrap();
            assert!(zone.contains(o.best.index(19)), "{o:?}");
            let visited: Vec<(u32, f32)> = s
                .analysis()
                .children
                .iter()
                .filter(|c| c.visits > 0)
                .map(|c| (c.visits, c.win_rate.unwrap()))
                .collect();
            (o, visited)
        };
        // Resisting: the search spreads over the zone and grows a tree below it; what it
        // reports stays the proof's: every stone loses.
        let (o, visited) = run(true);
        assert!(visited.len() >= 2, "{visited:?}");
        assert!(o.nodes > 1000, "{o:?}");
        assert_eq!(o.win_rate, Some(0.0));
        assert!(visited.iter().all(|&(_, w)| w == 0.0), "{visited:?}");
        // Not resisting: proofs make every stone the same loss, and the tree stays a stub.
        let (o, visited) = run(false);
        assert!(visited.iter().all(|&(_, w)| w == 0.0), "{visited:?}");
        assert!(o.nodes < 1000, "{o:?}");
    }
}
