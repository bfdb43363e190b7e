//! The threat solver at the tree's nodes: the expansion's small solve, which proves an edge or
//! gives the defence zone its children are kept to, and the deep solve of a node that earned
//! it, which sees what the small solve missed.

use super::super::node::Proof;
use super::super::proven::proven_winner;
use super::super::tree::Tree;
use super::super::SearchParams;
use crate::patterns::CellSet;
use crate::rules::{Board, Color, Point, Stage};
use crate::search::common::SolverParams;
use crate::tactics::{defend, DefenceLimits, Solver, SolverLimits, Threat, Verdict};

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

/// What a solve at a node found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Finding {
    /// The winner: the side to move has a VCDT, and the edge is marked proven.
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
) -> Finding {
    let e = tree.edge(edge);
    if board.stage() != Stage::First || e.proof() != Proof::Unknown || !e.claim_deep_solve() {
        return Finding::Nothing;
    }
    let small = solver.limits.max_nodes;
    solver.limits.max_nodes = params.tactics.solver_deep_nodes;
    let proof = expansion_proof(solver, board, mover);
    let finding = if let Some(winner) = proven_winner(proof, mover) {
        e.set_proof(proof);
        Finding::Winner(winner)
    } else if params.tactics.solver_tree_defence
        && tree.children(edge).is_some_and(|c| !c.restricted)
    {
        defence_zone(solver, board).map_or(Finding::Nothing, Finding::Zone)
    } else {
        Finding::Nothing
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

#[cfg(test)]
mod tests {
    use super::super::super::node::Stats;
    use super::super::super::proven::tests::block;
    use super::super::super::tree::ROOT;
    use super::super::root_plan::tests::params;
    use super::*;
    use crate::search::common::test_support::SimpleFactory;
    use crate::tactics::suite::replay;

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
        let set = crate::search::mcts::expand::child_list(
            &pos,
            &p,
            &[],
            false,
            Some(&zone),
            None,
            &mut scratch,
        );
        assert!(set.restricted);
        assert_eq!(scratch.list.len(), zone.len());
        assert!(scratch.list.iter().all(|c| zone.contains(c.0.index(19))));
        let free =
            crate::search::mcts::expand::child_list(&pos, &p, &[], false, None, None, &mut scratch);
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
            Finding::Winner(Color::Black)
        );
        assert_eq!(tree.edge(a.first).proof(), Proof::Loss);
        assert_eq!(solver.limits.max_nodes, p.tactics.solver_tree_nodes);
        // Claimed once: a second visit does not solve again.
        tree.edge(a.first).set_proof(Proof::Unknown);
        assert_eq!(
            deep_solve(&mut solver, &tree, a.first, &b, white, &p),
            Finding::Nothing
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
        assert!(crate::search::mcts::expand::expand(
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
        let Finding::Zone(zone) = deep_solve(&mut solver, &tree, a.first, &b, Color::White, &p)
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
        let mut narrow_once = || {
            crate::search::mcts::expand::narrow_to_zone(
                &tree,
                &p,
                a.first,
                &pos,
                &zone,
                &mut scratch,
            )
        };
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
}
