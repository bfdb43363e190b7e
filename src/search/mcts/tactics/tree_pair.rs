//! The pair defence in the tree (`search.solver_tree_pair_nodes`): proving a turn-start node lost
//! for the side to move when the player who just moved has a VCDT if it passed and no pair of
//! the side to move breaks it.
//!
//! The tree's own proofs cannot reach such a node: its children are kept to the defence zone
//! (`solver_tree_defence`), but it is lost only once every first stone of the zone is lost with
//! every second stone, about a thousand pairs, each needing its own solve deeper than the tree's
//! solves go. Yet this is how Cloudict's quiet turns win (docs/search.md, in-tree tactics):
//! its setting-up turn is among the tree's first candidates for it, and the position after it
//! looks playable to the playouts. So, once a node of that kind has earned a few visits, the
//! pair defence by proof zones ([`pair_defence`], which refutes most pairs without solving them)
//! runs on it with a node budget, and a proof backs up like any other: the opponent's quiet turn
//! proves our pair before it lost, and our own proves a quiet win.

use super::super::node::Proof;
use super::super::tree::Tree;
use super::super::SearchParams;
use crate::rules::{Board, Color, Stage};
use crate::search::common::SolverParams;
use crate::tactics::{
    pair_defence, PairDefenceLimits, PairThreat, Solver, SolverLimits, ThreatBoard,
};

/// Solver stones the next pair defence in the tree may spend when the search's pair defences
/// have spent `spent`: `solver_tree_pair_nodes`, or what is left of
/// `solver_tree_pair_search_nodes` if that is less (0: none is started).
pub(crate) fn tree_pair_budget(tactics: &SolverParams, spent: u64) -> u64 {
    let per_node = tactics.solver_tree_pair_nodes;
    match tactics.solver_tree_pair_search_nodes {
        0 => per_node,
        cap => per_node.min(cap.saturating_sub(spent)),
    }
}

/// Asks, once per edge, whether the side to move at the turn-start edge `edge` (placed by
/// `mover`) has a pair that breaks `mover`'s VCDT-if-it-passed (the pair defence by proof zones,
/// [`pair_defence`], stopping at the first defending pair); when it has none (every zone cell
/// refuted as a first stone), marks the edge won for `mover` and returns `Some(mover)`. Within
/// `budget` solver stones (the caller's share of `solver_tree_pair_nodes` and the search's
/// `solver_tree_pair_search_nodes`), so a single-threaded search with a playout limit stays
/// reproducible; with none the edge is left unclaimed, for a later search. The solver's limits
/// are restored.
pub(crate) fn pair_defence_proof(
    solver: &mut Solver,
    tree: &Tree,
    edge: u32,
    board: &Board,
    mover: Color,
    params: &SearchParams,
    budget: u64,
) -> Option<Color> {
    let e = tree.edge(edge);
    if budget == 0
        || board.is_over()
        || board.stage() != Stage::First
        || board.to_move() == mover
        || e.proof() != Proof::Unknown
        || !e.claim_pair_proof()
    {
        return None;
    }
    let saved = solver.limits.clone();
    let start = solver.total_nodes();
    // The first solve (the VCDT if we passed) at the root's depth and the verifications' limit
    // (the tree's small solves stop shallower); the checks within the rest of the budget.
    let tactics = &params.tactics;
    solver.limits.max_depth = SolverLimits::default().max_depth;
    solver.limits.max_nodes = budget.min(tactics.solver_verify_nodes).max(1);
    let defender = board.to_move();
    let mut tb = ThreatBoard::from_board(board);
    let limits = PairDefenceLimits {
        verify_nodes: (tactics.solver_verify_nodes.min(budget) / 4).max(1),
        max_nodes: budget,
        max_time: None,
        enough: 1,
        ..PairDefenceLimits::default()
    };
    let lost = match pair_defence(solver, &mut tb, defender, 2, &[], &limits) {
        PairThreat::Vcdt(d) => {
            d.partners.is_empty()
                && d.zone
                    .iter()
                    .all(|c| tb.get(c).is_some() || d.lost.contains(c))
        }
        PairThreat::None | PairThreat::Unknown => false,
    };
    solver.limits = saved;
    tracing::debug!(
        "tree pair defence at {} stones: {}, {} nodes",
        board.stone_count(),
        if lost {
            "no pair defends"
        } else {
            "not proven"
        },
        solver.total_nodes() - start
    );
    if !lost {
        return None;
    }
    e.set_proof(Proof::Win);
    Some(mover)
}

#[cfg(test)]
mod tests {
    use super::super::super::proven::tests::block;
    use super::super::super::tree::ROOT;
    use super::super::node_solves::tree_solver;
    use super::*;
    use crate::tactics::suite::replay;

    fn params(nodes: u64) -> SearchParams {
        let mut p = SearchParams::default();
        p.tactics.solver_tree_pair_nodes = nodes;
        p
    }

    /// Game 4 of experiments/cloudict/liuzi-vs-cloudict-d4-depthstart.jsonl up to Liuzi's
    /// (Black's) eighth turn: White has a VCDT if Black passes.
    const BEFORE: &str = "h13 i9-j7 i12-h11 h9-g10 f11-g12 f9-i8 k6-i14 d9-j15";

    #[test]
    fn a_node_where_no_pair_defends_is_proven_once() {
        // After Black's e9 i10 and White's j9 k9 no pair of Black's breaks White's VCDT
        // (tactics-audit: lost already); the tree's edge for White's k9 is won for White.
        let board = replay(&format!("{BEFORE} e9-i10 j9-k9")).unwrap();
        let p = params(200_000);
        let mut solver = tree_solver(&p.tactics);
        let tree = Tree::new(64);
        let a = block(&tree, ROOT, &[10], false);
        let white = Color::White;
        let found = pair_defence_proof(&mut solver, &tree, a.first, &board, white, &p, 200_000);
        assert_eq!(found, Some(white));
        assert_eq!(tree.edge(a.first).proof(), Proof::Win);
        assert_eq!(solver.limits.max_nodes, p.tactics.solver_tree_nodes);
        // Once per edge.
        tree.edge(a.first).set_proof(Proof::Unknown);
        let again = pair_defence_proof(&mut solver, &tree, a.first, &board, white, &p, 200_000);
        assert_eq!(again, None);
    }

    #[test]
    fn the_search_budget_bounds_the_pair_defences_together() {
        let mut p = params(20_000);
        p.tactics.solver_tree_pair_search_nodes = 50_000;
        assert_eq!(tree_pair_budget(&p.tactics, 0), 20_000);
        assert_eq!(tree_pair_budget(&p.tactics, 40_000), 10_000);
        assert_eq!(tree_pair_budget(&p.tactics, 50_000), 0);
        assert_eq!(tree_pair_budget(&p.tactics, 90_000), 0);
        p.tactics.solver_tree_pair_search_nodes = 0;
        assert_eq!(tree_pair_budget(&p.tactics, u64::MAX), 20_000);
        // Off stays off whatever is left.
        p.tactics.solver_tree_pair_nodes = 0;
        p.tactics.solver_tree_pair_search_nodes = 50_000;
        assert_eq!(tree_pair_budget(&p.tactics, 0), 0);
    }

    #[test]
    fn a_node_with_a_defending_pair_or_no_budget_is_left_open() {
        // Before Black's turn, k8 g9 breaks White's VCDT (within the solver's model).
        let board = replay(BEFORE).unwrap();
        let white = Color::White;
        let tree = Tree::new(64);
        let a = block(&tree, ROOT, &[10, 11], false);
        let p = params(200_000);
        let mut solver = tree_solver(&p.tactics);
        let found = pair_defence_proof(&mut solver, &tree, a.first, &board, white, &p, 200_000);
        assert_eq!(found, None);
        assert_eq!(tree.edge(a.first).proof(), Proof::Unknown);
        // Lost already, but with no nodes to spend nothing is tried or claimed.
        let lost = replay(&format!("{BEFORE} e9-i10 j9-k9")).unwrap();
        let off = params(0);
        let found = pair_defence_proof(&mut solver, &tree, a.first + 1, &lost, white, &off, 0);
        assert_eq!(found, None);
        assert!(tree.edge(a.first + 1).claim_pair_proof());
    }
}
